// participant: `@comp` in VS Code's chat. `/context TASK` (also the default)
// asks the daemon for the code the task needs and shows the files as
// references the user can open, with the token savings; `/symbol NAME` shows
// a symbol's blast radius, `/diff [REF]` what uncommitted changes touch.
// When a language model is available the context is handed to it with the
// task and its answer follows; without one (or when it refuses) the context
// itself is the answer.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { abortSignalOf } from '../daemon/cancellation';
import { errorMessage } from '../daemon/DaemonClient';
import { RpcError } from '../daemon/JsonRpcConnection';
import { ErrorCodes, DiffReport, PipelineResult, PivotFile, SymbolReport } from '../daemon/protocol';

export const participantId = 'comp.chat';

/** The daemon a chat request talks to. */
export interface ChatDaemon {
  readonly folder: vscode.Uri;
  request<R>(method: string, params: unknown, signal: AbortSignal | undefined): Promise<R>;
}

export interface ContextSettings {
  readonly maxTokens: number;
  readonly compressionLevel: number;
  readonly pricePerMillion?: number;
}

export function contextSettings(): ContextSettings {
  const config = vscode.workspace.getConfiguration('comp');
  const price = config.get<number | null>('pricePerMillion');
  return {
    maxTokens: config.get<number>('defaultMaxTokens') ?? 8000,
    compressionLevel: config.get<number>('compressionLevel') ?? 2,
    ...(typeof price === 'number' && price >= 0 ? { pricePerMillion: price } : {}),
  };
}

/** run_pipeline's params for a task under these settings. */
export function pipelineParams(task: string, settings: ContextSettings): Record<string, unknown> {
  const params: Record<string, unknown> = { task, max_tokens: settings.maxTokens, compression_level: settings.compressionLevel };
  if (settings.pricePerMillion !== undefined) params.price_per_million = settings.pricePerMillion;
  return params;
}

/**
 * The context as a model reads it: the daemon's own Markdown, which is what `max_tokens`
 * bounds (headings and fences included); from an older daemon without it, `renderContext`.
 */
export function contextForModel(result: PipelineResult): string {
  return typeof result.markdown === 'string' ? result.markdown : renderContext(result);
}

/** Why a file that no evidence ranked is sent: the file it documents, is asked for by, neighbours in the graph, changed with or is the manifest of ('' for a ranked file). */
export function relationOf(file: PivotFile): string {
  if (file.documents) return `documents ${file.documents}`;
  if (file.required_by) return `required by ${file.required_by}`;
  if (file.used_by) return `used by ${file.used_by}`;
  if (file.uses) return `uses ${file.uses}`;
  if (file.changed_with) return `changed with ${file.changed_with}`;
  if (file.manifest_of) return `manifest of ${file.manifest_of}`;
  return '';
}

/** The packed files as Markdown for the chat view: a heading and a fenced block per file, with its language. */
export function renderContext(result: PipelineResult): string {
  return result.pivot_files
    .map((file) => {
      const content = file.content ?? '';
      const fence = fenceFor(content);
      const note = file.outline ? ' (outline)' : file.compression_level > 0 ? ` (compressed, level ${file.compression_level})` : '';
      const lines = file.lines ? ` lines ${file.lines}` : '';
      const relation = relationOf(file);
      return `### ${file.path}${lines}${note}${relation ? ` (${relation})` : ''}\n\n${fence}${languageOf(file.path)}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}\n`;
    })
    .join('\n');
}

/** One line on what the context cost and saved. */
export function savingsLine(result: PipelineResult): string {
  const files = result.pivot_files.length;
  let line = `**${files} file${files === 1 ? '' : 's'}, ${result.tokens_sent} tokens** (of ${result.max_tokens}); ${result.token_savings} tokens saved`;
  if (typeof result.cost_estimation === 'number') line += `, about $${result.cost_estimation.toFixed(4)}`;
  if (result.left_out.length > 0) line += `; ${result.left_out.length} more left out of the budget`;
  if (result.freshness.indexing || result.freshness.pending_changes > 0) line += ' — the index is catching up with recent changes';
  return line + '.';
}

function fenceFor(content: string): string {
  let fence = '```';
  while (content.includes(fence)) fence += '`';
  return fence;
}

function languageOf(file: string): string {
  return path.extname(file).slice(1);
}

interface ModelChoice {
  readonly model: vscode.LanguageModelChat;
}

async function chooseModel(request: vscode.ChatRequest): Promise<ModelChoice | undefined> {
  // `request.model` (VS Code 1.95+): the model the user picked in the chat view.
  const picked = (request as { readonly model?: vscode.LanguageModelChat }).model;
  if (picked) return { model: picked };
  if (typeof vscode.lm?.selectChatModels !== 'function') return undefined;
  try {
    const [model] = await vscode.lm.selectChatModels();
    return model ? { model } : undefined;
  } catch {
    return undefined;
  }
}

