// extension: activation glue. Everything the extension knows comes from the
// daemons (DaemonManager); this file only connects them to VS Code's
// surfaces: status bar, CodeLens, chat, the session-memory view, file
// events and commands.

import * as vscode from 'vscode';
import { AgentSetupManager } from './agents/AgentSetupManager';
import { ChatDaemon, contextForModel, contextSettings, pipelineParams, registerChatParticipant, savingsLine } from './chat/participant';
import { errorMessage } from './daemon/DaemonClient';
import { DaemonManager } from './daemon/DaemonManager';
import type { PipelineResult, SessionMemoryDocument } from './daemon/protocol';
import { SessionMemoryManager } from './memory/SessionMemoryManager';
import { BlastRadiusTarget, DependencyCodeLensProvider, dependentsSourceOf } from './ui/DependencyCodeLensProvider';
import { showBlastRadius } from './ui/BlastRadius';
import { StatusBar } from './ui/StatusBar';
import { FileChangeForwarder } from './workspace/FileChangeForwarder';

let manager: DaemonManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const activateStart = performance.now();
  const output = vscode.window.createOutputChannel('comP');
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? '0.0.0');
  const daemons = new DaemonManager({ extensionPath: context.extensionPath, extensionVersion: version, output });
  manager = daemons;
  context.subscriptions.push(output, daemons, new StatusBar(daemons), new FileChangeForwarder(daemons));

  const lenses = new DependencyCodeLensProvider(dependentsSourceOf(daemons));
  context.subscriptions.push(lenses, vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses));

  const memory = new SessionMemoryManager({
    clear: (folder) => daemons.request<SessionMemoryDocument>(folder.uri, 'session_memory', { clear: true }),
  });
  context.subscriptions.push(memory, vscode.window.createTreeView('comp.sessionMemory', { treeDataProvider: memory, showCollapseAll: true }));

  const agents = new AgentSetupManager({
    locate: () => daemons.locate(),
    state: context.globalState,
    globalStorage: context.globalStorageUri.fsPath,
  });
  context.subscriptions.push(agents);

  const chatDaemon = (): ChatDaemon | undefined => {
    const daemon = daemons.active();
    if (!daemon) return undefined;
    return { folder: daemon.folder.uri, request: (method, params, signal) => daemon.client.request(method, params, { signal }) };
  };
  const participant = registerChatParticipant(chatDaemon, context.extensionUri);
  if (participant) context.subscriptions.push(participant);

  const command = (id: string, run: (...args: never[]) => unknown): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          await run(...args);
        } catch (error) {
          void vscode.window.showErrorMessage(`comP: ${errorMessage(error)}`);
        }
      }),
    );
  };
  command('comp.showOutput', () => output.show(true));
  command('comp.restartDaemon', () => daemons.restartAll());
  command('comp.reindex', () => Promise.all(daemons.all().map((daemon) => daemon.client.request('reindex', {}))));
  command('comp.setupAgents', () => agents.setup());
  command('comp.undoAgentSetup', () => agents.undo());
  command('comp.refreshSessionMemory', () => memory.refresh());
  command('comp.clearSessionMemory', async () => {
    const answer = await vscode.window.showWarningMessage('Clear comP\'s session memory of this workspace?', { modal: true }, 'Clear');
    if (answer === 'Clear') await memory.clear();
  });
  command('comp.showBlastRadius', (target: BlastRadiusTarget) => showBlastRadius(daemons, target));
  command('comp.copyContext', () => copyContext(daemons));

  daemons.start();
  // One line per activation, for diagnostics and the end-to-end test (extension/e2e), which reads it.
  const rssMb = (process.memoryUsage().rss / 1048576).toFixed(1);
  output.appendLine(
    `comP ${version}: activated in ${(performance.now() - activateStart).toFixed(1)} ms at ${new Date().toISOString()} ` +
      `(extension host pid ${process.pid}, rss ${rssMb} MB)`,
  );
}

// "comP: Copy Context for Task…": the packed context on the clipboard, for any chat or agent.
async function copyContext(daemons: DaemonManager): Promise<void> {
  const task = await vscode.window.showInputBox({ title: 'comP: the task (issue text, question or stack trace)', ignoreFocusOut: true });
  if (!task?.trim()) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'comP: finding the code this task needs', cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return daemons.request<PipelineResult>(undefined, 'run_pipeline', pipelineParams(task, contextSettings()), { signal: controller.signal });
    },
  );
  await vscode.env.clipboard.writeText(`Task: ${task}\n\n${contextForModel(result)}`);
  void vscode.window.showInformationMessage(`comP: context copied. ${savingsLine(result).replace(/\*\*/g, '')}`);
}

export async function deactivate(): Promise<void> {
  const stopping = manager;
  manager = undefined;
  await stopping?.stopAll();
}
