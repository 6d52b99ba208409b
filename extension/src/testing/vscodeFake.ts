// vscodeFake: the part of the `vscode` API the extension uses, as a plain
// Node module for tests (vscodeHook makes `require('vscode')` load it). It
// records what the extension shows (messages, quick picks, status bar,
// output) and lets tests answer prompts and fire editor events through
// `testState`. Behaviour follows VS Code's where the extension relies on it.

import * as nodePath from 'node:path';

// ---- basic types ----

export interface Disposable {
  dispose(): void;
}

export class EventEmitter<T> {
  private listeners = new Set<(value: T) => void>();
  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(fsPath: string): Uri {
    return new Uri('file', '', nodePath.resolve(fsPath), '', '');
  }
  static parse(value: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!match) throw new Error(`fake Uri.parse: ${value}`);
    return new Uri(match[1] as string, match[2] ?? '', decodeURIComponent(match[3] ?? ''), match[4] ?? '', match[5] ?? '');
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, base.authority, nodePath.posix.join(base.path, ...segments), '', '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { path?: string; query?: string }): Uri {
    return new Uri(this.scheme, this.authority, change.path ?? this.path, change.query ?? this.query, this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number | Position, startCharacter: number | Position, endLine?: number, endCharacter?: number) {
    if (startLine instanceof Position && startCharacter instanceof Position) {
      this.start = startLine;
      this.end = startCharacter;
    } else {
      this.start = new Position(startLine as number, startCharacter as number);
      this.end = new Position(endLine ?? (startLine as number), endCharacter ?? (startCharacter as number));
    }
  }
}

export class Location {
  readonly range: Range;
  constructor(
    readonly uri: Uri,
    where: Position | Range,
  ) {
    this.range = where instanceof Range ? where : new Range(where, where);
  }
}

export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: { title: string; command: string; tooltip?: string; arguments?: unknown[] },
  ) {}
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  label?: string;
  resourceUri?: Uri;
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  constructor(
    labelOrUri: string | Uri,
    readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {
    if (typeof labelOrUri === 'string') this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
  }
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(readonly value: string = '') {}
}

