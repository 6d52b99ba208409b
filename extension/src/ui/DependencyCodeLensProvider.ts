// DependencyCodeLensProvider: "N dependents" above each function, class and
// method, from the daemon's `dependents_count` for the whole file: one
// request per file and document version, shared by concurrent calls (an
// unsaved edit reuses the answer: the daemon knows only saved files). The
// cache of a folder is dropped (and VS Code asked to redraw) whenever its
// index changes: after a daemon (re)start and after each index run, which
// is also how a saved edit shows up. A failed request is not cached.
// Line numbers are those of the file as last indexed (saved).

import * as vscode from 'vscode';
import type { DaemonManager } from '../daemon/DaemonManager';
import type { Disposable } from '../daemon/Listeners';
import type { DependentsCountResult, DependentsCountSymbol } from '../daemon/protocol';
import { relativePath } from '../workspace/FileChangeForwarder';

/** Symbol kinds that get a lens. */
export const lensKinds: ReadonlySet<string> = new Set(['function', 'method', 'class', 'interface', 'struct', 'trait', 'enum']);

/** What the provider needs from the daemons (DaemonManager in the extension, a fake in tests). */
export interface DependentsSource {
  folderOf(uri: vscode.Uri): vscode.WorkspaceFolder | undefined;
  dependentsCount(folder: vscode.WorkspaceFolder, relativePath: string): Promise<DependentsCountResult>;
  onDidChangeIndex(listener: (event: { folder: vscode.WorkspaceFolder }) => void): Disposable;
}

export function dependentsSourceOf(manager: DaemonManager): DependentsSource {
  return {
    folderOf: (uri) => manager.forUri(uri)?.folder,
    dependentsCount: (folder, path) =>
      manager.request<DependentsCountResult>(folder.uri, 'dependents_count', { path }, { timeoutMs: 15_000, waitMs: 0 }),
    onDidChangeIndex: (listener) => manager.onDidChangeIndex(listener),
  };
}

/** The argument of `comp.showBlastRadius`. */
export interface BlastRadiusTarget {
  readonly folder: string;
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly uri: string;
  readonly line: number;
}

interface CacheEntry {
  readonly version: number;
  readonly folder: string;
  readonly symbols: Promise<readonly DependentsCountSymbol[]>;
}

export class DependencyCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: Disposable[] = [];
  private requests = 0;

  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly source: DependentsSource) {
    this.subscriptions.push(source.onDidChangeIndex(({ folder }) => this.invalidateFolder(folder)));
  }

  /** Requests sent to the daemon so far (for tests and diagnostics). */
  get requestCount(): number {
    return this.requests;
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!(vscode.workspace.getConfiguration('comp').get<boolean>('codeLens') ?? true)) return [];
    const folder = this.source.folderOf(document.uri);
    if (!folder) return [];
    const relative = relativePath(folder, document.uri);
    if (!relative) return [];
    const key = document.uri.toString();
    let entry = this.cache.get(key);
    if (!entry || (entry.version !== document.version && !document.isDirty)) {
      this.requests++;
      const symbols = this.source.dependentsCount(folder, relative).then((result) => result.symbols);
      const fresh: CacheEntry = { version: document.version, folder: folder.uri.toString(), symbols };
      entry = fresh;
      this.cache.set(key, fresh);
      symbols.catch(() => {
        if (this.cache.get(key) === fresh) this.cache.delete(key);
      });
    }
    let symbols: readonly DependentsCountSymbol[];
    try {
      symbols = await entry.symbols;
    } catch {
      return []; // not indexed yet, or no daemon: the next index change redraws
    }
    if (token.isCancellationRequested) return [];
    return symbols
      .filter((symbol) => lensKinds.has(symbol.kind) && symbol.line >= 1 && symbol.line <= document.lineCount)
      .map((symbol) => {
        const line = symbol.line - 1;
        const range = new vscode.Range(line, 0, line, 0);
        const target: BlastRadiusTarget = {
          folder: folder.uri.toString(),
          id: symbol.id,
          name: symbol.name,
          kind: symbol.kind,
          uri: key,
          line,
        };
        return new vscode.CodeLens(range, {
          title: `${symbol.dependents} dependent${symbol.dependents === 1 ? '' : 's'}`,
          tooltip: `What depends on ${symbol.name} (blast radius)`,
          command: 'comp.showBlastRadius',
          arguments: [target],
        });
      });
  }

  /** Forgets every cached answer of `folder` and asks VS Code to redraw. */
  invalidateFolder(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    for (const [uri, entry] of this.cache) if (entry.folder === key) this.cache.delete(uri);
    this.changed.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.cache.clear();
  }
}
