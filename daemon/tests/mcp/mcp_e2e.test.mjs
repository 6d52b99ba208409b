// End-to-end test of `comp mcp`, driven as an agent drives it: the official MCP
// TypeScript SDK client (Client + StdioClientTransport) spawns the real binary on
// a small git repository and calls its tools. A few checks that the SDK hides
// (protocol negotiation, cancellation) speak raw newline-delimited JSON-RPC.
//
//   COMP_BINARY=/path/to/comp node --test mcp_e2e.test.mjs
//
// Registered with CTest as mcp_e2e (daemon/CMakeLists.txt); the SDK comes from
// `npm ci` in this folder (scripts/setup.sh).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const COMP = path.resolve(process.env.COMP_BINARY || path.join(here, '../../../build/comp'));

const TOOL_NAMES = ['get_context', 'get_diff_context', 'get_file', 'get_symbol', 'search_code'];
const CALL_TIMEOUT_MS = 20_000;  // one tool call, first index included
const FRESHNESS_MS = 10_000;     // a file change must show within this

// ---------------------------------------------------------------------------
// Fixture: a small git repository with cross-file calls in Python and TypeScript.

import { FILES, mirrorsText, git, makeFixture, tempDirs } from './fixture.mjs';

/** Many small modules, so that the first index of a fresh copy takes a moment. */
function bulkFiles(count) {
  const files = {};
  for (let i = 0; i < count; i++) {
    files[`pkg/mod_${i}.py`] = `from config import parse_config\n\n\n` +
      `def handler_${i}(path):\n    """Handler ${i}."""\n    return parse_config(path).get("k${i}")\n\n\n` +
      `class Worker${i}:\n    def run(self):\n        return handler_${i}("w${i}.json")\n`;
  }
  return files;
}

// ---------------------------------------------------------------------------
// Servers.

const clients = [];
const rawServers = [];

/** Spawns `comp mcp` on `root` and connects the SDK client to it. */
async function connectClient(root, { name = 'comp-e2e' } = {}) {
  const transport = new StdioClientTransport({
    command: COMP,
    args: ['mcp', '--root', root, '--log-level', 'warn'],
    env: getDefaultEnvironment(),
    stderr: 'pipe',
  });
  const log = { text: '' };
  transport.stderr?.on('data', (chunk) => { log.text = (log.text + chunk).slice(-8000); });
  const client = new Client({ name, version: '1.0.0' });
  clients.push(client);
  await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
  client.serverLog = log;
  return client;
}

function call(client, name, args, options = {}) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...options });
}

/** A successful tool result's structuredContent, after checking the text block mirrors it. */
function structured(result, what) {
  assert.notEqual(result.isError, true, `${what} failed: ${JSON.stringify(result.content)}`);
  assert.ok(result.structuredContent && typeof result.structuredContent === 'object',
    `${what}: no structuredContent`);
  const texts = result.content.filter((c) => c.type === 'text');
  assert.equal(texts.length, 1, `${what}: expected exactly one text content block`);
  mirrorsText(texts[0].text, result.structuredContent, what);
  return result.structuredContent;
}

