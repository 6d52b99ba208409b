// The session-memory view: reads the daemon's file, reloads when it
// changes, marks entries stale as soon as one of their files is edited,
// survives a missing or garbled file, and clears through the daemon.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { SessionMemoryDocument, SessionMemoryEntry } from '../daemon/protocol';
import { testState, Uri } from '../testing/vscodeFake';
import { MemoryNode, SessionMemoryManager } from './SessionMemoryManager';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comp-memory-test-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const entry = (id: string, time: string, files: string[], over: Partial<SessionMemoryEntry> = {}): SessionMemoryEntry => ({
  id,
  time,
  tool: 'run_pipeline',
  client: 'vscode',
  query: `query ${id}`,
  files: files.map((file) => ({ path: file, sha256: 'x', tokens: 10 })),
  symbols: [],
  tokens_sent: 20,
  tokens_saved: 5,
  stale: false,
  stale_files: [],
  ...over,
});

function writeMemory(folder: string, entries: SessionMemoryEntry[]): void {
  fs.mkdirSync(path.join(folder, '.comp'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.comp', 'session-memory.json'), JSON.stringify({ version: 1, entries }));
}

// Waits until `done()` holds, for 5 s at most (the assertion after it then
// fails): the manager reads its file asynchronously, and a fixed sleep was
// too short on a loaded machine.
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 5000; !done() && Date.now() < end; )
    await new Promise((resolve) => setTimeout(resolve, 10));
}

const ids = (nodes: MemoryNode[]): string[] => nodes.map((node) => (node.type === 'entry' ? node.entry.id : node.type));

describe('SessionMemoryManager', () => {
  beforeEach(() => testState.reset());

  it('shows entries newest first, reloads on change and marks edited files stale', async () => {
    const folder = fs.mkdtempSync(path.join(scratch, 'ws-'));
    writeMemory(folder, [entry('1', '2026-01-01T00:00:00Z', ['a.py', 'b.py']), entry('2', '2026-01-02T00:00:00Z', ['c.py'], { stale: true, stale_files: ['c.py'] })]);
    testState.setFolders([folder]);
    const cleared: string[] = [];
    const manager = new SessionMemoryManager({
      clear: async (f) => {
        cleared.push(f.name);
        return { version: 1, entries: [] } satisfies SessionMemoryDocument;
      },
    });
    await until(() => manager.getChildren()[0]?.type === 'entry');
    const roots = manager.getChildren();
    assert.deepEqual(ids(roots), ['2', '1']);
    const items = roots.map((node) => manager.getTreeItem(node));
    assert.match(String(items[0]?.description), /^stale · run_pipeline · 1 file · 5 tokens saved/);
    assert.match(String(items[1]?.description), /^run_pipeline · 2 files/);
    const files = manager.getChildren(roots[1] as MemoryNode);
    assert.deepEqual(files.map((node) => (node.type === 'file' ? node.path : '')), ['a.py', 'b.py']);

    // An edit in the editor marks entry 1 stale at once.
    testState.events.textChanged.fire({ document: { uri: Uri.file(path.join(folder, 'b.py')) }, contentChanges: [{}] });
    const again = manager.getChildren();
    assert.match(String(manager.getTreeItem(again[1] as MemoryNode).description), /^stale/);
    assert.match(String(manager.getTreeItem(manager.getChildren(again[1] as MemoryNode)[1] as MemoryNode).description), /changed since/);

    // The daemon rewrites the file: the watcher reloads.
    writeMemory(folder, [entry('3', '2026-01-03T00:00:00Z', ['d.py'])]);
    const watcher = testState.watchers.find((w) => typeof w.pattern !== 'string');
    watcher?.changed.fire(Uri.file(path.join(folder, '.comp', 'session-memory.json')));
    await until(() => ids(manager.getChildren()).join() === '3');
    assert.deepEqual(ids(manager.getChildren()), ['3']);

    await manager.clear();
    assert.deepEqual(cleared, [path.basename(folder)]);
    assert.deepEqual(manager.getChildren().map((node) => node.type), ['message']);
    manager.dispose();
  });

  it('copes with a missing or garbled file', async () => {
    const folder = fs.mkdtempSync(path.join(scratch, 'ws-'));
    testState.setFolders([folder]);
    const manager = new SessionMemoryManager({ clear: async () => ({ version: 1, entries: [] }) });
    await manager.refresh();
    const empty = manager.getChildren();
    assert.equal(empty[0]?.type === 'message' && empty[0].text, 'No tool calls recorded yet.');
    fs.mkdirSync(path.join(folder, '.comp'));
    fs.writeFileSync(path.join(folder, '.comp', 'session-memory.json'), '{ not json');
    await manager.refresh();
    const garbled = manager.getChildren()[0];
    assert.ok(garbled?.type === 'message' && garbled.text.startsWith('Cannot read'));
    manager.dispose();
  });

  it('groups by folder in a multi-root workspace', async () => {
    const a = fs.mkdtempSync(path.join(scratch, 'a-'));
    const b = fs.mkdtempSync(path.join(scratch, 'b-'));
    writeMemory(b, [entry('9', '2026-01-01T00:00:00Z', ['x.ts'])]);
    testState.setFolders([a, b]);
    const manager = new SessionMemoryManager({ clear: async () => ({ version: 1, entries: [] }) });
    await until(() => manager.getChildren().length === 2 && ids(manager.getChildren(manager.getChildren()[1])).join() === '9');
    const roots = manager.getChildren();
    assert.deepEqual(roots.map((node) => node.type), ['folder', 'folder']);
    const inB = manager.getChildren(roots[1] as MemoryNode);
    assert.equal(inB[0]?.type === 'entry' && inB[0].entry.id, '9');
    assert.equal((manager.getTreeItem(roots[0] as MemoryNode) as vscode.TreeItem).label, path.basename(a));
    manager.dispose();
  });
});
