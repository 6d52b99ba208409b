/// <reference types="node" />
/**
 * Typed event store.
 * @packageDocumentation
 */
import { EventEmitter } from "events"; // node's emitter

export const VERSION = "1.2.0";
const COMMENT_LIKE = "/* not a comment */ // nor this";
const pattern = /\/\/ keep this regex/g;
const template = `line one // not a comment   
  ${VERSION /* a real comment inside a substitution */}
`;

export type Listener<T> = (event: T) => void;

export interface Store<T extends { id: string }> {
  get(id: string): T | undefined;
  put(item: T): void; // replaces
}

export enum Level {
  Debug = 0, // verbose
  Info,
}

// @ts-ignore: legacy typings
declare const legacy: any;

export class MemoryStore<T extends { id: string }> extends EventEmitter implements Store<T> {
  private readonly items = new Map<string, T>();
  onChange: Listener<T> = (item) => {
    this.emit("change", item);
    console.log("changed", item.id);
  };

  constructor(private readonly name: string) {
    super();
    /* warm up */
    this.items.clear();
  }

  get(id: string): T | undefined {
    return this.items.get(id);
  }

  put(item: T): void {
    const previous = this.items.get(item.id);
    function audit(entry: T) { // nested: disappears
      console.debug("audit", entry.id);
    }
    audit(item);
    this.items.set(item.id, item);
    if (previous !== item) this.onChange(item);
  }

  abstract?(): void;
}

export function createStore<T extends { id: string }>(name: string): MemoryStore<T> {
  return new MemoryStore<T>(name);
}

export const isEmpty = <T extends { id: string }>(store: MemoryStore<T>): boolean => {
  const probe = store.get("");
  return probe === undefined;
};

export const double = (n: number) => n * 2;

registerHandler(function onEvent(event: string) {
  console.log(event);
});

describe("MemoryStore", () => {
  beforeEach(() => {
    resetAll();
  });

  it("stores and reads", async () => {
    const store = createStore<{ id: string }>("s");
    store.put({ id: "a" });
    expect(store.get("a")).toEqual({ id: "a" });
  });
});

export const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  // redirects
  301: "Moved Permanently",
  302: "Found",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  418: "I'm a teapot",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
} as const;
