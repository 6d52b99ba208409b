// SessionMemoryManager: the "comP Session Memory" view. It shows what each
// tool call handed out (query, files, tokens saved), newest first, read from
// <root>/.comp/session-memory.json, which the daemon replaces atomically; the
// view reloads when that file changes. An entry is marked stale when the
// daemon says so, or at once when one of its files is edited in the editor
// (before it is saved and re-indexed). Clearing goes through the daemon
// (`session_memory {clear: true}`), the file's only writer.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../daemon/DaemonClient';
import type { SessionMemoryDocument, SessionMemoryEntry } from '../daemon/protocol';
import { relativePath } from '../workspace/FileChangeForwarder';

export const memoryFileName = path.join('.comp', 'session-memory.json');

/** The daemon side of the view: clearing a folder's memory. */
export interface MemoryClearer {
  clear(folder: vscode.WorkspaceFolder): Promise<SessionMemoryDocument>;
}

export type MemoryNode =
  | { readonly type: 'folder'; readonly folder: vscode.WorkspaceFolder }
  | { readonly type: 'entry'; readonly folder: vscode.WorkspaceFolder; readonly entry: SessionMemoryEntry }
  | { readonly type: 'file'; readonly folder: vscode.WorkspaceFolder; readonly entry: SessionMemoryEntry; readonly path: string; readonly tokens: number }
  | { readonly type: 'message'; readonly text: string };

interface FolderMemory {
  entries: readonly SessionMemoryEntry[];
  error?: string;
  /** Files edited in the editor since they were handed out, by entry id. */
  readonly edited: Map<string, Set<string>>;
}

/** Parses the memory file; throws on anything that is not a memory document. */
export function parseMemory(text: string): SessionMemoryDocument {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { entries?: unknown }).entries)) {
    throw new Error('not a session memory document (no `entries` array)');
  }
  const entries = (value as { entries: unknown[] }).entries.filter(
    (entry): entry is SessionMemoryEntry =>
      typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' && Array.isArray((entry as { files?: unknown }).files),
  );
  return { version: Number((value as { version?: unknown }).version ?? 1), entries };
}

