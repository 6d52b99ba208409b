// StatusBar: one item for all the workspace's daemons, showing the state
// that most needs attention: error, restarting, starting, indexing N%,
// N pending changes, ready. Clicking it opens the daemon log.

import * as vscode from 'vscode';
import type { DaemonStatus } from '../daemon/DaemonClient';
import type { DaemonManager } from '../daemon/DaemonManager';

export interface StatusView {
  readonly text: string;
  readonly tooltip: string;
  readonly severity: 'ok' | 'busy' | 'warning' | 'error';
}

/** What the item says for these daemons' statuses (one per folder). */
export function describeStatus(statuses: readonly DaemonStatus[]): StatusView {
  if (statuses.length === 0) return { text: '$(circle-slash) comP', tooltip: 'comP: no workspace folder open', severity: 'warning' };
  const failed = statuses.find((status) => status.phase === 'failed');
  if (failed) return { text: '$(error) comP error', tooltip: `comP: ${failed.error ?? 'the daemon failed'}. Click for the log.`, severity: 'error' };
  const restarting = statuses.find((status) => status.phase === 'restarting');
  if (restarting) {
    const seconds = Math.max(1, Math.round((restarting.restartInMs ?? 0) / 1000));
    return {
      text: `$(debug-restart) comP restarting`,
      tooltip: `comP: ${restarting.error ?? 'the daemon exited'}; restarting in ${seconds} s. Click for the log.`,
      severity: 'warning',
    };
  }
  if (statuses.some((status) => status.phase === 'starting')) return { text: '$(sync~spin) comP starting', tooltip: 'comP: starting the daemon', severity: 'busy' };
  if (statuses.every((status) => status.phase === 'stopped')) return { text: '$(circle-slash) comP stopped', tooltip: 'comP: the daemon is stopped', severity: 'warning' };
  const indexes = statuses.map((status) => status.index).filter((index) => index !== undefined);
  const indexError = indexes.find((index) => index.last_error);
  const busy = indexes.filter((index) => index.indexing || index.waiting_for_writer || !index.ready);
  if (busy.length > 0) {
    const done = busy.reduce((sum, index) => sum + index.done, 0);
    const total = busy.reduce((sum, index) => sum + index.total, 0);
    const waiting = busy.every((index) => index.waiting_for_writer);
    const percent = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
    return {
      text: waiting ? '$(sync~spin) comP waiting' : `$(sync~spin) comP indexing ${percent}%`,
      tooltip: waiting
        ? 'comP: another comP process is writing the index; waiting for it'
        : `comP: indexing ${done} of ${total} files`,
      severity: 'busy',
    };
  }
  if (indexError) return { text: '$(warning) comP index error', tooltip: `comP: ${indexError.last_error ?? ''}. Click for the log.`, severity: 'error' };
  const pending = indexes.reduce((sum, index) => sum + index.pending_changes, 0);
  if (pending > 0) {
    return { text: `$(pulse) comP ${pending} pending`, tooltip: `comP: ${pending} pending change${pending === 1 ? '' : 's'} to index`, severity: 'busy' };
  }
  return { text: '$(check) comP ready', tooltip: 'comP: the index is up to date. Click for the log.', severity: 'ok' };
}

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly manager: DaemonManager) {
    this.item = vscode.window.createStatusBarItem('comp.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'comP';
    this.item.command = 'comp.showOutput';
    this.subscription = manager.onDidChangeStatus(() => this.update());
    this.update();
    this.item.show();
  }

  get view(): StatusView {
    return describeStatus(this.manager.all().map((daemon) => daemon.client.status));
  }

  update(): void {
    const view = this.view;
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
