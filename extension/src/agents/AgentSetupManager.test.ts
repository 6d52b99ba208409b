// The register/undo commands end to end against the fake `vscode`: the
// pick, a diff per file, the confirmation, a config that cannot be parsed
// (reported, untouched), a second run (nothing to do), cancelling, and undo.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { testState, Uri } from '../testing/vscodeFake';
import { AgentSetupManager, recordsKey } from './AgentSetupManager';
import { backupSuffix } from './agentRegistration';

class MemoryMemento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : fallback;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comp-setup-test-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function fixture(name: string) {
  const base = path.join(scratch, name);
  const folder = path.join(base, 'project');
  const home = path.join(base, 'home');
  fs.mkdirSync(path.join(folder, '.cursor'), { recursive: true });
  fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
  const codex = path.join(home, '.codex', 'config.toml');
  const codexText = '# my settings\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-server"\n';
  fs.writeFileSync(codex, codexText);
  const cursor = path.join(folder, '.cursor', 'mcp.json');
  const cursorText = '{ "mcpServers": { "a": { "command": "b" }, } '; // broken: no closing brace
  fs.writeFileSync(cursor, cursorText);
  testState.setFolders([folder]);
  const state = new MemoryMemento();
  const manager = new AgentSetupManager({
    locate: () => ({ ok: true, path: '/opt/comp/bin/comp', source: 'setting' }),
    state: state as never,
    globalStorage: path.join(base, 'globalStorage', 'comp.comp-vscode'),
    home,
  });
  return { folder, home, codex, codexText, cursor, cursorText, state, manager, vscodeFile: path.join(folder, '.vscode', 'mcp.json') };
}

const pick = (...labels: string[]) => (items: { label: string }[], options: { canPickMany?: boolean }) =>
  options.canPickMany ? items.filter((item) => labels.includes(item.label)) : items[0];

describe('AgentSetupManager', () => {
  beforeEach(() => testState.reset());

  it('previews, writes on confirmation, reports the unparsable file, and is idempotent', async () => {
    const f = fixture('flow');
    testState.answerQuickPick = pick('VS Code / GitHub Copilot', 'Codex CLI', 'Cursor');
    testState.answerMessage = (message) => (message.items.includes('Write') ? 'Write' : undefined);
    await f.manager.setup();

    // One diff editor per file to write, showing the text to be written.
    const diffs = testState.executed.filter((call) => call.command === 'vscode.diff');
    assert.equal(diffs.length, 2);
    const provider = testState.contentProviders.get('comp-preview');
    const shownAfter = diffs.map((call) => provider?.provideTextDocumentContent(call.args[1] as Uri) ?? '');
    assert.ok(shownAfter.some((text) => text.includes('[mcp_servers.comp]')));
    assert.ok(shownAfter.some((text) => text.includes('"servers"')));

    const warning = testState.messages.find((message) => message.level === 'warning');
    assert.ok(warning?.detail?.includes('Cursor') && warning.detail.includes('not valid JSON'));
    assert.equal(fs.readFileSync(f.cursor, 'utf8'), f.cursorText, 'the unparsable file is untouched');
    assert.ok(!fs.existsSync(f.cursor + backupSuffix));

    const vscodeConfig = JSON.parse(fs.readFileSync(f.vscodeFile, 'utf8')) as { servers: Record<string, unknown> };
    assert.deepEqual(vscodeConfig.servers.comp, { type: 'stdio', command: '/opt/comp/bin/comp', args: ['mcp', '--root', f.folder] });
    const codex = fs.readFileSync(f.codex, 'utf8');
    assert.ok(codex.startsWith(f.codexText), 'the TOML keeps its comments and tables');
    assert.ok(codex.includes(`args = ["mcp", "--root", ${JSON.stringify(f.folder)}]`));
    assert.equal(fs.readFileSync(f.codex + backupSuffix, 'utf8'), f.codexText);
    assert.equal(f.manager.records().length, 2);

    testState.messages.length = 0;
    testState.executed.length = 0;
    await f.manager.setup();
    assert.equal(testState.executed.filter((call) => call.command === 'vscode.diff').length, 0);
    assert.ok(testState.messages.some((message) => message.message.includes('already registered with VS Code / GitHub Copilot, Codex CLI')));
    assert.equal(f.manager.records().length, 2);

    await f.manager.undo();
    assert.ok(!fs.existsSync(f.vscodeFile), 'the file comP created is gone');
    assert.equal(fs.readFileSync(f.codex, 'utf8'), f.codexText, 'the TOML is back as it was');
    assert.deepEqual(f.state.get(recordsKey), []);
    await f.manager.undo();
    assert.ok(testState.messages.some((message) => message.message.includes('has not registered itself')));
  });

  it('writes nothing when the confirmation is dismissed', async () => {
    const f = fixture('cancel');
    testState.answerQuickPick = pick('Codex CLI');
    testState.answerMessage = () => undefined;
    await f.manager.setup();
    assert.equal(fs.readFileSync(f.codex, 'utf8'), f.codexText);
    assert.equal(f.manager.records().length, 0);
  });

  it('pre-selects the agents that seem to be in use', async () => {
    const f = fixture('hints');
    let labels: string[] = [];
    testState.answerQuickPick = (items) => {
      labels = (items as { label: string; picked?: boolean }[]).filter((item) => item.picked).map((item) => item.label);
      return [];
    };
    await f.manager.setup();
    assert.ok(labels.includes('Cursor') && labels.includes('Codex CLI'));
    assert.ok(!labels.includes('Windsurf'));
  });

  it('says so when there is no comp binary to register', async () => {
    testState.setFolders([scratch]);
    const manager = new AgentSetupManager({ locate: () => ({ ok: false, error: 'no comP binary found' }), state: new MemoryMemento() as never, globalStorage: scratch, home: scratch });
    await manager.setup();
    assert.ok(testState.messages.some((message) => message.level === 'error' && message.message.includes('no comP binary found')));
    manager.dispose();
  });
});
