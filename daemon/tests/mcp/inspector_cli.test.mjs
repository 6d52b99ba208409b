// End-to-end test of `comp mcp` driven by the MCP Inspector's CLI mode
// (`mcp-inspector --cli`, package @modelcontextprotocol/inspector), a client
// written by others than the SDK test's: it lists the tools and calls them on a
// small git repository, one inspector process (and one `comp mcp`) per call.
//
//   COMP_BINARY=/path/to/comp node --test inspector_cli.test.mjs
//
// Registered with CTest as mcp_inspector_cli (daemon/CMakeLists.txt); the
// inspector comes from `npm ci` in this folder (scripts/setup.sh).
//
// How the inspector CLI behaves (2.12.0), which the assertions rely on:
// - `mcp-inspector --cli <command> <args...> --method ...` runs <command> as a
//   stdio server. Options it knows itself (--log-level, --cwd, ...) are taken
//   wherever they appear, so server arguments that clash with them go after `--`.
// - --format json prints one object on stdout: {"result": ...}; errors are an
//   envelope {"error": {"code", "message"}} on stderr.
// - A tool result with isError: true is still printed on stdout, then the CLI
//   exits 5 with the envelope code "tool_is_error"; an unknown tool exits 5 with
//   "tool_not_found" before anything is called.
// - --tool-arg key=value values are coerced to the types of the tool's
//   inputSchema (max_tokens=2000 is sent as the integer 2000).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
import { COMP, mirrorsText, makeFixture as makeSharedFixture, tempDirs } from './fixture.mjs';
const INSPECTOR = path.join(here, 'node_modules', '.bin', 'mcp-inspector');

const TOOL_NAMES = ['get_context', 'get_diff_context', 'get_file', 'get_symbol', 'search_code'];
const CLI_TIMEOUT_MS = 60_000;  // one inspector run: start, connect, first index, one call
const EXIT_TOOL_ERROR = 5;      // the inspector CLI's exit code for isError results and unknown tools

// ---------------------------------------------------------------------------
// Fixture: a small git repository with cross-file calls in Python and TypeScript.

/** A fresh, never-indexed git repository holding FILES. */
const makeFixture = () => makeSharedFixture({}, 'comp-inspector-cli-');

// ---------------------------------------------------------------------------
// The inspector CLI.

let inspectorHome;  // the inspector's catalog and client config live here, not in ~/.mcp-inspector

/**
 * Runs `mcp-inspector --cli <args...>` (no shell) and resolves with its exit
 * code and output; never rejects on a non-zero exit, only on a timeout.
 */
function runInspector(args) {
  const env = {
    ...process.env,
    MCP_CATALOG_PATH: path.join(inspectorHome, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(inspectorHome, 'client.json'),
    NO_COLOR: '1',
  };
  return new Promise((resolve, reject) => {
    execFile(INSPECTOR, ['--cli', ...args],
      { env, encoding: 'utf8', timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`mcp-inspector ${args.join(' ')}: ${error.killed ? `killed after ${CLI_TIMEOUT_MS} ms` : error.message}` +
            `\nstdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`));
          return;
        }
        resolve({ code: error ? error.code : 0, stdout, stderr, args });
      });
  });
}

/** `comp mcp` on `root`, as the server command after `--`. */
function server(root) {
  return ['--', COMP, 'mcp', '--root', root, '--log-level', 'warn'];
}

function describeRun(run) {
  return `mcp-inspector --cli ${run.args.join(' ')} exited ${run.code}\n` +
    `stdout: ${run.stdout.slice(0, 2000)}\nstderr: ${run.stderr.slice(-2000)}`;
}

/** The parsed `{"result": ...}` object of a --format json run. */
function jsonResult(run) {
  let parsed;
  try {
    parsed = JSON.parse(run.stdout);
  } catch (err) {
    assert.fail(`stdout is not one JSON object (${err.message}); ${describeRun(run)}`);
  }
  assert.ok(parsed && typeof parsed === 'object' && 'result' in parsed, `no "result" on stdout; ${describeRun(run)}`);
  return parsed.result;
}

