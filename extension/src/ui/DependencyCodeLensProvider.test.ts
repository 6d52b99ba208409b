// CodeLens caching: one request per document version (shared by concurrent
// calls, reused while unsaved edits go on), dropped when the folder's index
// changes, never caching a failure; and which symbols get a lens.

import * as assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { CancellationTokenSource, EventEmitter, testState, Uri } from '../testing/vscodeFake';
import type { DependentsCountResult } from '../daemon/protocol';
import { BlastRadiusTarget, DependencyCodeLensProvider, DependentsSource } from './DependencyCodeLensProvider';

const result: DependentsCountResult = {
  path: 'util.py',
  symbols: [
    { id: 'util.py', name: 'util', kind: 'file', line: 1, end_line: 9, dependents: 3 },
    { id: 'util.py::helper', name: 'helper', kind: 'function', line: 1, end_line: 2, dependents: 2 },
    { id: 'util.py::Greeter', name: 'Greeter', kind: 'class', line: 4, end_line: 9, dependents: 1 },
    { id: 'util.py::Greeter.greet', name: 'greet', kind: 'method', line: 5, end_line: 6, dependents: 0 },
    { id: 'util.py::LIMIT', name: 'LIMIT', kind: 'variable', line: 8, end_line: 8, dependents: 5 },
    { id: 'util.py::gone', name: 'gone', kind: 'function', line: 99, end_line: 99, dependents: 1 },
  ],
  freshness: { stale_files: 0, pending_changes: 0, indexing: false, ready: true, last_indexed_at: 1 },
};

interface FakeDocument {
  uri: Uri;
  version: number;
  isDirty: boolean;
  lineCount: number;
}

function setup() {
  const [folder, other] = testState.setFolders(['/ws/a', '/ws/b']) as [vscode.WorkspaceFolder, vscode.WorkspaceFolder];
  const indexChanged = new EventEmitter<{ folder: vscode.WorkspaceFolder }>();
  const calls: string[] = [];
  let answer: () => Promise<DependentsCountResult> = async () => result;
  const source: DependentsSource = {
    folderOf: (uri) => (uri.toString().startsWith(folder.uri.toString()) ? folder : undefined),
    dependentsCount: (_folder, path) => {
      calls.push(path);
      return answer();
    },
    onDidChangeIndex: indexChanged.event,
  };
  const provider = new DependencyCodeLensProvider(source);
  let redraws = 0;
  provider.onDidChangeCodeLenses(() => redraws++);
  const document: FakeDocument = { uri: Uri.file('/ws/a/util.py'), version: 1, isDirty: false, lineCount: 10 };
  const token = new CancellationTokenSource().token;
  const lenses = (doc: FakeDocument = document) => provider.provideCodeLenses(doc as unknown as vscode.TextDocument, token as unknown as vscode.CancellationToken);
  return {
    provider,
    document,
    calls,
    folder,
    other,
    indexChanged,
    lenses,
    setAnswer: (next: () => Promise<DependentsCountResult>) => (answer = next),
    redraws: () => redraws,
  };
}

describe('DependencyCodeLensProvider', () => {
  beforeEach(() => testState.reset());

  it('puts "N dependents" above functions, classes and methods of the file', async () => {
    const s = setup();
    const lenses = await s.lenses();
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
      [
        [0, '2 dependents'],
        [3, '1 dependent'],
        [4, '0 dependents'],
      ],
    );
    const target = lenses[0]?.command?.arguments?.[0] as BlastRadiusTarget;
    assert.equal(target.id, 'util.py::helper');
    assert.equal(target.folder, s.folder.uri.toString());
    assert.equal(lenses[0]?.command?.command, 'comp.showBlastRadius');
    assert.deepEqual(s.calls, ['util.py']);
  });

  it('asks once per document version, shared by concurrent calls', async () => {
    const s = setup();
    await Promise.all([s.lenses(), s.lenses(), s.lenses()]);
    await s.lenses();
    assert.equal(s.calls.length, 1);
    s.document.version = 2; // edited and saved
    await s.lenses();
    assert.equal(s.calls.length, 2);
    s.document.version = 3;
    s.document.isDirty = true; // typing: the daemon knows only the saved file
    await s.lenses();
    assert.equal(s.calls.length, 2);
    assert.equal(s.provider.requestCount, 2);
  });

  it("drops a folder's answers and redraws when its index changes", async () => {
    const s = setup();
    await s.lenses();
    s.indexChanged.fire({ folder: s.other });
    await s.lenses();
    assert.equal(s.calls.length, 1, 'another folder changing keeps this cache');
    s.indexChanged.fire({ folder: s.folder });
    assert.ok(s.redraws() >= 2);
    await s.lenses();
    assert.equal(s.calls.length, 2);
  });

  it('does not cache a failure (file not indexed yet, daemon down)', async () => {
    const s = setup();
    s.setAnswer(async () => {
      throw new Error('not in the index');
    });
    assert.deepEqual(await s.lenses(), []);
    s.setAnswer(async () => result);
    assert.equal((await s.lenses()).length, 3);
    assert.equal(s.calls.length, 2);
  });

  it('gives nothing outside workspace folders or when turned off', async () => {
    const s = setup();
    assert.deepEqual(await s.lenses({ ...s.document, uri: Uri.file('/elsewhere/x.py') }), []);
    testState.config.set('comp.codeLens', false);
    assert.deepEqual(await s.lenses(), []);
    assert.equal(s.calls.length, 0);
  });
});
