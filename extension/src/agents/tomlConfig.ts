// tomlConfig: registration plans for TOML agent configs (Codex CLI's
// ~/.codex/config.toml, `[mcp_servers.comp]`). No npm TOML library both
// keeps comments and is widely used, so the edits are textual and small:
// a new table is appended at the end; in an existing table only the
// assignments of comP's keys are replaced (or added after the header).
// smol-toml parses before and after to check the configEdit contract.

import { parse } from 'smol-toml';
import {
  EntryLocation,
  KeyEdit,
  RegistrationPlan,
  RemovalPlan,
  ServerEntry,
  canonical,
  entryOf,
  holdsEntry,
  withoutEntry,
} from './configEdit';

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

function parseToml(text: string): Parsed {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    const detail = error as { message?: unknown; line?: unknown; column?: unknown };
    const first = String(detail.message ?? error).split('\n')[0] ?? 'parse error';
    const where = typeof detail.line === 'number' ? ` at line ${detail.line}${typeof detail.column === 'number' ? `, column ${detail.column}` : ''}` : '';
    return { ok: false, message: `not valid TOML: ${first.replace(/^Invalid TOML document: /, '')}${where}` };
  }
}

/** A TOML literal for a string, number, boolean or array of them. */
export function renderTomlValue(value: unknown): string {
  if (typeof value === 'string') {
    // JSON's escapes are valid TOML basic-string escapes; DEL must be escaped too.
    return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(renderTomlValue).join(', ')}]`;
  throw new Error(`cannot write ${typeof value} as a TOML value`);
}

function bareOrQuoted(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function assignment(key: string, value: unknown): string {
  return `${bareOrQuoted(key)} = ${renderTomlValue(value)}`;
}

function detectEol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

interface Span {
  readonly start: number;
  /** End of the assignment's text (before the line end). */
  readonly end: number;
  /** After the line end. */
  readonly lineEnd: number;
}

interface TableBlock {
  readonly headerStart: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

const headerLine = /^[ \t]*\[/;

function keyPattern(key: string): string {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `(?:${escaped}|"${escaped}"|'${escaped}')`;
}

/** The `[container.name]` table: its header and the lines up to the next header. */
function findTable(text: string, at: EntryLocation): TableBlock | undefined {
  const header = new RegExp(`^[ \\t]*\\[[ \\t]*${keyPattern(at.container)}[ \\t]*\\.[ \\t]*${keyPattern(at.name)}[ \\t]*\\][ \\t]*(?:#.*)?$`);
  let offset = 0;
  let block: { headerStart: number; bodyStart: number } | undefined;
  for (const line of text.split('\n')) {
    const next = offset + line.length + 1;
    const content = line.replace(/\r$/, '');
    if (block && headerLine.test(content)) return { ...block, bodyEnd: offset };
    if (!block && header.test(content)) block = { headerStart: offset, bodyStart: Math.min(next, text.length) };
    offset = next;
  }
  return block ? { ...block, bodyEnd: text.length } : undefined;
}

// Where the value starting at `from` ends: after its last character that is
// no space or comment, with strings, arrays and inline tables that span
// lines followed.
function valueEnd(text: string, from: number): number {
  let depth = 0;
  let significantEnd = from;
  let i = from;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      if (depth === 0) return significantEnd;
      i++;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      i += close.length;
      while (i < text.length && !text.startsWith(close, i)) {
        if (c === '"' && text[i] === '\\') i++;
        else if (!triple && text[i] === '\n') break;
        i++;
      }
      i = Math.min(text.length, i + close.length);
      significantEnd = i;
    } else {
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      i++;
      if (!/\s/.test(c)) significantEnd = i;
    }
  }
  return significantEnd;
}

/** The assignment of `key` directly in a table's body. */
function findAssignment(text: string, block: TableBlock, key: string): Span | undefined {
  const pattern = new RegExp(`^[ \\t]*${keyPattern(key)}[ \\t]*=`);
  let offset = block.bodyStart;
  while (offset < block.bodyEnd) {
    const newline = text.indexOf('\n', offset);
    const lineEndOffset = newline < 0 ? text.length : newline;
    const line = text.slice(offset, lineEndOffset);
    const match = pattern.exec(line);
    if (match) {
      const end = valueEnd(text, offset + match[0].length);
      const newlineAfter = text.indexOf('\n', end);
      return { start: offset, end, lineEnd: newlineAfter < 0 ? text.length : newlineAfter + 1 };
    }
    // Skip the whole value of another key, which may span lines.
    const other = /^[ \t]*[^#\s][^=]*=/.exec(line);
    const skipTo = other ? valueEnd(text, offset + other[0].length) : lineEndOffset;
    offset = (text.indexOf('\n', skipTo) < 0 ? text.length : text.indexOf('\n', skipTo)) + 1;
  }
  return undefined;
}

interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly content: string;
}

function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.content + out.slice(edit.end);
  return out;
}

function verify(before: unknown, after: string, at: EntryLocation, dropEmpty: boolean, holds: (value: unknown) => boolean): string | undefined {
  const reparsed = parseToml(after);
  if (!reparsed.ok) return `the edited file would not parse (${reparsed.message}); add the entry by hand`;
  if (canonical(withoutEntry(before, at, dropEmpty)) !== canonical(withoutEntry(reparsed.value, at, dropEmpty))) {
    return 'the edit would change more than the comP entry; add it by hand';
  }
  if (!holds(entryOf(reparsed.value, at))) return `the edit would not leave [${at.container}.${at.name}] as intended; edit it by hand`;
  return undefined;
}

