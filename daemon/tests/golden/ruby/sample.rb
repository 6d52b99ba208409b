# frozen_string_literal: true

require "json"
require "time"

# Webhook delivery with signing and exponential retry.
module Webhooks
  VERSION = "2.1.0"
  DEFAULT_HEADERS = { "Content-Type" => "application/json" }.freeze

  class DeliveryError < StandardError; end

  Attempt = Struct.new(:status, :duration) do
    def success?
      status.between?(200, 299)
    end
  end

  module Signing
    ALGORITHM = "sha256"

    def self.sign(secret, body)
      OpenSSL::HMAC.hexdigest(ALGORITHM, secret, body)
    end

    module_function

    def header(signature)
      "#{ALGORITHM}=#{signature}"
    end
  end

  class Endpoint
    include Signing

    attr_reader :url, :secret
    attr_accessor :enabled

    MAX_ATTEMPTS = 5

    def initialize(url, secret:, enabled: true)
      @url = url
      @secret = secret
      @enabled = enabled
      @attempts = []
    end

    def deliver(event, payload = {})
      body = JSON.generate(event: event, data: payload, sent_at: Time.now.utc.iso8601)
      with_retries { post(body) }
    end

    def enabled?
      @enabled
    end

    def url=(value)
      @url = value.to_s.strip
    end

    def ==(other)
      other.is_a?(Endpoint) && other.url == url
    end

    class << self
      def from_h(hash)
        new(hash.fetch("url"), secret: hash.fetch("secret"))
      end
    end

    protected

    def attempts
      @attempts.dup
    end

    private

    def with_retries
      delay = 0.5
      MAX_ATTEMPTS.times do |i|
        return yield
      rescue DeliveryError
        sleep(delay * (2**i))
      end
      raise DeliveryError, "gave up on #{url}"
    end

    def post(body)
      raise DeliveryError, "disabled" unless enabled?
    end

    alias_method :send_event, :deliver
    alias dispatch deliver
  end
end

class Webhooks::Registry
  def self.instance
    @instance ||= new
  end

  def register(endpoint) = (@endpoints ||= []) << endpoint
end
