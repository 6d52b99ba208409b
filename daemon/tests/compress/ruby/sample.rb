#!/usr/bin/env ruby
# frozen_string_literal: true
# Copyright 2024 Example Corp.

require "json" # stdlib

# Notifies subscribers of events.
module Notifier
  VERSION = "1.0" # semantic
  PATTERN = /#[a-z]+/ # a regex with a hash

  TEMPLATE = <<~TEXT
    Hello #{"name"}, # not a comment   
    this is a heredoc
  TEXT

  class Subscriber
    attr_reader :name, :topics

    def initialize(name, topics = [])
      @name = name # who
      @topics = topics
    end

    def subscribed?(topic) = topics.include?(topic)

    def notify(event)
      # nested defs disappear with the body
      def helper
        :inner
      end
      puts "#{name} got #{event}"
    rescue StandardError => e
      warn e.message
    end

    def self.build(hash)
      new(hash.fetch("name"), hash.fetch("topics", []))
    end
  end

=begin
A block comment
spanning lines.
=end

  class << self
    def subscribers
      @subscribers ||= []
    end
  end

  def self.publish(event)
    subscribers.each { |s| s.notify(event) }
  end
end
