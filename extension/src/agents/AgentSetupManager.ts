// AgentSetupManager: the commands "comP: Register with Coding Agents" and
// "comP: Undo Agent Registration". Registering: pick agents (several at
// once), see each file's change in a diff editor, confirm, then the files
// are written (agentRegistration: merged, backed up, atomic) and what was
// written is remembered in the extension's global state. A file that does
// not parse is reported and never written; an agent already set up is left
// as it is. Undo takes back exactly what was recorded, and leaves an entry
// alone that the user changed since.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { LocatedBinary } from '../daemon/binaryLocator';
import { AgentTarget, TargetContext, agentTargets } from './agentTargets';
import { RegistrationRecord, TargetPlan, backupSuffix, planTarget, undoRegistration, writeRegistration } from './agentRegistration';

export const recordsKey = 'comp.agentRegistrations';
export const previewScheme = 'comp-preview';

export interface AgentSetupOptions {
  /** The comp binary agents should run. */
  locate(): LocatedBinary;
  /** Where the records of what was written live (the extension's globalState). */
  readonly state: vscode.Memento;
  /** This extension's global storage folder (Cline's settings are a sibling). */
  readonly globalStorage: string;
  readonly home?: string;
}

interface TargetItem extends vscode.QuickPickItem {
  readonly target: AgentTarget;
}

interface RecordItem extends vscode.QuickPickItem {
  readonly record: RegistrationRecord;
}

function labelOf(agent: string): string {
  return agentTargets.find((target) => target.id === agent)?.label ?? agent;
}

export class AgentSetupManager implements vscode.Disposable {
  private readonly previews = new Map<string, string>();
  private readonly provider: vscode.Disposable;
  private previewCount = 0;

  constructor(private readonly options: AgentSetupOptions) {
    this.provider = vscode.workspace.registerTextDocumentContentProvider(previewScheme, {
      provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
    });
  }

  /** What has been written and not undone, oldest first. */
  records(): RegistrationRecord[] {
    return [...(this.options.state.get<RegistrationRecord[]>(recordsKey) ?? [])];
  }

