// Editor file events become one debounced `file_changed` per folder, with
// workspace-relative paths, each once, without ignored paths.

import * as assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { DaemonManager } from '../daemon/DaemonManager';
import { testState, Uri, WorkspaceFolder } from '../testing/vscodeFake';
import { FileChangeForwarder } from './FileChangeForwarder';

function fakeManager(folders: WorkspaceFolder[]) {
  const sent: { folder: string; method: string; params: unknown }[] = [];
  const daemons = folders.map((folder) => ({
    folder,
    client: { notify: (method: string, params: unknown) => sent.push({ folder: folder.name, method, params }) },
  }));
  const manager = {
    forUri: (uri: Uri) => daemons.find((daemon) => uri.path.startsWith(daemon.folder.uri.path + '/')),
  };
  return { manager: manager as unknown as DaemonManager, sent };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FileChangeForwarder', () => {
  beforeEach(() => testState.reset());

  it('batches saves and file events per folder into one file_changed', async () => {
    const folders = testState.setFolders(['/ws/a', '/ws/b']);
    const { manager, sent } = fakeManager(folders);
    const forwarder = new FileChangeForwarder(manager, 30);
    const watcher = testState.watchers[0];
    assert.ok(watcher);
    watcher.changed.fire(Uri.file('/ws/a/src/x.py'));
    watcher.created.fire(Uri.file('/ws/a/src/y.py'));
    testState.events.saved.fire({ uri: Uri.file('/ws/a/src/x.py') });
    watcher.deleted.fire(Uri.file('/ws/b/old.ts'));
    watcher.changed.fire(Uri.file('/ws/a/.git/index'));
    watcher.changed.fire(Uri.file('/ws/a/web/node_modules/m/i.js'));
    watcher.changed.fire(Uri.file('/elsewhere/z.py'));
    assert.equal(sent.length, 0, 'nothing before the debounce delay');
    await wait(80);
    assert.deepEqual(sent, [
      { folder: 'a', method: 'file_changed', params: { paths: ['src/x.py', 'src/y.py'] } },
      { folder: 'b', method: 'file_changed', params: { paths: ['old.ts'] } },
    ]);
    forwarder.dispose();
  });

  it('follows comp.ignoredGlobs', async () => {
    const folders = testState.setFolders(['/ws/a']);
    const { manager, sent } = fakeManager(folders);
    const forwarder = new FileChangeForwarder(manager, 10);
    testState.setConfig('comp.ignoredGlobs', ['**/*.gen.ts']);
    testState.events.saved.fire({ uri: Uri.file('/ws/a/api.gen.ts') });
    testState.events.saved.fire({ uri: Uri.file('/ws/a/.git/HEAD') });
    forwarder.flush();
    assert.deepEqual(sent, [{ folder: 'a', method: 'file_changed', params: { paths: ['.git/HEAD'] } }]);
    forwarder.dispose();
  });
});