function errorText(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Calls `fn` until it returns a truthy value or `ms` pass; returns the last value. */
async function poll(fn, ms = FRESHNESS_MS, every = 250) {
  const deadline = Date.now() + ms;
  let value;
  for (;;) {
    value = await fn();
    if (value || Date.now() >= deadline) return value;
    await delay(every);
  }
}

/** `comp mcp` spoken to in raw newline-delimited JSON-RPC, without the SDK. */
class RawServer {
  constructor(root) {
    this.proc = spawn(COMP, ['mcp', '--root', root, '--log-level', 'warn'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.messages = [];
    this.notJson = [];
    this.waiters = new Map();
    this.stderr = '';
    this.exit = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stderr.on('data', (chunk) => { this.stderr = (this.stderr + chunk).slice(-8000); });
    this.proc.stdin.on('error', () => {});  // a dead server shows up in the assertions, not as EPIPE
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      if (!line.trim()) return;
      let msg;
      try { msg = JSON.parse(line); } catch { this.notJson.push(line); return; }
      this.messages.push(msg);
      if (msg.id !== undefined && !msg.method && this.waiters.has(msg.id)) {
        this.waiters.get(msg.id)(msg);
        this.waiters.delete(msg.id);
      }
    });
    rawServers.push(this);
  }

  send(msg) { this.proc.stdin.write(JSON.stringify(msg) + '\n'); }

  /** Sends a request and resolves with its whole response (result or error). */
  request(id, method, params, ms = CALL_TIMEOUT_MS) {
    const answer = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`no answer to ${method} (id ${id}) within ${ms} ms; stderr: ${this.stderr}`));
      }, ms);
      this.waiters.set(id, (msg) => { clearTimeout(timer); resolve(msg); });
    });
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return answer;
  }

  async initialize(protocolVersion) {
    const response = await this.request(1, 'initialize', {
      protocolVersion, capabilities: {}, clientInfo: { name: 'raw-e2e', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  get running() { return this.proc.exitCode === null && this.proc.signalCode === null; }

  async close() {
    if (!this.running) return;
    this.proc.stdin.end();
    const exited = await Promise.race([this.exit, delay(3000, null, { ref: false })]);
    if (!exited) {
      this.proc.kill('SIGKILL');
      await this.exit;
    }
  }
}

after(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(rawServers.map((s) => s.close()));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

before(() => {
  assert.ok(existsSync(COMP), `comp binary not found at ${COMP} (set COMP_BINARY)`);
});

// ---------------------------------------------------------------------------
// One server, one client, one fixture: the read-only tools first, then the
// tests that edit the working tree.

describe('comp mcp through the SDK client', () => {
  let root;
  let client;

  before(async () => {
    root = makeFixture();
    client = await connectClient(root);
  });

  test('initialize and tools/list', async () => {
    const info = client.getServerVersion();
    assert.equal(info?.name, 'comp');
    assert.match(client.getInstructions() ?? '', /get_context/, 'instructions should point to get_context');
    assert.ok(client.getServerCapabilities()?.tools, 'tools capability');

    const listed = await client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), TOOL_NAMES);
    for (const tool of listed.tools) {
      assert.ok(tool.description?.length > 20, `${tool.name}: description`);
      assert.equal(tool.inputSchema?.type, 'object', `${tool.name}: inputSchema`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: outputSchema (protocol 2025-11-25)`);
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name}: readOnlyHint`);
    }
    const required = Object.fromEntries(listed.tools.map((t) => [t.name, t.inputSchema.required ?? []]));
    assert.deepEqual(required.get_context, ['task']);
    assert.deepEqual(required.get_symbol, ['name']);
    assert.deepEqual(required.search_code, ['query']);
    assert.deepEqual(required.get_file, ['path']);
    const size = JSON.stringify(listed).length;
    assert.ok(size < 8000, `tools/list is ${size} characters; keep it under 8000`);
  });

  test('get_context ranks the file the task names, within the budget', async () => {
    const maxTokens = 300;
    const result = await call(client, 'get_context', {
      task: 'parse_config crashes with KeyError when the settings file has upper-case keys',
      max_tokens: maxTokens,
    });
    const ctx = structured(result, 'get_context');
    const paths = ctx.pivot_files.map((f) => f.path);
    assert.ok(['config.py', 'app.py'].includes(paths[0]), `first pivot file: ${paths[0]} (all: ${paths})`);
    assert.ok(paths.includes('config.py'), `config.py among pivot files: ${paths}`);
    for (const f of ctx.pivot_files) {
      assert.equal(typeof f.content, 'string', `${f.path}: content`);
      assert.equal(typeof f.token_count, 'number', `${f.path}: token_count`);
      assert.ok(Array.isArray(f.symbols), `${f.path}: symbols`);
    }
    assert.ok(Number.isInteger(ctx.tokens_sent) && ctx.tokens_sent > 0, `tokens_sent: ${ctx.tokens_sent}`);
    assert.ok(ctx.tokens_sent <= maxTokens, `tokens_sent ${ctx.tokens_sent} > max_tokens ${maxTokens}`);
    assert.equal(typeof ctx.token_savings, 'number');
    assert.ok(Array.isArray(ctx.left_out));
    assert.equal(ctx.freshness?.ready, true, `freshness: ${JSON.stringify(ctx.freshness)}`);
    // Nothing changed since the first index: a run that finds nothing to read never shows.
    assert.equal(ctx.freshness?.indexing, false, `freshness: ${JSON.stringify(ctx.freshness)}`);
    assert.equal(typeof ctx.freshness?.stale_files, 'number', `freshness: ${JSON.stringify(ctx.freshness)}`);
    assert.equal(typeof ctx.freshness?.pending_changes, 'number', `freshness: ${JSON.stringify(ctx.freshness)}`);
  });

  test('get_symbol shows the callers of parse_config', async () => {
    const sym = structured(await call(client, 'get_symbol', { name: 'parse_config' }), 'get_symbol');
    assert.equal(sym.symbol?.name, 'parse_config');
    assert.equal(sym.symbol?.file, 'config.py');
    const callers = sym.dependents.filter((d) => d.file === 'app.py' && d.kind !== 'file');
    assert.ok(callers.some((d) => d.name === 'start_application'),
      `app.py's start_application among dependents: ${JSON.stringify(sym.dependents.map((d) => d.id))}`);
    assert.ok(sym.markdown.length > 0, 'markdown');
    assert.match(sym.markdown, /parse_config/);
    assert.match(sym.markdown, /app\.py/);

    // A TypeScript class across files: HttpServer uses Router/registerRoutes.
    const reg = structured(await call(client, 'get_symbol', { name: 'registerRoutes' }), 'get_symbol registerRoutes');
    assert.equal(reg.symbol?.file, 'src/routes.ts');
    assert.ok(reg.dependents.some((d) => d.file === 'src/server.ts'),
      `src/server.ts among registerRoutes' dependents: ${JSON.stringify(reg.dependents.map((d) => d.id))}`);

    // An unknown name: a tool error that says so, or an answer without a symbol.
    const none = await call(client, 'get_symbol', { name: 'no_such_symbol_anywhere' });
    if (none.isError) {
      assert.match(errorText(none), /no_such_symbol_anywhere/);
    } else {
      assert.equal(structured(none, 'get_symbol unknown').symbol, null);
    }
  });

  test('search_code finds parse_config first', async () => {
    const found = structured(await call(client, 'search_code', { query: 'parse_config' }), 'search_code');
    assert.ok(found.symbols.length > 0, 'no symbols found');
    assert.equal(found.symbols[0].name, 'parse_config', `first: ${JSON.stringify(found.symbols[0])}`);
    assert.equal(found.symbols[0].file, 'config.py');
    assert.equal(typeof found.symbols[0].line, 'number');
    assert.ok(Array.isArray(found.files));

    const cls = structured(await call(client, 'search_code', { query: 'HttpServer', limit: 5 }), 'search_code class');
    assert.ok(cls.symbols.length <= 5, `limit 5 gave ${cls.symbols.length}`);
    assert.equal(cls.symbols[0]?.name, 'HttpServer');
    assert.equal(cls.symbols[0]?.file, 'src/server.ts');
  });

  test('get_file compresses, and stays inside the root', async () => {
    const raw = structured(await call(client, 'get_file', { path: 'config.py', level: 0 }), 'get_file level 0');
    const sig = structured(await call(client, 'get_file', { path: 'config.py', level: 2 }), 'get_file level 2');
    assert.equal(raw.content, readFileSync(path.join(root, 'config.py'), 'utf8'), 'level 0 is the file as is');
    assert.ok(sig.tokens < raw.tokens, `level 2 has ${sig.tokens} tokens, level 0 ${raw.tokens}`);
    assert.match(sig.content, /def parse_config/);
    assert.doesNotMatch(sig.content, /Normalise the keys/, 'level 2 drops bodies and comments');

    const lines = structured(await call(client, 'get_file', { path: 'config.py', lines: '8-9' }), 'get_file lines');
    assert.match(lines.content, /def parse_config/);
    assert.doesNotMatch(lines.content, /merge_configs/);

    const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : 'root:x:0:0';
    for (const p of ['../etc/passwd', '/etc/passwd', '../../../../../../../../etc/passwd']) {
      const result = await call(client, 'get_file', { path: p });
      assert.equal(result.isError, true, `get_file ${p} should fail`);
      const text = errorText(result) + JSON.stringify(result.structuredContent ?? {});
      assert.ok(text.length > 0, 'an error message');
      assert.ok(!text.includes(passwd.split('\n')[0]), `get_file ${p} leaked /etc/passwd`);
    }
  });

  test('invalid arguments are tool errors and the server keeps answering', async () => {
    const noTask = await call(client, 'get_context', {});
    assert.equal(noTask.isError, true);
    assert.match(errorText(noTask), /task/);

    const badBudget = await call(client, 'get_context', { task: 'parse_config', max_tokens: 'x' });
    assert.equal(badBudget.isError, true);
    assert.match(errorText(badBudget), /max_tokens/);

    const badLevel = await call(client, 'get_file', { path: 'config.py', level: 7 });
    assert.equal(badLevel.isError, true);
    assert.ok(errorText(badLevel).length > 0);

    await client.ping({ timeout: CALL_TIMEOUT_MS });
    const ok = structured(await call(client, 'search_code', { query: 'merge_configs' }), 'search_code after errors');
    assert.equal(ok.symbols[0]?.name, 'merge_configs');
  });

  test('an unknown tool is a JSON-RPC error -32602', async () => {
    await assert.rejects(call(client, 'no_such_tool', {}), (err) => {
      assert.ok(err instanceof McpError, `expected McpError, got ${err}`);
      assert.equal(err.code, -32602);
      return true;
    });
    await client.ping({ timeout: CALL_TIMEOUT_MS });
  });

  test('get_diff_context sees an edit of the working tree', async () => {
    const file = path.join(root, 'config.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace(
      'return {key.lower(): value for key, value in data.items()}',
      'return {str(key).lower(): value for key, value in data.items() if key}'));
    let last;
    const diff = await poll(async () => {
      last = structured(await call(client, 'get_diff_context', {}), 'get_diff_context');
      return last.changed_symbols.some((s) => s.name === 'parse_config') ? last : null;
    });
    assert.ok(diff, `parse_config not among changed_symbols within ${FRESHNESS_MS} ms: ` +
      JSON.stringify(last?.changed_symbols?.map((s) => s.id)));
    assert.equal(diff.base_commit, git(root, 'rev-parse', 'HEAD').trim());
    assert.ok(diff.changes.some((c) => c.path === 'config.py'), 'config.py among changes');
    assert.ok(!diff.changed_symbols.some((s) => s.name === 'merge_configs'), 'merge_configs did not change');
    assert.match(diff.markdown, /parse_config/);
    // What depends on the change: app.py calls parse_config.
    assert.ok(JSON.stringify(diff.related).includes('app.py'), `app.py among related: ${JSON.stringify(diff.related)}`);
  });

  test('get_diff_context does not list comp\'s own index files as changes', async () => {
    const diff = structured(await call(client, 'get_diff_context', {}), 'get_diff_context');
    const own = diff.changes.filter((c) => c.path.startsWith('.comp/')).map((c) => c.path);
    assert.deepEqual(own, []);
  });

  test('a new function is found within seconds of being written', async () => {
    const name = 'freshly_added_reporter';
    const before = structured(await call(client, 'search_code', { query: name }), 'search_code before');
    assert.ok(!before.symbols.some((s) => s.name === name), `${name} found before it was written`);

    writeFileSync(path.join(root, 'app.py'), readFileSync(path.join(root, 'app.py'), 'utf8') +
      `\n\ndef ${name}(cfg):\n    """Summarises the configuration."""\n    return len(parse_config("x.json"))\n`);
    const started = Date.now();
    let last;
    const hit = await poll(async () => {
      last = structured(await call(client, 'search_code', { query: name }), 'search_code after');
      return last.symbols.find((s) => s.name === name);
    });
    assert.ok(hit, `${name} not found within ${FRESHNESS_MS} ms; last answer: ${JSON.stringify(last)}; ` +
      `stderr: ${client.serverLog.text}`);
    assert.equal(hit.file, 'app.py');
    assert.ok(Date.now() - started <= FRESHNESS_MS + CALL_TIMEOUT_MS);

    // The graph follows: the new function is one more caller of parse_config.
    const sym = structured(await call(client, 'get_symbol', { name: 'parse_config' }), 'get_symbol after edit');
    assert.ok(sym.dependents.some((d) => d.name === name),
      `${name} among parse_config's dependents: ${JSON.stringify(sym.dependents.map((d) => d.id))}`);
    const ctx = structured(await call(client, 'get_context', { task: `fix ${name}`, max_tokens: 2000 }), 'get_context after edit');
    assert.ok(ctx.pivot_files.some((f) => f.path === 'app.py'), `app.py among pivot files: ${ctx.pivot_files.map((f) => f.path)}`);
  });
});

// ---------------------------------------------------------------------------
// Fresh servers on fresh (never indexed) copies of the fixture.

test('progress notifications while the first index is built, then the result', async (t) => {
  const root = makeFixture(bulkFiles(1500));
  const client = await connectClient(root, { name: 'comp-e2e-progress' });
  const progress = [];
  const result = await call(client, 'get_context',
    { task: 'parse_config ignores upper-case keys', max_tokens: 1000 },
    { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true });
  const ctx = structured(result, 'get_context on a fresh index');
  assert.ok(ctx.pivot_files.some((f) => f.path === 'config.py'),
    `config.py among pivot files: ${ctx.pivot_files.map((f) => f.path)}`);
  t.diagnostic(`${progress.length} progress notification(s): ${JSON.stringify(progress.slice(-3))}`);
  for (const p of progress) {
    assert.equal(typeof p.progress, 'number', `progress: ${JSON.stringify(p)}`);
    if (p.total !== undefined) assert.ok(p.progress <= p.total, `progress beyond total: ${JSON.stringify(p)}`);
  }
  for (let i = 1; i < progress.length; i++) {
    assert.ok(progress[i].progress >= progress[i - 1].progress, `progress went back: ${JSON.stringify(progress)}`);
  }
  await client.close();
});

test('get_context sends the top of the changelog the pull-request template asks for', async () => {
  let changelog = '# Changelog\n\n## Unreleased\n\n- Nothing yet.\n\n';
  for (let i = 0; i < 300; i++) changelog += `## 0.${i}.0\n\n- Release ${i} of the demo.\n\n`;
  const root = makeFixture({
    'CHANGELOG.md': changelog,
    '.github/PULL_REQUEST_TEMPLATE.md': '## Summary\n\n- [ ] Tests pass\n- [ ] An entry in CHANGELOG.md under Unreleased\n',
  });
  const client = await connectClient(root, { name: 'comp-e2e-changelog' });
  const task = 'parse_config crashes with KeyError when the settings file has upper-case keys';
  const ctx = structured(await call(client, 'get_context', { task, max_tokens: 8000 }), 'get_context');
  const last = ctx.pivot_files.at(-1);
  assert.equal(last?.path, 'CHANGELOG.md', `last pivot file: ${ctx.pivot_files.map((f) => f.path)}`);
  assert.equal(last.required_by, '.github/PULL_REQUEST_TEMPLATE.md');
  assert.ok(last.content.startsWith('# Changelog\n\n## Unreleased\n'), last.content.slice(0, 80));
  assert.match(last.lines ?? '', /^1-\d+$/);
  assert.ok(last.token_count <= 8000 / 32 && last.token_count < last.raw_token_count, JSON.stringify(last.lines));
  for (const f of ctx.pivot_files.slice(0, -1)) assert.equal(f.required_by, null, f.path);
  // A small budget keeps to the code.
  const small = structured(await call(client, 'get_context', { task, max_tokens: 2000 }), 'get_context (2000)');
  assert.ok(!small.pivot_files.some((f) => f.path === 'CHANGELOG.md'), small.pivot_files.map((f) => f.path).join(' '));
  await client.close();
});

test('two servers on the same root both answer', async () => {
  const root = makeFixture(bulkFiles(100));
  const [a, b] = await Promise.all([
    connectClient(root, { name: 'comp-e2e-a' }),
    connectClient(root, { name: 'comp-e2e-b' }),
  ]);
  const task = 'parse_config should accept a missing settings file';
  const answers = await Promise.all([a, b].map((c) => call(c, 'get_context', { task, max_tokens: 1500 })));
  for (const [i, result] of answers.entries()) {
    const ctx = structured(result, `get_context on server ${i}`);
    const paths = ctx.pivot_files.map((f) => f.path);
    assert.ok(paths.includes('config.py'), `server ${i}: config.py among pivot files: ${paths}`);
    assert.ok(ctx.tokens_sent <= 1500);
  }
  // Both keep working once the index exists, and agree on it.
  const found = await Promise.all([a, b].map((c) => call(c, 'search_code', { query: 'handler_42' })));
  for (const [i, result] of found.entries()) {
    assert.equal(structured(result, `search_code on server ${i}`).symbols[0]?.name, 'handler_42');
  }
  await Promise.all([a.close(), b.close()]);
});

// ---------------------------------------------------------------------------
// Raw JSON-RPC: what the SDK does not let a test choose.

describe('raw JSON-RPC over stdio', () => {
  let root;
  before(() => { root = makeFixture(); });

  test('protocol version negotiation', async () => {
    const old = new RawServer(root);
    const init = await old.initialize('2025-03-26');
    assert.equal(init.result?.protocolVersion, '2025-03-26', JSON.stringify(init));
    assert.equal(init.result?.serverInfo?.name, 'comp');
    const listed = await old.request(2, 'tools/list', {});
    assert.deepEqual(listed.result.tools.map((t) => t.name).sort(), TOOL_NAMES);
    for (const tool of listed.result.tools) {
      assert.equal(tool.outputSchema, undefined, `${tool.name}: outputSchema is not part of 2025-03-26`);
      assert.equal(tool.inputSchema?.type, 'object');
    }
    await old.close();
    assert.deepEqual(old.notJson, [], 'stdout carries only JSON-RPC');

    const future = new RawServer(root);
    const answer = await future.initialize('1999-01-01');
    assert.equal(answer.result?.protocolVersion, '2025-11-25', JSON.stringify(answer));
    const pong = await future.request(2, 'ping');
    assert.deepEqual(pong.result, {});
    await future.close();
  });

  test('a cancelled call neither crashes nor wedges the server', async (t) => {
    const fresh = makeFixture(bulkFiles(200));  // never indexed: the call is still waiting when cancelled
    const server = new RawServer(fresh);
    await server.initialize('2025-11-25');
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'get_context', arguments: { task: 'parse_config' } } });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'user changed their mind' } });
    const pong = await server.request(3, 'ping');
    assert.deepEqual(pong.result, {}, JSON.stringify(pong));
    assert.ok(server.running, `server exited: ${server.stderr}`);

    // Cancelling an id that never existed is ignored, too.
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } });
    const next = await server.request(4, 'tools/call',
      { name: 'search_code', arguments: { query: 'parse_config' } });
    assert.equal(next.result?.isError, undefined, JSON.stringify(next));
    assert.equal(next.result?.structuredContent?.symbols?.[0]?.name, 'parse_config', JSON.stringify(next));
    // The cancelled call may have been answered before the cancel arrived, but only once.
    const answers2 = server.messages.filter((m) => m.id === 2);
    assert.ok(answers2.length <= 1, 'at most one answer to id 2');
    t.diagnostic(`the cancelled call was ${answers2.length ? 'answered anyway' : 'not answered'}`);
    assert.deepEqual(server.notJson, [], 'stdout carries only JSON-RPC');
    await server.close();
    const exit = await server.exit;
    assert.equal(exit.signal, null, `server was killed or crashed: ${JSON.stringify(exit)}; stderr: ${server.stderr}`);
    assert.equal(exit.code, 0, `exit code on end of input: ${JSON.stringify(exit)}; stderr: ${server.stderr}`);
  });
});
