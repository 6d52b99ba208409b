#!/usr/bin/env node
/* eslint-disable no-console */
'use strict';

const path = require('path'); // built-in
const URL_RE = /https?:\/\/[^\s/]+\/\*/; // a regex with // and /* inside
const HELP = `Usage: tool [options]   
  // this line is text in a template string
`;

/**
 * Joins path parts.
 * @param {...string} parts
 */
function join(...parts) {
  return parts.map((p) => p.trim()).join(path.sep);
}

function* range(start, end) {
  for (let i = start; i < end; i++) yield i;
}

const handlers = {
  start() {
    console.log('start'); // inline
    return true;
  },
  stop: function () {
    console.log('stop');
    return false;
  },
  restart: () => {
    handlers.stop();
    handlers.start();
  },
  short: () => 1,
};

class Task {
  #id = 0;
  static count = 0;
  label = 'task';

  constructor(name) {
    this.name = name;
    Task.count++;
  }

  get id() { return this.#id; }

  run(callback) {
    const inner = function () {
      return callback(this.name);
    };
    return inner.call(this);
  }
}

module.exports = function main(argv) {
  const task = new Task(argv[0] || 'default');
  return task.run((name) => console.log(name));
};

module.exports.Task = Task;
module.exports.join = join;
