// The o200k_base oracles of comp_tokens' tests: OpenAI's tiktoken (its WASM
// build, npm `tiktoken`) and gpt-tokenizer, both pinned in third_party/tokenizer.
//
//   node oracle.mjs [--ids] --records FILE
//       FILE holds records: a 4-byte little-endian byte length, then the bytes.
//       Prints one line per record, "<tiktoken> <gpt-tokenizer>": token counts,
//       or with --ids the two id lists as JSON arrays separated by a tab.
//   node oracle.mjs --codepoints
//       For each code point of codepointProbes() (below; tokens_test.cc builds
//       the same strings), the tiktoken count of a string that puts it in
//       every context where the split pattern's classes matter.
//   node oracle.mjs --files LIST
//       LIST holds file paths separated by NUL bytes. Prints one line per file,
//       "<tiktoken> <gpt-tokenizer>", then "#time <bytes> <tiktoken_ms> <gpt_ms>"
//       (encoding time only, file reading excluded).
//
// Bytes are decoded as UTF-8 the WHATWG way (a U+FFFD for each maximal invalid
// subsequence; a leading BOM is kept, as text). Special tokens are plain text:
// no special token is allowed, none is disallowed.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.env.COMP_TOKENIZER_MODULES ?? resolve(here, '../../third_party/tokenizer/node_modules');
const require = createRequire(resolve(modules, '..', 'package.json'));
const { get_encoding } = require('tiktoken');
const gpt = require('gpt-tokenizer/encoding/o200k_base');

const tiktoken = get_encoding('o200k_base');
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const noSpecial = { disallowedSpecial: new Set() };

const args = process.argv.slice(2);
const ids = args.includes('--ids');
const valueOf = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};

const out = [];
const flush = () => {
  if (out.length) process.stdout.write(out.join('\n') + '\n');
  out.length = 0;
};

// Code points below U+40000 and tags/variation selectors, every 997th elsewhere.
function* codepointProbes() {
  for (let cp = 0; cp < 0x110000; ++cp) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (cp >= 0x40000 && !(cp >= 0xe0000 && cp < 0xe0200) && cp % 997 !== 0) continue;
    const c = String.fromCodePoint(cp);
    yield `${c}'s 11${c}11 A${c}'t\n x${c} a${c}'S ${c}\n ${c}${c}!`;
  }
}

const records = valueOf('--records');
const files = valueOf('--files');
if (records !== undefined) {
  const buf = readFileSync(records);
  for (let at = 0; at + 4 <= buf.length; ) {
    const len = buf.readUInt32LE(at);
    const text = decoder.decode(buf.subarray(at + 4, at + 4 + len));
    at += 4 + len;
    const a = tiktoken.encode(text, [], []);
    const b = gpt.encode(text, noSpecial);
    out.push(ids ? `${JSON.stringify(Array.from(a))}\t${JSON.stringify(b)}` : `${a.length} ${b.length}`);
    if (out.length >= 4096) flush();
  }
} else if (args.includes('--codepoints')) {
  for (const probe of codepointProbes()) {
    out.push(String(tiktoken.encode(probe, [], []).length));
    if (out.length >= 4096) flush();
  }
} else if (files !== undefined) {
  const paths = readFileSync(files, 'utf8').split('\0').filter((p) => p.length > 0);
  let bytes = 0, tMs = 0, gMs = 0;
  for (const path of paths) {
    const raw = readFileSync(path);
    bytes += raw.length;
    const text = decoder.decode(raw);
    let t0 = performance.now();
    const a = tiktoken.encode(text, [], []).length;
    let t1 = performance.now();
    const b = gpt.countTokens(text, noSpecial);
    let t2 = performance.now();
    tMs += t1 - t0;
    gMs += t2 - t1;
    out.push(`${a} ${b}`);
    if (out.length >= 4096) flush();
  }
  out.push(`#time ${bytes} ${tMs.toFixed(1)} ${gMs.toFixed(1)}`);
} else {
  process.stderr.write('usage: node oracle.mjs [--ids] --records FILE | --codepoints | --files LIST\n');
  process.exit(2);
}
flush();
tiktoken.free();