  async setup(): Promise<void> {
    const binary = this.options.locate();
    if (!binary.ok) {
      void vscode.window.showErrorMessage(`comP: ${binary.error}`);
      return;
    }
    const folder = await this.pickFolder();
    if (!folder) return;
    const context: TargetContext = { folder: folder.uri.fsPath, home: this.home, globalStorage: this.options.globalStorage };
    const items: TargetItem[] = agentTargets.map((target) => ({
      label: target.label,
      description: this.tildify(target.file(context)),
      detail: target.scope === 'user' ? `Your ${target.label} settings, for all projects: comP will serve ${folder.name}` : `In ${folder.name}`,
      picked: target.hints(context).some((hint) => fs.existsSync(hint)),
      target,
    }));
    const chosen = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: `Register comP (MCP server: comp mcp --root ${folder.name}) with…`,
      placeHolder: 'The agents that should get code context from comP',
    });
    if (!chosen || chosen.length === 0) return;
    const plans = await Promise.all(chosen.map((item) => planTarget(item.target, context, binary.path)));
    const changes = plans.filter((plan) => plan.plan.kind === 'change');
    const unchanged = plans.filter((plan) => plan.plan.kind === 'unchanged');
    const errors = plans.filter((plan) => plan.plan.kind === 'error');
    if (errors.length > 0) {
      const lines = errors.map((plan) => `${plan.target.label}: ${this.tildify(plan.file)}: ${plan.plan.kind === 'error' ? plan.plan.message : ''}`);
      void vscode.window.showWarningMessage(`comP did not touch ${errors.length === 1 ? 'a config file' : `${errors.length} config files`} it cannot edit safely`, {
        modal: true,
        detail: lines.join('\n'),
      });
    }
    if (changes.length === 0) {
      if (unchanged.length > 0) void vscode.window.showInformationMessage(`comP is already registered with ${unchanged.map((plan) => plan.target.label).join(', ')}.`);
      return;
    }
    await this.preview(changes);
    const detail = [
      ...changes.map((plan) => `${plan.target.label}: ${this.tildify(plan.file)}${plan.before === undefined ? ' (new file)' : ''}${plan.plan.kind === 'change' && plan.plan.replaced ? ' (updates the comp entry)' : ''}`),
      '',
      `Existing files are backed up as <file>${backupSuffix}. "comP: Undo Agent Registration" takes the entries back out.`,
    ].join('\n');
    const answer = await vscode.window.showInformationMessage(
      `Write comP's MCP server entry to ${changes.length === 1 ? '1 file' : `${changes.length} files`}?`,
      { modal: true, detail },
      'Write',
    );
    if (answer !== 'Write') return;
    const written: RegistrationRecord[] = [];
    const failures: string[] = [];
    for (const plan of changes) {
      try {
        written.push(await writeRegistration(plan));
      } catch (error) {
        failures.push(`${plan.target.label}: ${(error as Error).message}`);
      }
    }
    await this.options.state.update(recordsKey, [...this.records(), ...written]);
    if (written.length > 0) {
      void vscode.window.showInformationMessage(
        `comP registered with ${written.map((record) => labelOf(record.agent)).join(', ')}${unchanged.length > 0 ? ` (already with ${unchanged.map((plan) => plan.target.label).join(', ')})` : ''}. Restart the agents to pick it up.`,
      );
    }
    if (failures.length > 0) void vscode.window.showErrorMessage(`comP could not write: ${failures.join('; ')}`);
  }

  async undo(): Promise<void> {
    const records = this.records();
    if (records.length === 0) {
      void vscode.window.showInformationMessage('comP has not registered itself with any agent (or that was undone already).');
      return;
    }
    const items: RecordItem[] = records.map((record) => ({
      label: labelOf(record.agent),
      description: this.tildify(record.file),
      detail: `Written ${new Date(record.time).toLocaleString()}`,
      picked: true,
      record,
    }));
    const chosen = await vscode.window.showQuickPick(items, { canPickMany: true, title: "Take comP's entries back out of…" });
    if (!chosen || chosen.length === 0) return;
    const selected = new Set(chosen.map((item) => item.record));
    const kept: RegistrationRecord[] = records.filter((record) => !selected.has(record));
    const done: string[] = [];
    const notes: string[] = [];
    // Newest first: a later registration that replaced an earlier one is undone before it.
    for (const record of [...selected].sort((a, b) => b.time.localeCompare(a.time))) {
      const outcome = await undoRegistration(record);
      const where = `${labelOf(record.agent)} (${this.tildify(record.file)})`;
      switch (outcome.kind) {
        case 'undone':
          done.push(outcome.deleted ? `${where}, file removed` : where);
          break;
        case 'absent':
          notes.push(`${where}: the entry was already gone`);
          break;
        case 'modified':
          notes.push(`${where}: ${outcome.message}`);
          break;
        case 'error':
          notes.push(`${where}: ${outcome.message}`);
          kept.push(record); // try again later
          break;
      }
    }
    await this.options.state.update(
      recordsKey,
      records.filter((record) => kept.includes(record)),
    );
    const summary = done.length > 0 ? `comP's entries removed from ${done.join(', ')}.` : 'comP removed nothing.';
    if (notes.length > 0) void vscode.window.showWarningMessage(summary, { modal: true, detail: notes.join('\n') });
    else void vscode.window.showInformationMessage(summary);
  }

  dispose(): void {
    this.provider.dispose();
    this.previews.clear();
  }

  private get home(): string {
    return this.options.home ?? os.homedir();
  }

  private tildify(file: string): string {
    return file.startsWith(this.home + '/') ? `~${file.slice(this.home.length)}` : file;
  }

  private async pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      void vscode.window.showErrorMessage('comP: open the folder to register first.');
      return undefined;
    }
    if (folders.length === 1) return folders[0];
    return vscode.window.showWorkspaceFolderPick({ placeHolder: 'The folder comP should serve to the agents' });
  }

  // One diff editor per file: its text now (empty when new) against the text to write.
  private async preview(changes: readonly TargetPlan[]): Promise<void> {
    for (const plan of changes) {
      if (plan.plan.kind !== 'change') continue;
      const id = ++this.previewCount;
      const before = vscode.Uri.from({ scheme: previewScheme, path: plan.file, query: `before-${id}` });
      const after = vscode.Uri.from({ scheme: previewScheme, path: plan.file, query: `after-${id}` });
      this.previews.set(before.toString(), plan.before ?? '');
      this.previews.set(after.toString(), plan.plan.text);
      await vscode.commands.executeCommand('vscode.diff', before, after, `comP → ${plan.target.label}: ${this.tildify(plan.file)}`, { preview: false });
    }
  }
}
