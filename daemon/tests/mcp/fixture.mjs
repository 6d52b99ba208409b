// The fixture repository shared by the MCP end-to-end tests: a small git
// repository with Python and TypeScript files that call each other; and
// their check of get_context's text (gpt-tokenizer counts it, an o200k_base
// independent of comP's).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const here = path.dirname(fileURLToPath(import.meta.url));
export const COMP = path.resolve(process.env.COMP_BINARY || path.join(here, '../../../build/comp'));

export const FILES = {
  'config.py': `"""Configuration loading for the demo application."""
import json
import os

DEFAULT_PATH = "settings.json"


def parse_config(path=DEFAULT_PATH):
    """Read the JSON configuration file at \`path\` and return a dict.

    A missing file yields an empty configuration; keys are lower-cased so
    that callers can look them up without caring about the spelling.
    """
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    # Normalise the keys: the file is edited by hand.
    return {key.lower(): value for key, value in data.items()}


def merge_configs(base, override):
    """Return a copy of \`base\` updated with the keys of \`override\`."""
    merged = dict(base)
    for key, value in override.items():
        merged[key] = value
    return merged
`,
  'app.py': `"""Entry point of the demo application."""
import sys

from config import merge_configs, parse_config


def start_application(argv):
    """Load the configuration named on the command line and report it."""
    cfg = parse_config(argv[1] if len(argv) > 1 else "settings.json")
    cfg = merge_configs({"port": 8080}, cfg)
    print("listening on", cfg["port"])
    return cfg


if __name__ == "__main__":
    start_application(sys.argv)
`,
  'src/routes.ts': `// HTTP routing for the demo server.
export type Handler = (body: string) => string;

export class Router {
  private readonly routes = new Map<string, Handler>();

  /** Registers a handler for a path; the last registration wins. */
  add(path: string, handler: Handler): void {
    this.routes.set(path, handler);
  }

  dispatch(path: string, body: string): string {
    const handler = this.routes.get(path);
    if (!handler) {
      return "404 not found: " + path;
    }
    return handler(body);
  }
}

export function registerRoutes(router: Router): void {
  router.add("/health", () => "ok");
  router.add("/echo", (body) => body);
}
`,
  'src/server.ts': `// The demo HTTP server: owns a Router and answers requests with it.
import { Router, registerRoutes } from "./routes";

export class HttpServer {
  private readonly router: Router;

  constructor(private readonly port: number) {
    this.router = new Router();
    registerRoutes(this.router);
  }

  /** Answers one request; a real server would read it from a socket. */
  handleRequest(path: string, body: string): string {
    const started = Date.now();
    const answer = this.router.dispatch(path, body);
    const elapsed = Date.now() - started;
    return \`\${answer} (\${elapsed} ms on port \${this.port})\`;
  }
}
`,
};

export const tempDirs = [];

export function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh, never-indexed git repository holding FILES (plus `extra` files). */
export function makeFixture(extra = {}, prefix = 'comp-mcp-e2e-') {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(root);
  for (const [rel, text] of Object.entries({ ...FILES, ...extra })) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'fixture');
  return root;
}

/** Removes every fixture made so far. */
export function removeFixtures() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A tool's text block, what the agent reads, against its structuredContent: get_context's
 * answer in Markdown (answerText); get_symbol's and get_diff_context's `markdown` report;
 * get_file's content under a `## path` heading, in a fence; the JSON of the rest.
 */
export function mirrorsText(text, structured, what) {
  if (structured.pivot_files) return answerText(text, structured, what);
  if (typeof structured.markdown === 'string') {
    return assert.equal(text, structured.markdown, `${what}: the text block is not the markdown report`);
  }
  if (typeof structured.content === 'string' && typeof structured.path === 'string') {
    assert.ok(text.startsWith(`## ${structured.path}`), `${what}: the file's heading: ${text.slice(0, 120)}`);
    const opens = text.indexOf('\n') + 1, fence = text.slice(opens, text.indexOf('\n', opens));
    assert.match(fence, /^`{3,}$/, `${what}: no fence after the heading`);
    return assert.equal(text.slice(opens + fence.length + 1), structured.content +
      (structured.content === '' || structured.content.endsWith('\n') ? '' : '\n') + `${fence}\n\n`,
      `${what}: the text is not the file's content in its fence`);
  }
  return assert.deepEqual(JSON.parse(text), structured, `${what}: the text block is not the JSON of structuredContent`);
}

/**
 * get_context's text block, what the agent reads: the same answer in Markdown, each sent file's
 * content under its `## path` heading, best first, and all of it within max_tokens as
 * gpt-tokenizer counts o200k_base.
 */
function answerText(text, ctx, what) {
  assert.ok(text.startsWith(`# Context: ${ctx.pivot_files.length} ${ctx.pivot_files.length === 1 ? 'file' : 'files'} within ${ctx.max_tokens} tokens`),
    `${what}: the answer's first line: ${text.slice(0, 120)}`);
  let at = 0;
  for (const f of ctx.pivot_files) {
    const heading = text.indexOf(`\n## ${f.path}`, at);
    assert.ok(heading >= at, `${what}: no heading for ${f.path} after offset ${at}`);
    const content = text.indexOf(`\n${f.content}`, heading + 1);
    assert.ok(content > heading, `${what}: ${f.path}'s content is not under its heading`);
    at = content + f.content.length;
  }
  assert.equal(countTokens(text), ctx.answer_tokens, `${what}: answer_tokens is not the text's o200k count`);
  assert.ok(ctx.answer_tokens <= ctx.max_tokens, `${what}: the text is ${ctx.answer_tokens} tokens, over ${ctx.max_tokens}`);
  assert.ok(ctx.tokens_sent < ctx.answer_tokens, `${what}: tokens_sent ${ctx.tokens_sent} counts only the contents`);
}
