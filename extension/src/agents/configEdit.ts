// configEdit: what registering comP in an agent's config file, or undoing
// that, amounts to, independent of the file's format (jsonConfig and
// tomlConfig compute these plans; AgentSetupManager shows and applies them).
//
// Contract of every plan: the new text differs from the old only in the
// one server entry (and its container when there was none); anything else in
// the file, comments and formatting included, is kept. Each planner checks
// this by parsing both texts and comparing everything but that entry; a
// change it cannot make that way is an error, never a rewrite.

/** A server entry as written: { command, args } plus format-specific keys (e.g. type). */
export type ServerEntry = Readonly<Record<string, unknown>>;

/** Where an entry lives: `<container>.<name>` (e.g. mcpServers.comp, mcp_servers.comp). */
export interface EntryLocation {
  readonly container: string;
  readonly name: string;
}

export type RegistrationPlan =
  | { readonly kind: 'unchanged' }
  | {
      readonly kind: 'change';
      readonly text: string;
      /** Format-specific, JSON-serialisable: what undo needs to restore the old state. */
      readonly undo: UndoData;
      /** Whether an entry of that name was replaced (its old value is in `undo`). */
      readonly replaced: boolean;
    }
  | { readonly kind: 'error'; readonly message: string };

export type RemovalPlan =
  | { readonly kind: 'change'; readonly text: string; readonly deleteFile: boolean }
  /** The entry is not there any more: nothing to undo. */
  | { readonly kind: 'absent' }
  /** The entry is no longer what comP wrote: left alone. */
  | { readonly kind: 'modified'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

export interface UndoData {
  /** The entry's value before, when one was replaced. */
  readonly previous?: unknown;
  /** JSON: that value's text, verbatim (restored as it was). */
  readonly previousText?: string;
  /** TOML: the table comP appended, verbatim (with the blank line before it). */
  readonly appendedText?: string;
  /** TOML, an existing table: per key, the assignment comP wrote and the one it replaced (none: it added the key). */
  readonly keyEdits?: readonly KeyEdit[];
  /** The container (mcpServers, ...) did not exist before. */
  readonly createdContainer: boolean;
  /** The file did not exist before. */
  readonly createdFile: boolean;
}

export interface KeyEdit {
  readonly key: string;
  readonly written: string;
  readonly previous?: string;
}

/** JSON text with object keys sorted: equal values give equal strings (Dates become ISO text). */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Date)) {
      const record = item as Record<string, unknown>;
      return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
    }
    return item;
  });
}

/** Whether `existing` already holds every key of `entry` with the same value (extra keys are the user's). */
export function holdsEntry(existing: unknown, entry: ServerEntry): boolean {
  if (!existing || typeof existing !== 'object' || Array.isArray(existing)) return false;
  const record = existing as Record<string, unknown>;
  return Object.keys(entry).every((key) => canonical(record[key]) === canonical(entry[key]));
}

/** A copy of a parsed document without `<container>.<name>` (and without the container if that leaves it empty and `dropEmpty`). */
export function withoutEntry(document: unknown, at: EntryLocation, dropEmpty: boolean): unknown {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return document;
  const copy: Record<string, unknown> = { ...(document as Record<string, unknown>) };
  const container = copy[at.container];
  if (container && typeof container === 'object' && !Array.isArray(container)) {
    const rest: Record<string, unknown> = { ...(container as Record<string, unknown>) };
    delete rest[at.name];
    if (dropEmpty && Object.keys(rest).length === 0) delete copy[at.container];
    else copy[at.container] = rest;
  }
  return copy;
}

/** The entry's value in a parsed document, or undefined. */
export function entryOf(document: unknown, at: EntryLocation): unknown {
  if (!document || typeof document !== 'object') return undefined;
  const container = (document as Record<string, unknown>)[at.container];
  if (!container || typeof container !== 'object' || Array.isArray(container)) return undefined;
  return Object.prototype.hasOwnProperty.call(container, at.name) ? (container as Record<string, unknown>)[at.name] : undefined;
}