async function answerContext(
  daemon: ChatDaemon,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  settings: ContextSettings,
): Promise<vscode.ChatResult> {
  const task = request.prompt.trim();
  if (!task) {
    stream.markdown('Tell me the task: `@comp /context why does login fail after a password reset?`');
    return {};
  }
  stream.progress('Finding the code this task needs…');
  const result = await daemon.request<PipelineResult>('run_pipeline', pipelineParams(task, settings), abortSignalOf(token));
  for (const file of result.pivot_files) stream.reference(vscode.Uri.joinPath(daemon.folder, file.path));
  stream.markdown(savingsLine(result) + '\n\n');
  for (const file of result.pivot_files) {
    stream.markdown('- ');
    stream.anchor(vscode.Uri.joinPath(daemon.folder, file.path), file.path);
    const relation = relationOf(file);
    const kind = relation
      ? ` (${relation})`
      : file.outline
        ? ' (outline)'
        : file.compression_level > 0
          ? ' (signatures)'
          : '';
    stream.markdown(` — ${file.token_count} tokens${kind}\n`);
  }
  const choice = await chooseModel(request);
  if (choice && !token.isCancellationRequested) {
    try {
      const messages = [
        vscode.LanguageModelChatMessage.User(
          'You answer questions about a code base. comP selected the code below for the task; ' +
            'files marked skeleton or outline show signatures only. Use it, cite file paths, and say when it is not enough.\n\n' +
            contextForModel(result),
        ),
        vscode.LanguageModelChatMessage.User(task),
      ];
      const response = await choice.model.sendRequest(messages, {}, token);
      stream.markdown('\n');
      for await (const fragment of response.text) stream.markdown(fragment);
      return { metadata: { command: 'context', files: result.pivot_files.map((file) => file.path) } };
    } catch (error) {
      stream.markdown(`\n_The language model could not answer (${errorMessage(error)}); here is the context._\n\n`);
    }
  }
  stream.markdown('\n' + renderContext(result));
  return { metadata: { command: 'context', files: result.pivot_files.map((file) => file.path) } };
}

async function answerSymbol(
  daemon: ChatDaemon,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const name = request.prompt.trim();
  if (!name) {
    stream.markdown('Name the symbol: `@comp /symbol UserService.login`');
    return {};
  }
  stream.progress(`Looking up ${name}…`);
  try {
    const report = await daemon.request<SymbolReport>('get_symbol', { name }, abortSignalOf(token));
    if (report.symbol) {
      stream.reference(new vscode.Location(vscode.Uri.joinPath(daemon.folder, report.symbol.file), new vscode.Position(Math.max(0, report.symbol.line - 1), 0)));
    }
    stream.markdown(report.markdown);
    return { metadata: { command: 'symbol' } };
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== ErrorCodes.NotFound) throw error;
    const found = await daemon.request<{ symbols: { name: string; kind: string; file: string; line: number }[] }>(
      'search',
      { query: name, limit: 5 },
      abortSignalOf(token),
    );
    stream.markdown(`No symbol named \`${name}\` in the index.`);
    if (found.symbols.length > 0) {
      stream.markdown(' Similar names:\n\n' + found.symbols.map((s) => `- \`${s.name}\` (${s.kind}, ${s.file}:${s.line})`).join('\n') + '\n');
    }
    return { metadata: { command: 'symbol' } };
  }
}

async function answerDiff(
  daemon: ChatDaemon,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const base = request.prompt.trim() || 'HEAD';
  stream.progress(`Reading the changes since ${base}…`);
  const report = await daemon.request<DiffReport>('get_git_diff_context', { base }, abortSignalOf(token));
  for (const change of report.changes) stream.reference(vscode.Uri.joinPath(daemon.folder, change.path));
  stream.markdown(report.markdown);
  return { metadata: { command: 'diff' } };
}

export function createChatHandler(daemonFor: () => ChatDaemon | undefined, settings: () => ContextSettings = contextSettings): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    const daemon = daemonFor();
    if (!daemon) {
      stream.markdown('comP needs a workspace folder: open the repository first.');
      return {};
    }
    try {
      switch (request.command) {
        case 'symbol':
          return await answerSymbol(daemon, request, stream, token);
        case 'diff':
          return await answerDiff(daemon, request, stream, token);
        default:
          return await answerContext(daemon, request, stream, token, settings());
      }
    } catch (error) {
      if (token.isCancellationRequested) return {};
      const message = errorMessage(error);
      stream.markdown(`comP could not answer: ${message}`);
      return { errorDetails: { message } };
    }
  };
}

/** Registers `@comp`; undefined when this VS Code has no chat API. */
export function registerChatParticipant(daemonFor: () => ChatDaemon | undefined, extensionUri: vscode.Uri): vscode.Disposable | undefined {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return undefined;
  const participant = vscode.chat.createChatParticipant(participantId, createChatHandler(daemonFor));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'comp.png');
  return participant;
}