export class RelativePattern {
  constructor(
    readonly base: { uri: Uri } | Uri,
    readonly pattern: string,
  ) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: this.emitter.event,
  };
  cancel(): void {
    (this.token as { isCancellationRequested: boolean }).isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

// ---- test state ----

export interface WorkspaceFolder {
  readonly uri: Uri;
  readonly name: string;
  readonly index: number;
}

export interface ShownMessage {
  readonly level: 'info' | 'warning' | 'error';
  readonly message: string;
  readonly detail?: string;
  readonly items: string[];
}

export class FakeStatusBarItem {
  text = '';
  tooltip: unknown;
  command: unknown;
  name = '';
  backgroundColor: unknown;
  visible = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

export class FakeOutputChannel {
  readonly lines: string[] = [];
  constructor(readonly name: string) {}
  appendLine(line: string): void {
    this.lines.push(line);
  }
  append(text: string): void {
    this.lines.push(text);
  }
  show(): void {}
  clear(): void {
    this.lines.length = 0;
  }
  dispose(): void {}
}

export class FakeFileSystemWatcher {
  readonly created = new EventEmitter<Uri>();
  readonly changed = new EventEmitter<Uri>();
  readonly deleted = new EventEmitter<Uri>();
  readonly onDidCreate = this.created.event;
  readonly onDidChange = this.changed.event;
  readonly onDidDelete = this.deleted.event;
  disposed = false;
  constructor(readonly pattern: string | RelativePattern) {}
  dispose(): void {
    this.disposed = true;
  }
}

export interface FakeQuickPickItem {
  label: string;
  picked?: boolean;
}

export const testState = {
  folders: [] as WorkspaceFolder[],
  config: new Map<string, unknown>(),
  messages: [] as ShownMessage[],
  /** Answers a message with one of its items (default: none, like pressing Escape). */
  answerMessage: (_message: ShownMessage): string | undefined => undefined,
  /** Answers a quick pick (default: the picked items for canPickMany, else the first). */
  answerQuickPick: (items: FakeQuickPickItem[], options: { canPickMany?: boolean }): unknown =>
    options.canPickMany ? items.filter((item) => item.picked) : items[0],
  executed: [] as { command: string; args: unknown[] }[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  statusItems: [] as FakeStatusBarItem[],
  outputs: [] as FakeOutputChannel[],
  watchers: [] as FakeFileSystemWatcher[],
  contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
  clipboard: '',
  chatModels: [] as unknown[],
  events: {
    folders: new EventEmitter<{ added: WorkspaceFolder[]; removed: WorkspaceFolder[] }>(),
    configuration: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
    saved: new EventEmitter<{ uri: Uri }>(),
    textChanged: new EventEmitter<{ document: { uri: Uri }; contentChanges: unknown[] }>(),
  },
  setFolders(paths: string[]): WorkspaceFolder[] {
    this.folders = paths.map((fsPath, index) => ({ uri: Uri.file(fsPath), name: nodePath.basename(fsPath), index }));
    return this.folders;
  },
  setConfig(key: string, value: unknown): void {
    this.config.set(key, value);
    this.events.configuration.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  },
  reset(): void {
    this.folders = [];
    this.config.clear();
    this.messages.length = 0;
    this.answerMessage = () => undefined;
    this.answerQuickPick = (items, options) => (options.canPickMany ? items.filter((item) => item.picked) : items[0]);
    this.executed.length = 0;
    this.commands.clear();
    this.statusItems.length = 0;
    this.outputs.length = 0;
    this.watchers.length = 0;
    this.contentProviders.clear();
    this.clipboard = '';
    this.chatModels = [];
  },
};

// ---- namespaces ----

function show(level: ShownMessage['level']) {
  return async (message: string, ...rest: unknown[]): Promise<string | undefined> => {
    let detail: string | undefined;
    const items: string[] = [];
    for (const item of rest) {
      if (typeof item === 'string') items.push(item);
      else if (item && typeof item === 'object' && 'detail' in item) detail = String((item as { detail?: unknown }).detail);
    }
    const shown: ShownMessage = { level, message, detail, items };
    testState.messages.push(shown);
    return testState.answerMessage(shown);
  };
}

export const window = {
  get activeTextEditor(): undefined {
    return undefined;
  },
  createOutputChannel(name: string): FakeOutputChannel {
    const channel = new FakeOutputChannel(name);
    testState.outputs.push(channel);
    return channel;
  },
  createStatusBarItem(): FakeStatusBarItem {
    const item = new FakeStatusBarItem();
    testState.statusItems.push(item);
    return item;
  },
  showInformationMessage: show('info'),
  showWarningMessage: show('warning'),
  showErrorMessage: show('error'),
  async showQuickPick(items: FakeQuickPickItem[] | Promise<FakeQuickPickItem[]>, options: { canPickMany?: boolean } = {}): Promise<unknown> {
    return testState.answerQuickPick(await items, options);
  },
  async showWorkspaceFolderPick(): Promise<WorkspaceFolder | undefined> {
    return testState.folders[0];
  },
  async showInputBox(): Promise<string | undefined> {
    return undefined;
  },
  async withProgress<R>(_options: unknown, task: (progress: { report(): void }, token: CancellationTokenSource['token']) => Promise<R>): Promise<R> {
    return task({ report: () => {} }, new CancellationTokenSource().token);
  },
  async showTextDocument(uri: Uri, options?: unknown): Promise<void> {
    testState.executed.push({ command: '(showTextDocument)', args: [uri, options] });
  },
  createTreeView(id: string, options: unknown): Disposable & { id: string; options: unknown } {
    return { id, options, dispose: () => {} };
  },
};

export const workspace = {
  get workspaceFolders(): WorkspaceFolder[] | undefined {
    return testState.folders.length > 0 ? testState.folders : undefined;
  },
  getWorkspaceFolder(uri: Uri): WorkspaceFolder | undefined {
    return testState.folders
      .filter((folder) => uri.scheme === folder.uri.scheme && (uri.path === folder.uri.path || uri.path.startsWith(folder.uri.path + '/')))
      .sort((a, b) => b.uri.path.length - a.uri.path.length)[0];
  },
  getConfiguration(section?: string) {
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        const full = section ? `${section}.${key}` : key;
        return testState.config.has(full) ? (testState.config.get(full) as T) : fallback;
      },
    };
  },
  onDidChangeWorkspaceFolders: testState.events.folders.event,
  onDidChangeConfiguration: testState.events.configuration.event,
  onDidSaveTextDocument: testState.events.saved.event,
  onDidChangeTextDocument: testState.events.textChanged.event,
  createFileSystemWatcher(pattern: string | RelativePattern): FakeFileSystemWatcher {
    const watcher = new FakeFileSystemWatcher(pattern);
    testState.watchers.push(watcher);
    return watcher;
  },
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }): Disposable {
    testState.contentProviders.set(scheme, provider);
    return { dispose: () => testState.contentProviders.delete(scheme) };
  },
};

export const commands = {
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    testState.executed.push({ command, args });
    return testState.commands.get(command)?.(...args);
  },
  registerCommand(command: string, run: (...args: unknown[]) => unknown): Disposable {
    testState.commands.set(command, run);
    return { dispose: () => testState.commands.delete(command) };
  },
};

export const languages = {
  registerCodeLensProvider(): Disposable {
    return { dispose: () => {} };
  },
};

export const env = {
  clipboard: {
    async writeText(text: string): Promise<void> {
      testState.clipboard = text;
    },
  },
};

export class LanguageModelChatMessage {
  private constructor(
    readonly role: 'user' | 'assistant',
    readonly content: string,
  ) {}
  static User(content: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage('user', content);
  }
  static Assistant(content: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage('assistant', content);
  }
}

export const lm = {
  async selectChatModels(): Promise<unknown[]> {
    return testState.chatModels;
  },
};

export const chat = {
  createChatParticipant(id: string, handler: unknown): Disposable & { id: string; handler: unknown; iconPath?: unknown } {
    return { id, handler, dispose: () => {} };
  },
};
