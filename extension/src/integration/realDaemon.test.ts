// The extension against the REAL `comp serve`: DaemonManager starts it on a
// temporary workspace (Python and TypeScript files with cross-file calls, a
// git repository), then: initialize, the status bar, CodeLens counts from
// dependents_count, run_pipeline and the session-memory view, a saved edit
// reaching the daemon as file_changed (the daemon runs with --no-watch, so
// nothing else can tell it), the blast radius, @comp in chat, recovery
// after `kill -9`, and a clean shutdown.
//
// The binary: $COMP_BINARY (CTest sets it), else ../build/comp. Without one
// the suite is skipped (and says so).

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { createChatHandler } from '../chat/participant';
import { isExecutableFile } from '../daemon/binaryLocator';
import { DaemonManager } from '../daemon/DaemonManager';
import { ErrorCodes, DependentsCountResult, PipelineResult, SymbolReport, DiffReport } from '../daemon/protocol';
import { RpcError } from '../daemon/JsonRpcConnection';
import { SessionMemoryManager } from '../memory/SessionMemoryManager';
import { CancellationTokenSource, FakeOutputChannel, testState, Uri } from '../testing/vscodeFake';
import { alive, until } from '../testing/wait';
import { referenceSites } from '../ui/BlastRadius';
import { DependencyCodeLensProvider, dependentsSourceOf } from '../ui/DependencyCodeLensProvider';
import { StatusBar } from '../ui/StatusBar';
import { FileChangeForwarder } from '../workspace/FileChangeForwarder';

const binary = process.env.COMP_BINARY || path.resolve(__dirname, '..', '..', '..', 'build', 'comp');
const available = isExecutableFile(binary);
if (process.env.COMP_BINARY && !available) throw new Error(`COMP_BINARY=${process.env.COMP_BINARY} is not an executable file`);

const files: Record<string, string> = {
  'util.py': 'def helper(x):\n    return x * 2\n\n\nclass Greeter:\n    def greet(self, name):\n        return "hi " + name\n',
  'app.py': 'from util import helper, Greeter\n\n\ndef main():\n    g = Greeter()\n    print(g.greet("a"))\n    return helper(3)\n',
  'src/lib.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/main.ts': 'import { add } from "./lib";\n\nexport function run(): number {\n  return add(1, 2);\n}\n',
};

function makeWorkspace(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'comp-ext-it-')));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'fixture');
  } catch {
    // git is optional: the diff test checks for .git.
  }
  return root;
}

interface FakeDocument {
  uri: Uri;
  version: number;
  isDirty: boolean;
  lineCount: number;
}

