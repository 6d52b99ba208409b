// jsonConfig: registration plans for JSON(C) agent configs (VS Code's
// .vscode/mcp.json, Cursor, Windsurf, Cline, Claude Code). Comments, trailing
// commas and the file's formatting survive; see configEdit for the contract.

import { Node, ParseError, findNodeAtLocation, getNodeValue, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import {
  EntryLocation,
  RegistrationPlan,
  RemovalPlan,
  ServerEntry,
  UndoData,
  canonical,
  entryOf,
  holdsEntry,
  withoutEntry,
} from './configEdit';
import { applyEdits, detectStyle, insertMember, removeMember, renderValue, replaceValue } from './jsoncEdit';

const parseOptions = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

type Parsed = { readonly ok: true; readonly root: Node | undefined } | { readonly ok: false; readonly message: string };

function parseJsonc(text: string): Parsed {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, parseOptions);
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    return { ok: false, message: `not valid JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}` };
  }
  if (root && root.type !== 'object') return { ok: false, message: `the top level is ${root.type === 'array' ? 'an array' : `a ${root.type}`}, not an object` };
  return { ok: true, root };
}

function valueOf(text: string): unknown {
  return parse(text, [], parseOptions) ?? {};
}

// The guarantee of configEdit: only the entry differs, and `holds` accepts what it now is.
function verify(before: string, after: string, at: EntryLocation, holds: (value: unknown) => boolean, dropEmpty: boolean): string | undefined {
  const reparsed = parseJsonc(after);
  if (!reparsed.ok) return `the edited file would not parse (${reparsed.message})`;
  const oldValue = valueOf(before);
  const newValue = valueOf(after);
  if (canonical(withoutEntry(oldValue, at, dropEmpty)) !== canonical(withoutEntry(newValue, at, dropEmpty))) return 'the edit would change more than the comP entry';
  if (!holds(entryOf(newValue, at))) return 'the edit would not leave the comP entry as intended';
  return undefined;
}

// Sets each of `entry`'s keys in the object at `path`, one edit at a time:
// the other keys (the user's env, disabled, ...) and their formatting stay.
function setMembers(text: string, path: string[], entry: ServerEntry, style: ReturnType<typeof detectStyle>): string {
  let edited = text;
  for (const [key, value] of Object.entries(entry)) {
    const root = parseTree(edited, [], parseOptions);
    const object = root && findNodeAtLocation(root, path);
    if (!object || object.type !== 'object') break;
    const member = findNodeAtLocation(object, [key]);
    if (member && canonical(getNodeValue(member)) === canonical(value)) continue;
    edited = applyEdits(edited, member ? replaceValue(edited, member, value, style) : insertMember(edited, object, key, value, style));
  }
  return edited;
}

/** Adds or updates `<container>.<name>` = entry in a JSON(C) file's text (undefined: no file yet). */
export function planJsonRegistration(text: string | undefined, at: EntryLocation, entry: ServerEntry): RegistrationPlan {
  const createdFile = text === undefined;
  const source = text ?? '';
  const parsed = parseJsonc(source);
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const style = detectStyle(source);
  if (!parsed.root) {
    // An empty file: write the whole document.
    const document = { [at.container]: { [at.name]: entry } };
    const fresh = renderValue(document, '', style) + style.eol;
    return { kind: 'change', text: fresh, replaced: false, undo: { createdContainer: true, createdFile: createdFile || source.trim() === '' } };
  }
  const root = parsed.root;
  const container = findNodeAtLocation(root, [at.container]);
  let edited: string;
  let undo: UndoData;
  let replaced = false;
  if (!container) {
    edited = applyEdits(source, insertMember(source, root, at.container, { [at.name]: entry }, style));
    undo = { createdContainer: true, createdFile };
  } else if (container.type !== 'object') {
    return { kind: 'error', message: `"${at.container}" is not an object; comP leaves the file alone` };
  } else {
    const existing = findNodeAtLocation(container, [at.name]);
    if (!existing) {
      edited = applyEdits(source, insertMember(source, container, at.name, entry, style));
      undo = { createdContainer: false, createdFile };
    } else {
      const previous: unknown = getNodeValue(existing);
      if (holdsEntry(previous, entry)) return { kind: 'unchanged' };
      edited = existing.type === 'object' ? setMembers(source, [at.container, at.name], entry, style) : applyEdits(source, replaceValue(source, existing, entry, style));
      const previousText = source.slice(existing.offset, existing.offset + existing.length);
      undo = { previous, previousText, createdContainer: false, createdFile };
      replaced = true;
    }
  }
  const problem = verify(source, edited, at, (value) => holdsEntry(value, entry), undo.createdContainer);
  return problem ? { kind: 'error', message: problem } : { kind: 'change', text: edited, undo, replaced };
}

/** Takes back what a registration wrote (`entry`, with its `undo` data), if it is still as written. */
export function planJsonRemoval(text: string | undefined, at: EntryLocation, entry: ServerEntry, undo: UndoData): RemovalPlan {
  if (text === undefined) return { kind: 'absent' };
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  if (!parsed.root) return { kind: 'absent' };
  const container = findNodeAtLocation(parsed.root, [at.container]);
  const existing = container?.type === 'object' ? findNodeAtLocation(container, [at.name]) : undefined;
  if (!container || !existing) return { kind: 'absent' };
  if (!holdsEntry(getNodeValue(existing), entry)) {
    return { kind: 'modified', message: `"${at.container}.${at.name}" was changed after comP wrote it; left as it is` };
  }
  const style = detectStyle(text);
  let edited: string;
  if (undo.previousText !== undefined) {
    edited = applyEdits(text, [{ offset: existing.offset, length: existing.length, content: undo.previousText }]);
  } else if (undo.previous !== undefined) {
    edited = applyEdits(text, replaceValue(text, existing, undo.previous, style));
  } else {
    const member = existing.parent;
    if (!member) return { kind: 'error', message: 'unexpected JSON structure' };
    edited = applyEdits(text, removeMember(text, container, member));
    if (undo.createdContainer) {
      const again = parseTree(edited, [], parseOptions);
      const emptied = again && findNodeAtLocation(again, [at.container]);
      if (again && emptied && emptied.type === 'object' && (emptied.children ?? []).length === 0 && emptied.parent) {
        const inside = edited.slice(emptied.offset + 1, emptied.offset + emptied.length - 1);
        if (inside.trim() === '') edited = applyEdits(edited, removeMember(edited, again, emptied.parent));
      }
    }
  }
  const expected = undo.previous === undefined ? undefined : canonical(undo.previous);
  const problem = verify(text, edited, at, (value) => (value === undefined ? undefined : canonical(value)) === expected, undo.createdContainer);
  if (problem) return { kind: 'error', message: problem };
  const deleteFile = undo.createdFile && edited.replace(/\s+/g, '') === '{}';
  return { kind: 'change', text: edited, deleteFile };
}