export class SessionMemoryManager implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private readonly memories = new Map<string, FolderMemory>();
  private readonly changed = new vscode.EventEmitter<MemoryNode | undefined>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly watchers = new Map<string, vscode.Disposable>();

  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly clearer: MemoryClearer) {
    for (const folder of vscode.workspace.workspaceFolders ?? []) this.watch(folder);
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders((event) => {
        for (const folder of event.removed) this.unwatch(folder);
        for (const folder of event.added) this.watch(folder);
        this.changed.fire(undefined);
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.markEdited(event.document.uri);
      }),
    );
  }

  /** Re-reads every folder's memory file. */
  async refresh(): Promise<void> {
    await Promise.all((vscode.workspace.workspaceFolders ?? []).map((folder) => this.load(folder)));
  }

  /** Empties the memory of every folder (through each daemon). */
  async clear(): Promise<void> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const failures: string[] = [];
    await Promise.all(
      folders.map(async (folder) => {
        try {
          const document = await this.clearer.clear(folder);
          this.memoryOf(folder).entries = document.entries;
          this.memoryOf(folder).edited.clear();
        } catch (error) {
          failures.push(`${folder.name}: ${errorMessage(error)}`);
        }
      }),
    );
    this.changed.fire(undefined);
    if (failures.length > 0) throw new Error(`could not clear the session memory (${failures.join('; ')})`);
  }

  /** The entries of a folder as shown (newest first). */
  entries(folder: vscode.WorkspaceFolder): readonly SessionMemoryEntry[] {
    return [...(this.memories.get(folder.uri.toString())?.entries ?? [])].sort((a, b) => b.time.localeCompare(a.time));
  }

  /** Stale by the daemon's word, or because one of its files was edited here. */
  isStale(folder: vscode.WorkspaceFolder, entry: SessionMemoryEntry): boolean {
    return entry.stale || (this.memories.get(folder.uri.toString())?.edited.get(entry.id)?.size ?? 0) > 0;
  }

  staleFiles(folder: vscode.WorkspaceFolder, entry: SessionMemoryEntry): Set<string> {
    return new Set([...entry.stale_files, ...(this.memories.get(folder.uri.toString())?.edited.get(entry.id) ?? [])]);
  }

  getChildren(node?: MemoryNode): MemoryNode[] {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (!node) {
      if (folders.length === 1) return this.entryNodes(folders[0] as vscode.WorkspaceFolder);
      return folders.map((folder) => ({ type: 'folder', folder }));
    }
    if (node.type === 'folder') return this.entryNodes(node.folder);
    if (node.type === 'entry') {
      return node.entry.files.map((file) => ({ type: 'file', folder: node.folder, entry: node.entry, path: file.path, tokens: file.tokens }));
    }
    return [];
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    switch (node.type) {
      case 'message':
        return new vscode.TreeItem(node.text);
      case 'folder': {
        const item = new vscode.TreeItem(node.folder.name, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('root-folder');
        return item;
      }
      case 'entry': {
        const { entry } = node;
        const stale = this.isStale(node.folder, entry);
        const firstLine = entry.query.split('\n')[0] ?? '';
        const label = firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine || `(${entry.tool})`;
        const item = new vscode.TreeItem(label, entry.files.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `${node.folder.uri.toString()}#${entry.id}`;
        item.description = `${stale ? 'stale · ' : ''}${entry.tool} · ${entry.files.length} file${entry.files.length === 1 ? '' : 's'} · ${entry.tokens_saved} tokens saved`;
        item.iconPath = new vscode.ThemeIcon(stale ? 'warning' : 'history');
        item.contextValue = stale ? 'comp.memoryEntry.stale' : 'comp.memoryEntry';
        const staleFiles = [...this.staleFiles(node.folder, entry)];
        item.tooltip = new vscode.MarkdownString(
          [
            `**${entry.tool}** by ${entry.client || 'unknown client'} at ${entry.time}`,
            '',
            `${entry.tokens_sent} tokens sent, ${entry.tokens_saved} saved`,
            stale ? `\n**Stale**: changed since: ${staleFiles.map((file) => `\`${file}\``).join(', ') || 'files changed'}` : '',
            '',
            '```text',
            entry.query.slice(0, 1000),
            '```',
          ].join('\n'),
        );
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.joinPath(node.folder.uri, node.path);
        const changed = this.staleFiles(node.folder, node.entry).has(node.path);
        const item = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.None);
        item.label = node.path;
        item.description = `${node.tokens} tokens${changed ? ' · changed since' : ''}`;
        item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
        return item;
      }
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
    this.changed.dispose();
  }

  private entryNodes(folder: vscode.WorkspaceFolder): MemoryNode[] {
    const memory = this.memories.get(folder.uri.toString());
    if (memory?.error) return [{ type: 'message', text: `Cannot read ${memoryFileName}: ${memory.error}` }];
    const entries = this.entries(folder);
    if (entries.length === 0) return [{ type: 'message', text: 'No tool calls recorded yet.' }];
    return entries.map((entry) => ({ type: 'entry', folder, entry }));
  }

  private memoryOf(folder: vscode.WorkspaceFolder): FolderMemory {
    const key = folder.uri.toString();
    let memory = this.memories.get(key);
    if (!memory) {
      memory = { entries: [], edited: new Map() };
      this.memories.set(key, memory);
    }
    return memory;
  }

  private async load(folder: vscode.WorkspaceFolder): Promise<void> {
    const memory = this.memoryOf(folder);
    try {
      const text = await fs.readFile(path.join(folder.uri.fsPath, memoryFileName), 'utf8');
      const document = parseMemory(text);
      memory.entries = document.entries;
      memory.error = undefined;
      // Entries the daemon dropped take their local marks with them.
      const ids = new Set(document.entries.map((entry) => entry.id));
      for (const id of [...memory.edited.keys()]) if (!ids.has(id)) memory.edited.delete(id);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        memory.entries = [];
        memory.error = undefined;
      } else {
        memory.error = errorMessage(error); // shown instead of the entries until the file reads again
      }
    }
    this.changed.fire(undefined);
  }

  private markEdited(uri: vscode.Uri): void {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return;
    const relative = relativePath(folder, uri);
    const memory = this.memories.get(folder.uri.toString());
    if (!relative || !memory) return;
    let marked = false;
    for (const entry of memory.entries) {
      if (!entry.files.some((file) => file.path === relative)) continue;
      let edited = memory.edited.get(entry.id);
      if (!edited) {
        edited = new Set();
        memory.edited.set(entry.id, edited);
      }
      if (!edited.has(relative)) {
        edited.add(relative);
        marked = true;
      }
    }
    if (marked) this.changed.fire(undefined);
  }

  private watch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    if (this.watchers.has(key)) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.comp/session-memory.json'));
    const reload = (): void => void this.load(folder);
    const subscriptions = [watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload)];
    this.watchers.set(key, { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) });
    reload();
  }

  private unwatch(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    this.watchers.get(key)?.dispose();
    this.watchers.delete(key);
    this.memories.delete(key);
  }
}