describe('with the real comp serve', { skip: available ? false : `no comp binary at ${binary} (set COMP_BINARY)` }, () => {
  let root = '';
  let manager: DaemonManager;
  let statusBar: StatusBar;
  let output: FakeOutputChannel;
  let lenses: DependencyCodeLensProvider;
  let forwarder: FileChangeForwarder;
  let indexChanges = 0;
  const token = new CancellationTokenSource().token as unknown as vscode.CancellationToken;

  const client = () => {
    const daemon = manager.all()[0];
    assert.ok(daemon, 'a daemon for the folder');
    return daemon.client;
  };
  const documentOf = (file: string): FakeDocument => ({
    uri: Uri.file(path.join(root, file)),
    version: 1,
    isDirty: false,
    lineCount: fs.readFileSync(path.join(root, file), 'utf8').split('\n').length,
  });
  const lensTitles = async (file: string) =>
    (await lenses.provideCodeLenses(documentOf(file) as unknown as vscode.TextDocument, token)).map((lens) => `${lens.range.start.line + 1}: ${lens.command?.title}`);

  before(async () => {
    testState.reset();
    root = makeWorkspace();
    testState.setFolders([root]);
    testState.config.set('comp.binaryPath', binary);
    testState.config.set('comp.watch', false);
    output = new FakeOutputChannel('comP');
    manager = new DaemonManager({
      extensionPath: path.join(root, 'no-extension'),
      extensionVersion: 'test',
      output: output as unknown as vscode.OutputChannel,
      backoff: { initialMs: 100, maxMs: 2000, factor: 2, stableMs: 60_000 },
    });
    manager.onDidChangeIndex(() => indexChanges++);
    statusBar = new StatusBar(manager);
    lenses = new DependencyCodeLensProvider(dependentsSourceOf(manager));
    forwarder = new FileChangeForwarder(manager, 50);
    manager.start();
    await until(() => client().status.phase === 'running' && client().status.index?.ready === true, 60_000, 'the first index');
  });

  after(async () => {
    forwarder?.dispose();
    lenses?.dispose();
    statusBar?.dispose();
    if (manager) await manager.stopAll();
    manager?.dispose();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('initializes against the folder and shows ready', () => {
    const server = client().server;
    assert.equal(server?.name, 'comp');
    assert.equal(server?.root, root);
    assert.ok(server?.capabilities.methods.includes('dependents_count'));
    assert.ok(server?.capabilities.notifications.server.includes('index_progress'));
    assert.equal(testState.statusItems[0]?.text, '$(check) comP ready');
    assert.ok(output.lines.some((line) => line.includes('serve ready on')), 'the daemon log reaches the output channel');
  });

  it('shows CodeLens counts from dependents_count', async () => {
    assert.deepEqual(await lensTitles('util.py'), ['1: 2 dependents', '5: 2 dependents', '6: 1 dependent']);
    assert.deepEqual(await lensTitles('src/lib.ts'), ['1: 2 dependents']);
    const before = lenses.requestCount;
    await lensTitles('util.py');
    assert.equal(lenses.requestCount, before, 'cached for the same version');
  });

  it('runs the pipeline and the session memory view lists the call', async () => {
    const result = await manager.request<PipelineResult>(undefined, 'run_pipeline', { task: 'change what helper returns', max_tokens: 2000 });
    const paths = result.pivot_files.map((file) => file.path);
    assert.ok(paths.includes('util.py') && paths.includes('app.py'), paths.join(', '));
    assert.ok(result.tokens_sent > 0);
    assert.equal(result.freshness.ready, true);
    // The daemon writes the entry after it has answered; the view reloads
    // when the file changes.
    const memory = new SessionMemoryManager({ clear: async () => ({ version: 1, entries: [] }) });
    const listed = (): boolean =>
      memory.getChildren().some((node) => node.type === 'entry' && node.entry.query === 'change what helper returns');
    for (let tries = 0; tries < 100 && !listed(); tries++) {
      await memory.refresh();
      if (!listed()) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(listed(), 'the call is in the session memory view');
    memory.dispose();
  });

  it('forwards a saved edit as file_changed; the index and the lenses follow', async () => {
    fs.appendFileSync(path.join(root, 'util.py'), '\n\ndef triple(x):\n    return x * 3\n');
    fs.appendFileSync(path.join(root, 'app.py'), '\n\ndef other():\n    return triple(2)\n');
    fs.writeFileSync(path.join(root, 'app.py'), fs.readFileSync(path.join(root, 'app.py'), 'utf8').replace('from util import helper, Greeter', 'from util import helper, Greeter, triple'));
    // --no-watch: the daemon cannot know yet.
    const stale = await manager.request<DependentsCountResult>(Uri.file(root) as unknown as vscode.Uri, 'dependents_count', { path: 'util.py' });
    assert.ok(!stale.symbols.some((symbol) => symbol.name === 'triple'));
    let redrawn = false;
    lenses.onDidChangeCodeLenses(() => (redrawn = true));
    const changesBefore = indexChanges;
    testState.events.saved.fire({ uri: Uri.file(path.join(root, 'util.py')) });
    testState.events.saved.fire({ uri: Uri.file(path.join(root, 'app.py')) });
    await until(() => indexChanges > changesBefore, 20_000, 'an index run after file_changed');
    assert.ok(redrawn, 'the CodeLens cache was dropped');
    const titles = await lensTitles('util.py');
    assert.ok(titles.includes('10: 2 dependents'), titles.join(' | ')); // import and call in app.py
  });

  it('shows the blast radius of a symbol, and -32004 for an unknown one', async () => {
    const report = await manager.request<SymbolReport>(undefined, 'get_symbol', { name: 'util.py::helper' });
    assert.equal(report.symbol?.name, 'helper');
    const sites = referenceSites(report).map((site) => `${site.dependent.file}:${site.line + 1}`);
    assert.ok(sites.includes('app.py:7'), sites.join(', '));
    await assert.rejects(manager.request(undefined, 'get_symbol', { name: 'no_such_symbol_anywhere' }), (error: unknown) => error instanceof RpcError && error.code === ErrorCodes.NotFound);
  });

  it('answers @comp /context and /diff from the daemon', async () => {
    const daemon = manager.all()[0];
    assert.ok(daemon);
    const handler = createChatHandler(
      () => ({ folder: daemon.folder.uri, request: (method, params, signal) => daemon.client.request(method, params, { signal }) }),
      () => ({ maxTokens: 2000, compressionLevel: 2 }),
    );
    const parts: string[] = [];
    const stream = { markdown: (text: string) => parts.push(text), reference: () => {}, anchor: () => {}, progress: () => {} };
    await handler({ command: 'context', prompt: 'how does greet build its answer?' } as unknown as vscode.ChatRequest, { history: [] } as unknown as vscode.ChatContext, stream as unknown as vscode.ChatResponseStream, token);
    assert.match(parts.join(''), /tokens saved/);
    assert.match(parts.join(''), /### util\.py/);
    // run_pipeline also carries the answer as a model reads it, within max_tokens.
    const answer = await daemon.client.request<PipelineResult>('run_pipeline', { task: 'how does greet build its answer?', max_tokens: 2000 });
    assert.ok(answer.markdown?.startsWith(`# Context: ${answer.pivot_files.length} ${answer.pivot_files.length === 1 ? 'file' : 'files'} within 2000 tokens`), answer.markdown);
    assert.ok(answer.pivot_files.every((file) => answer.markdown?.includes(`## ${file.path}`)));
    assert.ok(typeof answer.answer_tokens === 'number' && answer.answer_tokens <= 2000 && answer.answer_tokens > answer.tokens_sent);
    if (fs.existsSync(path.join(root, '.git'))) {
      const diff = await manager.request<DiffReport>(undefined, 'get_git_diff_context', { base: 'HEAD' });
      assert.ok(diff.changes.some((change) => change.path === 'util.py'));
    }
  });

  it('restarts the daemon after kill -9 and keeps answering', async () => {
    const killed = client().pid;
    assert.ok(killed);
    // The status bar updates before this listener runs (it subscribed first).
    const shown: string[] = [];
    const watching = manager.onDidChangeStatus(() => shown.push(testState.statusItems[0]?.text ?? ''));
    process.kill(killed, 'SIGKILL');
    await until(() => client().status.phase === 'running' && client().pid !== killed, 20_000, 'the restart');
    watching.dispose();
    assert.ok(shown.some((text) => text.includes('restarting')), shown.join(' | '));
    const counts = await manager.request<DependentsCountResult>(Uri.file(root) as unknown as vscode.Uri, 'dependents_count', { path: 'src/lib.ts' }, { waitMs: 10_000 });
    assert.equal(counts.symbols.find((symbol) => symbol.name === 'add')?.dependents, 2);
    assert.ok(!testState.messages.some((message) => message.level === 'error'), 'no popup for a restart');
  });

  it('shuts the daemon down cleanly', async () => {
    const pid = client().pid as number;
    await manager.stopAll();
    assert.equal(client().status.phase, 'stopped');
    await until(() => !alive(pid), 5000, 'the daemon process to exit');
    assert.ok(output.lines.some((line) => line.includes('stopped')), 'the daemon logged its stop');
  });
});
