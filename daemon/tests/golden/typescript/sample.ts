// Repository layer over a key-value store, with pluggable serializers.
import { createHash } from "crypto";

export const DEFAULT_TTL_SECONDS = 300;
const KEY_SEPARATOR = ":";

export type EntityId = string | number;
type Serialized = { body: string; checksum: string };

export enum CacheMode {
  ReadThrough = "read-through",
  WriteBack = "write-back",
}

const enum Flags {
  None = 0,
  Dirty = 1 << 0,
}

export interface Serializer<T> {
  readonly contentType: string;
  encode(value: T): Serialized;
  decode(raw: Serialized): T;
}

interface Clock {
  now(): number;
}

export abstract class Repository<T extends { id: EntityId }> {
  protected static instances = 0;
  private readonly prefix: string;
  public onMiss?: (id: EntityId) => void;
  protected log = (message: string): void => console.debug(`[${this.prefix}] ${message}`);

  constructor(prefix: string, protected readonly serializer: Serializer<T>, private clock?: Clock) {
    this.prefix = prefix;
    Repository.instances++;
  }

  abstract load(key: string): Promise<string | undefined>;

  find(id: EntityId): Promise<T | undefined>;
  find(ids: EntityId[]): Promise<T[]>;
  async find(idOrIds: EntityId | EntityId[]): Promise<T | T[] | undefined> {
    if (Array.isArray(idOrIds)) {
      return Promise.all(idOrIds.map((id) => this.find(id) as Promise<T>));
    }
    const raw = await this.load(this.keyFor(idOrIds));
    if (raw === undefined) {
      this.onMiss?.(idOrIds);
      return undefined;
    }
    return this.serializer.decode(JSON.parse(raw));
  }

  private keyFor(id: EntityId): string {
    return [this.prefix, String(id)].join(KEY_SEPARATOR);
  }

  get size(): number {
    return Repository.instances;
  }
}

export class JsonSerializer<T> implements Serializer<T> {
  readonly contentType = "application/json";

  encode(value: T): Serialized {
    const body = JSON.stringify(value);
    return { body, checksum: checksum(body) };
  }

  decode(raw: Serialized): T {
    return JSON.parse(raw.body) as T;
  }
}

export function checksum(body: string): string {
  return createHash("sha256").update(body).digest("hex");
}

export function isDirty(flags: Flags): boolean;
export function isDirty(flags: number): boolean {
  return (flags & Flags.Dirty) !== 0;
}

export const toKey = (...parts: string[]): string => parts.join(KEY_SEPARATOR);

export namespace Keys {
  export const VERSION = 2;
  export function user(id: EntityId): string {
    return toKey("user", String(id));
  }
  function internal(): void {}
}

declare module "express" {
  interface Request {
    repository?: Repository<{ id: EntityId }>;
  }
}

declare function legacyHash(input: string): string;
