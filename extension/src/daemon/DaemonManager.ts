// DaemonManager: one DaemonClient per workspace folder, created and stopped
// as folders come and go, restarted when comp.binaryPath or comp.watch
// change. The daemon's stderr goes to the "comP" output channel. A daemon
// that gives up (or cannot be found) raises one notification, not one per
// restart; restarts themselves only show in the status bar.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { DaemonClient, DaemonLaunch, DaemonRequestOptions, DaemonStatus } from './DaemonClient';
import { locateBinary, LocatedBinary } from './binaryLocator';
import { Listeners } from './Listeners';
import type { IndexState } from './protocol';

export interface FolderDaemon {
  readonly folder: vscode.WorkspaceFolder;
  readonly client: DaemonClient;
}

export interface DaemonManagerOptions {
  readonly extensionPath: string;
  readonly extensionVersion: string;
  readonly output: vscode.OutputChannel;
  /** Passed to each DaemonClient (tests shorten them). */
  readonly backoff?: ConstructorParameters<typeof DaemonClient>[0]['backoff'];
  readonly maxRestarts?: number;
}

export class DaemonManager implements vscode.Disposable {
  private readonly daemons = new Map<string, FolderDaemon>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly statusListeners = new Listeners<void>();
  private readonly indexListeners = new Listeners<{ folder: vscode.WorkspaceFolder; index: IndexState }>();
  private readonly notified = new Set<string>();

  /** Any daemon's phase or index state changed. */
  readonly onDidChangeStatus = this.statusListeners.event;
  /** A daemon (re)started or finished an index run: what it answers may have changed. */
  readonly onDidChangeIndex = this.indexListeners.event;

  constructor(private readonly options: DaemonManagerOptions) {}

  /** Starts a daemon for each workspace folder and follows folder and setting changes. */
  start(): void {
    for (const folder of vscode.workspace.workspaceFolders ?? []) this.add(folder);
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders((event) => {
        for (const folder of event.removed) void this.remove(folder);
        for (const folder of event.added) this.add(folder);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('comp.binaryPath') || event.affectsConfiguration('comp.watch')) void this.restartAll();
      }),
    );
  }

  /** The comP binary the daemons run (and agents are pointed at). */
  locate(): LocatedBinary {
    const configured = vscode.workspace.getConfiguration('comp').get<string>('binaryPath') ?? '';
    return locateBinary({ configured, extensionPath: this.options.extensionPath });
  }

  all(): FolderDaemon[] {
    return [...this.daemons.values()];
  }

  /** The daemon of the folder that holds `uri`. */
  forUri(uri: vscode.Uri): FolderDaemon | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? this.daemons.get(folder.uri.toString()) : undefined;
  }

  /** The active editor's folder's daemon, else the first folder's. */
  active(): FolderDaemon | undefined {
    const editor = vscode.window.activeTextEditor;
    return (editor && this.forUri(editor.document.uri)) ?? this.all()[0];
  }

  /** A request to the daemon of `uri`'s folder (or the active one). */
  async request<R>(uri: vscode.Uri | undefined, method: string, params?: unknown, options?: DaemonRequestOptions): Promise<R> {
    const daemon = uri ? this.forUri(uri) : this.active();
    if (!daemon) throw new Error('comP needs a workspace folder: open a folder first');
    return daemon.client.request<R>(method, params, options);
  }

  async restartAll(): Promise<void> {
    this.notified.clear();
    await Promise.all(this.all().map((daemon) => daemon.client.restart()));
  }

  /** Stops every daemon cleanly; the returned promise is what deactivate waits for. */
  async stopAll(): Promise<void> {
    await Promise.all(this.all().map((daemon) => daemon.client.stop()));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.subscriptions.length = 0;
    void this.stopAll();
  }

  private add(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    if (this.daemons.has(key) || folder.uri.scheme !== 'file') return;
    const client = new DaemonClient({
      folder: folder.uri.fsPath,
      launch: () => this.launch(folder),
      clientInfo: { name: 'vscode', version: this.options.extensionVersion },
      backoff: this.options.backoff,
      maxRestarts: this.options.maxRestarts,
    });
    const prefix = (vscode.workspace.workspaceFolders?.length ?? 1) > 1 ? `[${folder.name}] ` : '';
    client.onLog((line) => this.options.output.appendLine(prefix + line));
    client.onStatus((status) => {
      this.statusListeners.fire();
      this.maybeNotify(folder, status);
    });
    client.onIndexChanged((index) => this.indexListeners.fire({ folder, index }));
    this.daemons.set(key, { folder, client });
    client.start();
    this.statusListeners.fire();
  }

  private async remove(folder: vscode.WorkspaceFolder): Promise<void> {
    const key = folder.uri.toString();
    const daemon = this.daemons.get(key);
    if (!daemon) return;
    this.daemons.delete(key);
    this.statusListeners.fire();
    await daemon.client.stop();
  }

  private launch(folder: vscode.WorkspaceFolder): DaemonLaunch {
    const located = this.locate();
    if (!located.ok) return { ok: false, error: located.error };
    const watch = vscode.workspace.getConfiguration('comp').get<boolean>('watch') ?? true;
    const args = ['serve', '--root', folder.uri.fsPath, '--log-level', 'info'];
    if (!watch) args.push('--no-watch');
    return { ok: true, command: located.path, args };
  }

  // One notification per folder each time its daemon gives up, none while it retries.
  private maybeNotify(folder: vscode.WorkspaceFolder, status: DaemonStatus): void {
    const key = folder.uri.toString();
    if (status.phase === 'running') {
      this.notified.delete(key);
      return;
    }
    if (status.phase !== 'failed' || this.notified.has(key)) return;
    this.notified.add(key);
    const name = path.basename(folder.uri.fsPath);
    void vscode.window
      .showErrorMessage(`comP could not run for ${name}: ${status.error ?? 'the daemon failed'}`, 'Show Log', 'Retry', 'Open Settings')
      .then((choice) => {
        if (choice === 'Show Log') this.options.output.show(true);
        else if (choice === 'Retry') void this.daemons.get(key)?.client.restart();
        else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'comp.binaryPath');
      });
  }
}