/** The parsed error envelope a failed --format json run leaves on stderr. */
function errorEnvelope(run) {
  const line = run.stderr.split('\n').reverse().find((l) => l.startsWith('{"error"'));
  assert.ok(line, `no {"error": ...} envelope on stderr; ${describeRun(run)}`);
  return JSON.parse(line).error;
}

/** tools/call through the inspector: `toolArgs` as --tool-arg key=value pairs. */
async function callTool(root, name, toolArgs = {}) {
  const pairs = Object.entries(toolArgs).map(([k, v]) => `${k}=${v}`);
  return runInspector(['--format', 'json', '--method', 'tools/call', '--tool-name', name,
    ...(pairs.length ? ['--tool-arg', ...pairs] : []), ...server(root)]);
}

/** A successful call's structuredContent, after checking the text block mirrors it. */
function structured(run, what) {
  assert.equal(run.code, 0, `${what}: ${describeRun(run)}`);
  const result = jsonResult(run);
  assert.notEqual(result.isError, true, `${what} failed: ${JSON.stringify(result.content)}`);
  assert.ok(result.structuredContent && typeof result.structuredContent === 'object', `${what}: no structuredContent`);
  const texts = result.content.filter((c) => c.type === 'text');
  assert.equal(texts.length, 1, `${what}: expected exactly one text content block`);
  mirrorsText(texts[0].text, result.structuredContent, what);
  return result.structuredContent;
}

