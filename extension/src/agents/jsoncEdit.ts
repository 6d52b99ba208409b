// jsoncEdit: minimal text edits to JSON-with-comments documents: add,
// replace or remove one object member and touch nothing else. jsonc-parser
// parses and scans; its own `modify` is not used because its formatter
// rewrites the lines around an edit (a neighbour's one-line value becomes
// several lines, a trailing comment moves to another member).
//
// Style kept: the file's indentation unit and line ends, trailing commas
// when the object uses them, one-line objects stay on one line. New values
// are written one member per line at the indentation of their siblings.

import { applyEdits, createScanner, Edit, Node, SyntaxKind } from 'jsonc-parser';

export interface JsonStyle {
  readonly indent: string;
  readonly eol: string;
}

/** The file's line end and indentation unit (two spaces when it shows none). */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let indent: string | undefined;
  for (const match of text.matchAll(/^([ \t]+)["}\]/]/gm)) {
    const whitespace = match[1] as string;
    if (whitespace.startsWith('\t')) {
      indent = '\t';
      break;
    }
    if (indent === undefined || whitespace.length < indent.length) indent = whitespace;
  }
  return { indent: indent ?? '  ', eol };
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? '';
}

function onlyWhitespaceBefore(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

/**
 * `value` as JSON, its lines after the first indented by `indent`: objects
 * one member per line, arrays of plain values on one line (as people write
 * `"args": [...]`) when short.
 */
export function renderValue(value: unknown, indent: string, style: JsonStyle): string {
  if (Array.isArray(value)) {
    const inline = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    if (value.every((item) => item === null || typeof item !== 'object') && inline.length <= 100) return inline;
    if (value.length === 0) return '[]';
    const inner = indent + style.indent;
    return `[${value.map((item) => style.eol + inner + renderValue(item, inner, style)).join(',')}${style.eol}${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const inner = indent + style.indent;
    return `{${entries.map(([key, item]) => `${style.eol}${inner}${JSON.stringify(key)}: ${renderValue(item, inner, style)}`).join(',')}${style.eol}${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface Following {
  /** Offset just past a comma right after the node (comments and spaces between allowed). */
  readonly commaEnd?: number;
  /** Offset of the line break ending the node's line, when the line ends before the object does. */
  readonly lineBreak?: number;
}

// What follows `offset` on its line: a comma, then the line's end or the closing brace.
function following(text: string, offset: number): Following {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  let commaEnd: number | undefined;
  for (;;) {
    const kind = scanner.scan();
    if (kind === SyntaxKind.Trivia || kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) continue;
    if (kind === SyntaxKind.CommaToken && commaEnd === undefined) {
      commaEnd = scanner.getTokenOffset() + 1;
      continue;
    }
    if (kind === SyntaxKind.LineBreakTrivia) return { commaEnd, lineBreak: scanner.getTokenOffset() };
    return { commaEnd };
  }
}

/** Edits that add member `key: value` at the end of `object` (which must not have `key`). */
export function insertMember(text: string, object: Node, key: string, value: unknown, style: JsonStyle): Edit[] {
  const members = object.children ?? [];
  const member = (indent: string): string => `${JSON.stringify(key)}: ${renderValue(value, indent, style)}`;
  const last = members[members.length - 1];
  if (last) {
    const lastEnd = last.offset + last.length;
    const { commaEnd, lineBreak } = following(text, lastEnd);
    if (lineBreak !== undefined) {
      const indent = indentAt(text, last.offset);
      const edits: Edit[] = [];
      if (commaEnd === undefined) edits.push({ offset: lastEnd, length: 0, content: ',' });
      edits.push({ offset: lineBreak, length: 0, content: style.eol + indent + member(indent) + (commaEnd !== undefined ? ',' : '') });
      return edits;
    }
    // The object closes on the last member's line: stay on that line.
    const compact = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return commaEnd === undefined
      ? [{ offset: lastEnd, length: 0, content: `, ${compact}` }]
      : [{ offset: commaEnd, length: 0, content: ` ${compact},` }];
  }
  const open = object.offset;
  const close = object.offset + object.length - 1;
  const base = indentAt(text, open);
  const inside = base + style.indent;
  if (text.slice(open + 1, close).trim() === '') {
    return [{ offset: open + 1, length: close - open - 1, content: style.eol + inside + member(inside) + style.eol + base }];
  }
  // Only comments inside: the member goes after them.
  if (onlyWhitespaceBefore(text, close)) {
    return [{ offset: lineStart(text, close), length: 0, content: inside + member(inside) + style.eol }];
  }
  return [{ offset: close, length: 0, content: ` ${JSON.stringify(key)}: ${JSON.stringify(value)} ` }];
}

/** Edits that replace a member's value node, indented like the member. */
export function replaceValue(text: string, valueNode: Node, value: unknown, style: JsonStyle): Edit[] {
  const member = valueNode.parent ?? valueNode;
  return [{ offset: valueNode.offset, length: valueNode.length, content: renderValue(value, indentAt(text, member.offset), style) }];
}

/** Edits that remove `member` (a property node of `object`) with its comma and, when it had them alone, its lines. */
export function removeMember(text: string, object: Node, member: Node): Edit[] {
  const members = object.children ?? [];
  const index = members.indexOf(member);
  if (index < 0) throw new Error('removeMember: the member is not in the object');
  const start = member.offset;
  const end = member.offset + member.length;
  const { commaEnd } = followingComma(text, end);
  let to = commaEnd ?? end;
  const rest = /^[ \t]*(?:\r?\n|$)/.exec(text.slice(to));
  let from = start;
  const ownLines = onlyWhitespaceBefore(text, start) && rest !== null;
  if (ownLines) {
    from = lineStart(text, start);
    to += rest[0].length;
  } else {
    to += (/^[ \t]*/.exec(text.slice(to))?.[0] ?? '').length;
  }
  const previous = members[index - 1];
  if (commaEnd === undefined && previous) {
    // It was the last member, without a trailing comma: the previous member's comma goes.
    const comma = followingComma(text, previous.offset + previous.length).commaOffset;
    if (comma !== undefined) {
      // On one line, the space after that comma goes with it.
      if (!ownLines && text.slice(comma + 1, from).trim() === '') return [{ offset: comma, length: to - comma, content: '' }];
      return [
        { offset: from, length: to - from, content: '' },
        { offset: comma, length: 1, content: '' },
      ];
    }
  }
  return [{ offset: from, length: to - from, content: '' }];
}

// The comma after `offset`, skipping spaces, comments and line breaks (a
// comma on a later line still belongs to the member before it).
function followingComma(text: string, offset: number): { commaEnd?: number; commaOffset?: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const kind = scanner.scan();
    if (
      kind === SyntaxKind.Trivia ||
      kind === SyntaxKind.LineCommentTrivia ||
      kind === SyntaxKind.BlockCommentTrivia ||
      kind === SyntaxKind.LineBreakTrivia
    ) {
      continue;
    }
    if (kind === SyntaxKind.CommaToken) return { commaEnd: scanner.getTokenOffset() + 1, commaOffset: scanner.getTokenOffset() };
    return {};
  }
}

export { applyEdits };
