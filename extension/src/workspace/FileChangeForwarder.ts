// FileChangeForwarder: tells each folder's daemon which files changed, as
// VS Code sees them (file system events and saves), in debounced batches of
// `file_changed` notifications. The daemon watches the disk too; this covers
// what its watcher misses (remote or network file systems, `comp.watch`
// off) and makes saves visible at once. Paths matching comp.ignoredGlobs
// are not sent.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DaemonClient } from '../daemon/DaemonClient';
import type { DaemonManager } from '../daemon/DaemonManager';
import { FileChangeBatcher } from './FileChangeBatcher';
import { GlobSet } from './globPattern';

export const defaultIgnoredGlobs = ['**/.git/**', '**/.comp/**', '**/node_modules/**'];

/** `uri` relative to `folder` with '/' separators, or undefined outside it. */
export function relativePath(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== folder.uri.scheme) return undefined;
  const relative = path.relative(folder.uri.fsPath, uri.fsPath);
  if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

export class FileChangeForwarder implements vscode.Disposable {
  private readonly batchers = new Map<string, { readonly client: DaemonClient; readonly batcher: FileChangeBatcher }>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private ignored = new GlobSet(defaultIgnoredGlobs);

  constructor(
    private readonly manager: DaemonManager,
    private readonly delayMs = 200,
  ) {
    this.readSettings();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate((uri) => this.changed(uri)),
      watcher.onDidChange((uri) => this.changed(uri)),
      watcher.onDidDelete((uri) => this.changed(uri)),
      vscode.workspace.onDidSaveTextDocument((document) => this.changed(document.uri)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('comp.ignoredGlobs')) this.readSettings();
      }),
    );
  }

  /** Queues one changed file for its folder's daemon. */
  changed(uri: vscode.Uri): void {
    const daemon = this.manager.forUri(uri);
    if (!daemon) return;
    const relative = relativePath(daemon.folder, uri);
    if (!relative || this.ignored.matches(relative)) return;
    const key = daemon.folder.uri.toString();
    let queue = this.batchers.get(key);
    // A client outlives restarts of its process, not the removal of its folder.
    if (!queue || queue.client !== daemon.client) {
      queue?.batcher.dispose();
      const client = daemon.client;
      queue = { client, batcher: new FileChangeBatcher((paths) => void client.notify('file_changed', { paths }), this.delayMs) };
      this.batchers.set(key, queue);
    }
    queue.batcher.add(relative);
  }

  /** Sends what is queued now. */
  flush(): void {
    for (const { batcher } of this.batchers.values()) batcher.flushNow();
  }

  dispose(): void {
    for (const { batcher } of this.batchers.values()) batcher.dispose();
    this.batchers.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private readSettings(): void {
    const globs = vscode.workspace.getConfiguration('comp').get<string[]>('ignoredGlobs') ?? defaultIgnoredGlobs;
    this.ignored = new GlobSet(Array.isArray(globs) ? globs.filter((glob) => typeof glob === 'string') : defaultIgnoredGlobs);
  }
}