/** A tool call the server answered with isError: its message (stdout) and the CLI's exit (5) and envelope. */
function toolError(run, what) {
  assert.equal(run.code, EXIT_TOOL_ERROR, `${what}: expected exit ${EXIT_TOOL_ERROR}; ${describeRun(run)}`);
  const result = jsonResult(run);
  assert.equal(result.isError, true, `${what}: expected isError; ${describeRun(run)}`);
  assert.equal(errorEnvelope(run).code, 'tool_is_error', `${what}: ${describeRun(run)}`);
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

before(() => {
  assert.ok(existsSync(COMP), `comp binary not found at ${COMP} (set COMP_BINARY)`);
  assert.ok(existsSync(INSPECTOR), `${INSPECTOR} not found: run npm ci in ${here} (scripts/setup.sh)`);
  inspectorHome = mkdtempSync(path.join(tmpdir(), 'comp-inspector-home-'));
  tempDirs.push(inspectorHome);
});

after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------

describe('comp mcp through the MCP Inspector CLI', () => {
  let root;
  before(() => { root = makeFixture(); });

  test('tools/list, invoked as in the inspector\'s documentation', async () => {
    // `mcp-inspector --cli <command> <args...> --method tools/list`, default (text) output.
    const run = await runInspector([COMP, 'mcp', '--root', root, '--method', 'tools/list']);
    assert.equal(run.code, 0, describeRun(run));
    const listed = JSON.parse(run.stdout);
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), TOOL_NAMES);
  });

  test('tools/list returns the five tools with their schemas', async (t) => {
    const run = await runInspector(['--format', 'json', '--method', 'tools/list', ...server(root)]);
    assert.equal(run.code, 0, describeRun(run));
    const { tools } = jsonResult(run);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOL_NAMES);
    for (const tool of tools) {
      assert.ok(tool.description?.length > 20, `${tool.name}: description`);
      assert.equal(tool.inputSchema?.type, 'object', `${tool.name}: inputSchema`);
      assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name}: readOnlyHint`);
    }
    const required = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema.required ?? []]));
    assert.deepEqual(required.get_context, ['task']);
    assert.deepEqual(required.get_symbol, ['name']);
    assert.deepEqual(required.search_code, ['query']);
    assert.deepEqual(required.get_file, ['path']);
    const summary = run.stderr.split('\n').find((l) => l.startsWith('Schema portability'));
    if (summary) t.diagnostic(summary);
  });

  test('tools/list --strict finds no error-severity schema portability problem', async (t) => {
    // Exit 6 when a tool schema would be rejected by a single-`type` client dialect.
    const run = await runInspector(['--format', 'json', '--strict', '--method', 'tools/list', ...server(root)]);
    assert.equal(run.code, 0, describeRun(run));
    const counts = run.stderr.split('\n').find((l) => /\d+ errors?, \d+ warnings?/.test(l));
    if (counts) t.diagnostic(counts.trim());
  });

  test('search_code finds parse_config in config.py', async () => {
    const found = structured(await callTool(root, 'search_code', { query: 'parse_config' }), 'search_code');
    assert.ok(found.symbols.length > 0, 'no symbols found');
    assert.equal(found.symbols[0].name, 'parse_config', `first: ${JSON.stringify(found.symbols[0])}`);
    assert.equal(found.symbols[0].file, 'config.py');
    assert.equal(typeof found.symbols[0].line, 'number');

    // An integer argument given as key=value reaches the server as an integer.
    const cls = structured(await callTool(root, 'search_code', { query: 'HttpServer', limit: 3 }), 'search_code limit');
    assert.ok(cls.symbols.length >= 1 && cls.symbols.length <= 3, `limit 3 gave ${cls.symbols.length}`);
    assert.equal(cls.symbols[0].name, 'HttpServer');
    assert.equal(cls.symbols[0].file, 'src/server.ts');
  });

  test('get_symbol shows parse_config and its caller in app.py', async () => {
    const sym = structured(await callTool(root, 'get_symbol', { name: 'parse_config' }), 'get_symbol');
    assert.equal(sym.symbol?.name, 'parse_config');
    assert.equal(sym.symbol?.file, 'config.py');
    assert.ok(sym.dependents.some((d) => d.file === 'app.py' && d.name === 'start_application'),
      `app.py's start_application among dependents: ${JSON.stringify(sym.dependents.map((d) => d.id))}`);
    assert.match(sym.markdown, /parse_config/);

    const reg = structured(await callTool(root, 'get_symbol', { name: 'registerRoutes' }), 'get_symbol registerRoutes');
    assert.equal(reg.symbol?.file, 'src/routes.ts');
    assert.ok(reg.dependents.some((d) => d.file === 'src/server.ts'),
      `src/server.ts among registerRoutes' dependents: ${JSON.stringify(reg.dependents.map((d) => d.id))}`);
  });

  test('get_context returns config.py for a task about parse_config, within the budget', async () => {
    const maxTokens = 2000;
    const ctx = structured(await callTool(root, 'get_context', {
      task: 'parse_config crashes with KeyError when the settings file has upper-case keys',
      max_tokens: maxTokens,
    }), 'get_context');
    const paths = ctx.pivot_files.map((f) => f.path);
    assert.ok(paths.includes('config.py'), `config.py among pivot files: ${paths}`);
    const config = ctx.pivot_files.find((f) => f.path === 'config.py');
    assert.match(config.content, /def parse_config/);
    assert.ok(Number.isInteger(ctx.tokens_sent) && ctx.tokens_sent > 0, `tokens_sent: ${ctx.tokens_sent}`);
    assert.ok(ctx.tokens_sent <= maxTokens, `tokens_sent ${ctx.tokens_sent} > max_tokens ${maxTokens}`);
  });

  test('get_file with --tool-args-json returns the file as is', async () => {
    const run = await runInspector(['--format', 'json', '--method', 'tools/call', '--tool-name', 'get_file',
      '--tool-args-json', JSON.stringify({ path: 'config.py', level: 0 }), ...server(root)]);
    const file = structured(run, 'get_file');
    assert.equal(file.content, readFileSync(path.join(root, 'config.py'), 'utf8'));
  });

  test('bad arguments are isError results that say what is wrong', async () => {
    const noTask = toolError(await callTool(root, 'get_context'), 'get_context without task');
    assert.match(noTask, /task/);

    const badLevel = toolError(await callTool(root, 'get_file', { path: 'config.py', level: 7 }), 'get_file level 7');
    assert.match(badLevel, /level/);

    const outside = toolError(await callTool(root, 'get_file', { path: '../etc/passwd' }), 'get_file ../etc/passwd');
    assert.match(outside, /path/);
    assert.doesNotMatch(outside, /root:x:0:0/, 'get_file leaked /etc/passwd');
  });

  test('an unknown tool is reported by the CLI', async () => {
    const run = await callTool(root, 'no_such_tool', { x: 1 });
    assert.equal(run.code, EXIT_TOOL_ERROR, describeRun(run));
    const envelope = errorEnvelope(run);
    assert.equal(envelope.code, 'tool_not_found', describeRun(run));
    assert.match(envelope.message, /no_such_tool/);
  });
});
