// Small event bus with typed channels and replay for late subscribers.
'use strict';

const EventEmitter = require('events');

const DEFAULT_BUFFER = 32;
let instanceCount = 0;

export const CHANNELS = Object.freeze(['user', 'order', 'audit']);

export class EventBus extends EventEmitter {
  static #instances = new Set();
  replayLimit = DEFAULT_BUFFER;
  onError = (error) => console.error('[bus]', error);

  constructor(name, { replay = true } = {}) {
    super();
    this.name = name;
    this.replay = replay;
    this.history = new Map();
    EventBus.#instances.add(this);
    instanceCount += 1;
  }

  get size() {
    return this.history.size;
  }

  publish(channel, payload) {
    const entry = { channel, payload, at: Date.now() };
    this.#remember(entry);
    this.emit(channel, payload);
    return entry;
  }

  subscribe(channel, listener) {
    const unsubscribe = () => this.off(channel, listener);
    this.on(channel, listener);
    if (this.replay) {
      for (const past of this.history.get(channel) ?? []) listener(past.payload);
    }
    return unsubscribe;
  }

  #remember(entry) {
    const list = this.history.get(entry.channel) ?? [];
    list.push(entry);
    if (list.length > this.replayLimit) list.shift();
    this.history.set(entry.channel, list);
  }

  static instances() {
    return [...EventBus.#instances];
  }

  async *drain(channel) {
    for (const entry of this.history.get(channel) ?? []) yield entry;
  }
}

class AuditLog {
  constructor(bus) {
    this.bus = bus;
  }

  record(action) {
    return this.bus.publish('audit', { action });
  }
}

export function createBus(name) {
  return new EventBus(name);
}

export default function defaultBus() {
  return createBus('default');
}

const formatEntry = (entry) => `${entry.channel}@${entry.at}`;

function* channelsOf(bus) {
  yield* bus.history.keys();
}

export const handlers = {
  log(entry) {
    console.log(formatEntry(entry));
  },
  ignore: () => {},
};