/** Adds or updates `[container.name]` with `entry`'s keys in a TOML file's text (undefined: no file yet). */
export function planTomlRegistration(text: string | undefined, at: EntryLocation, entry: ServerEntry): RegistrationPlan {
  const createdFile = text === undefined;
  const source = text ?? '';
  const parsed = parseToml(source);
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const eol = detectEol(source);
  const existing = entryOf(parsed.value, at);
  const holds = (value: unknown): boolean => holdsEntry(value, entry);
  if (existing === undefined) {
    const containerExisted = typeof parsed.value === 'object' && parsed.value !== null && at.container in parsed.value;
    const tableHeader = new RegExp(`^[ \\t]*\\[[ \\t]*${keyPattern(at.container)}[ \\t]*[.\\]]`, 'm');
    if (containerExisted && !tableHeader.test(source)) {
      return { kind: 'error', message: `${at.container} is written as an inline table or with dotted keys, which comP does not extend; add ${at.name} to it by hand` };
    }
    const table = [`[${bareOrQuoted(at.container)}.${bareOrQuoted(at.name)}]`, ...Object.entries(entry).map(([key, value]) => assignment(key, value))].join(eol) + eol;
    let separator = '';
    if (source.length > 0) {
      if (!source.endsWith('\n')) separator += eol;
      if (!/(?:^|\n)[ \t]*\r?\n$/.test(source + separator)) separator += eol;
    }
    const appendedText = separator + table;
    const edited = source + appendedText;
    const problem = verify(parsed.value, edited, at, !containerExisted, holds);
    if (problem) return { kind: 'error', message: problem };
    return { kind: 'change', text: edited, replaced: false, undo: { appendedText, createdContainer: !containerExisted, createdFile } };
  }
  if (holds(existing)) return { kind: 'unchanged' };
  const block = findTable(source, at);
  if (!block) {
    return { kind: 'error', message: `${at.container}.${at.name} is written as an inline table or with dotted keys, which comP does not edit; update its command and args by hand` };
  }
  const edits: TextEdit[] = [];
  const keyEdits: KeyEdit[] = [];
  const added: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    const written = assignment(key, value);
    const span = findAssignment(source, block, key);
    if (span) {
      const previous = source.slice(span.start, span.end);
      if (previous === written) continue;
      edits.push({ start: span.start, end: span.end, content: written });
      keyEdits.push({ key, written, previous });
    } else {
      added.push(written);
      keyEdits.push({ key, written });
    }
  }
  if (added.length > 0) edits.push({ start: block.bodyStart, end: block.bodyStart, content: added.map((line) => line + eol).join('') });
  const edited = applyTextEdits(source, edits);
  const problem = verify(parsed.value, edited, at, false, holds);
  if (problem) return { kind: 'error', message: problem };
  return { kind: 'change', text: edited, replaced: true, undo: { keyEdits, createdContainer: false, createdFile } };
}

/** Takes back what a registration wrote, if it is still as written. */
export function planTomlRemoval(
  text: string | undefined,
  at: EntryLocation,
  entry: ServerEntry,
  undo: { readonly appendedText?: string; readonly keyEdits?: readonly KeyEdit[]; readonly createdContainer: boolean; readonly createdFile: boolean },
): RemovalPlan {
  if (text === undefined) return { kind: 'absent' };
  const parsed = parseToml(text);
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const existing = entryOf(parsed.value, at);
  if (existing === undefined) return { kind: 'absent' };
  if (!holdsEntry(existing, entry)) return { kind: 'modified', message: `[${at.container}.${at.name}] was changed after comP wrote it; left as it is` };
  let edited: string;
  let holds: (value: unknown) => boolean;
  if (undo.appendedText !== undefined) {
    const index = text.lastIndexOf(undo.appendedText);
    if (index < 0) return { kind: 'modified', message: `[${at.container}.${at.name}] was reformatted after comP wrote it; left as it is` };
    edited = text.slice(0, index) + text.slice(index + undo.appendedText.length);
    holds = (value) => value === undefined;
  } else {
    const block = findTable(text, at);
    if (!block) return { kind: 'modified', message: `[${at.container}.${at.name}] is no longer a table comP can edit; left as it is` };
    const edits: TextEdit[] = [];
    for (const keyEdit of undo.keyEdits ?? []) {
      const span = findAssignment(text, block, keyEdit.key);
      if (!span || text.slice(span.start, span.end) !== keyEdit.written) {
        return { kind: 'modified', message: `${keyEdit.key} in [${at.container}.${at.name}] was changed after comP wrote it; left as it is` };
      }
      edits.push(keyEdit.previous === undefined ? { start: span.start, end: span.lineEnd, content: '' } : { start: span.start, end: span.end, content: keyEdit.previous });
    }
    edited = applyTextEdits(text, edits);
    const restoredKeys = new Set((undo.keyEdits ?? []).filter((edit) => edit.previous !== undefined).map((edit) => edit.key));
    const removedKeys = (undo.keyEdits ?? []).filter((edit) => edit.previous === undefined).map((edit) => edit.key);
    holds = (value) =>
      typeof value === 'object' && value !== null && removedKeys.every((key) => !(key in value)) && [...restoredKeys].every((key) => key in value);
  }
  const problem = verify(parsed.value, edited, at, undo.createdContainer, holds);
  if (problem) return { kind: 'error', message: problem };
  return { kind: 'change', text: edited, deleteFile: undo.createdFile && edited.trim() === '' };
}
