// DaemonClient: one `comp serve` process for one workspace folder, kept
// alive. It starts the process, says `initialize`, follows `index_progress`,
// restarts the process with exponential backoff when it exits (giving up
// after maxRestarts consecutive failures) and shuts it down cleanly
// (`shutdown`, `exit`, then SIGKILL after a grace period). Independent of
// VS Code: DaemonManager is the glue.
//
// Requests made while the daemon (re)starts wait for it up to `waitMs`;
// requests in flight when it dies are rejected with ConnectionClosedError.

import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Backoff, BackoffOptions, defaultBackoff } from './Backoff';
import { ConnectionClosedError, JsonRpcConnection, LineFramer, RequestOptions } from './JsonRpcConnection';
import { Listeners } from './Listeners';
import type { IndexState, InitializeResult } from './protocol';

export type DaemonPhase = 'starting' | 'running' | 'restarting' | 'failed' | 'stopped';

export interface DaemonStatus {
  readonly phase: DaemonPhase;
  /** The last index state the daemon reported (initialize or index_progress). */
  readonly index?: IndexState;
  /** Why the daemon last exited or could not start. */
  readonly error?: string;
  /** With phase 'restarting': the delay before the next start. */
  readonly restartInMs?: number;
  readonly pid?: number;
}

export type DaemonLaunch =
  | { readonly ok: true; readonly command: string; readonly args: readonly string[] }
  | { readonly ok: false; readonly error: string };

export interface DaemonClientOptions {
  readonly folder: string;
  /** Called before each start, so that changed settings apply to restarts. */
  readonly launch: () => DaemonLaunch;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly requestTimeoutMs?: number;
  readonly initializeTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
  /** Consecutive failed starts after which the client gives up (phase 'failed'). */
  readonly maxRestarts?: number;
  /** How long `stop` waits for the process to exit before killing it. */
  readonly shutdownGraceMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

export interface DaemonRequestOptions extends RequestOptions {
  /** How long to wait for a daemon that is (re)starting; 0 fails at once. Default: the request timeout. */
  readonly waitMs?: number;
}

export class DaemonUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonUnavailableError';
  }
}

interface Waiter {
  resolve(connection: JsonRpcConnection): void;
  reject(error: Error): void;
}

export class DaemonClient {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private connection: JsonRpcConnection | undefined;
  private generation = 0;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private readonly waiters = new Set<Waiter>();
  private current: DaemonStatus = { phase: 'stopped' };
  private lastStartError: string | undefined;
  private initialize: InitializeResult | undefined;

  private readonly statusListeners = new Listeners<DaemonStatus>();
  private readonly progressListeners = new Listeners<IndexState>();
  private readonly indexChangedListeners = new Listeners<IndexState>();
  private readonly stderrListeners = new Listeners<string>();

  /** Every change of phase or index state. */
  readonly onStatus = this.statusListeners.event;
  readonly onIndexProgress = this.progressListeners.event;
  /** After each start and each finished index run: what the index says may have changed. */
  readonly onIndexChanged = this.indexChangedListeners.event;
  /** The daemon's stderr, line by line, and the client's own notes. */
  readonly onLog = this.stderrListeners.event;

  constructor(private readonly options: DaemonClientOptions) {
    this.backoff = new Backoff(options.backoff ?? defaultBackoff);
  }

  get folder(): string {
    return this.options.folder;
  }

  get status(): DaemonStatus {
    return this.current;
  }

  /** The answer to the last successful `initialize`. */
  get server(): InitializeResult | undefined {
    return this.initialize;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the daemon unless it runs or is starting. */
  start(): void {
    if (this.current.phase === 'running' || this.current.phase === 'starting') return;
    this.stopping = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.spawnProcess();
  }

  /** Stops the process (if any) and starts afresh with the backoff reset. */
  async restart(): Promise<void> {
    await this.stop();
    this.backoff.reset();
    this.start();
  }

  async request<R>(method: string, params?: unknown, options: DaemonRequestOptions = {}): Promise<R> {
    const waitMs = options.waitMs ?? options.timeoutMs ?? this.options.requestTimeoutMs ?? 180_000;
    const connection = await this.whenRunning(waitMs);
    return connection.request<R>(method, params, { timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? 180_000, signal: options.signal });
  }

  /** Sends a notification if the daemon runs; dropped otherwise (a new daemon re-reads the workspace anyway). */
  notify(method: string, params?: unknown): boolean {
    if (this.current.phase !== 'running' || !this.connection) return false;
    this.connection.notify(method, params);
    return true;
  }

  /** `shutdown`, `exit`, then SIGKILL after the grace period; no restart follows. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    const connection = this.connection;
    const exited = this.exited;
    if (!child) {
      this.setStatus({ phase: 'stopped', index: this.current.index });
      return;
    }
    if (connection && !connection.isClosed && this.current.phase === 'running') {
      try {
        await connection.request('shutdown', undefined, { timeoutMs: 2000 });
      } catch {
        // A daemon that cannot say goodbye is killed below.
      }
      connection.notify('exit');
    }
    child.stdin?.end();
    const grace = this.options.shutdownGraceMs ?? 3000;
    if (!(await settlesWithin(exited, grace))) {
      this.log(`the daemon did not exit within ${grace} ms: killing it`);
      child.kill('SIGKILL');
      await settlesWithin(exited, 5000);
    }
    // The exit handler has run for this generation (or the process is unkillable).
    if (this.child === child) this.forget();
    this.setStatus({ phase: 'stopped', index: this.current.index });
  }

  private spawnProcess(): void {
    const generation = ++this.generation;
    const launch = this.options.launch();
    if (!launch.ok) {
      this.setStatus({ phase: 'failed', error: launch.error });
      return;
    }
    this.setStatus({ phase: 'starting', index: this.current.index, error: this.current.error });
    this.log(`starting ${launch.command} ${launch.args.join(' ')}`);
    const startedAt = Date.now();
    if (!isDirectory(this.options.folder)) {
      // spawn would report this as ENOENT of the binary.
      this.onExited(generation, startedAt, `could not be started: the folder ${this.options.folder} does not exist`);
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(launch.command, [...launch.args], {
        cwd: this.options.folder,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: this.options.env ?? process.env,
        windowsHide: true,
      });
    } catch (error) {
      this.onExited(generation, startedAt, `could not be started: ${errorMessage(error)}`);
      return;
    }
    const stdin = child.stdin;
    const stdout = child.stdout;
    if (!stdin || !stdout) throw new Error('spawn gave no stdio pipes');
    const connection = new JsonRpcConnection(stdout, stdin, {
      requestTimeoutMs: this.options.requestTimeoutMs ?? 180_000,
      log: (message) => this.log(message),
    });
    this.child = child;
    this.connection = connection;
    const stderrFramer = new LineFramer();
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of stderrFramer.push(chunk)) this.stderrListeners.fire(line);
    });
    connection.onNotification('index_progress', (params) => this.onProgress(generation, params));

    let ended = false;
    let resolveExited: () => void = () => {};
    this.exited = new Promise<void>((resolve) => (resolveExited = resolve));
    const end = (reason: string): void => {
      if (ended) return;
      ended = true;
      connection.close(new ConnectionClosedError(`the comP daemon ${reason}`));
      resolveExited();
      this.onExited(generation, startedAt, reason);
    };
    child.on('error', (error) => {
      // Also emitted when a kill fails; only a process that never started has ended.
      if (child.pid === undefined) end(`could not be started: ${error.message}`);
      else this.log(`daemon process error: ${error.message}`);
    });
    child.on('close', (code, signal) => end(signal ? `was killed (${signal})` : `exited with code ${code ?? 'unknown'}`));

    void this.handshake(generation, connection, child);
  }

  private async handshake(generation: number, connection: JsonRpcConnection, child: ChildProcess): Promise<void> {
    try {
      const result = await connection.request<InitializeResult>(
        'initialize',
        { root: this.options.folder, clientInfo: this.options.clientInfo },
        { timeoutMs: this.options.initializeTimeoutMs ?? 30_000 },
      );
      if (generation !== this.generation || this.stopping) return;
      this.initialize = result;
      this.lastStartError = undefined;
      connection.notify('initialized', {});
      this.setStatus({ phase: 'running', index: result.index, pid: child.pid });
      this.indexChangedListeners.fire(result.index);
    } catch (error) {
      if (generation !== this.generation || connection.isClosed) return;
      this.lastStartError = `initialize failed: ${errorMessage(error)}`;
      this.log(this.lastStartError);
      child.kill('SIGKILL'); // the exit handler restarts it
    }
  }

  private onExited(generation: number, startedAt: number, reason: string): void {
    if (generation !== this.generation) return;
    this.forget();
    const error = this.lastStartError ? `${this.lastStartError} (${reason})` : `the daemon ${reason}`;
    this.lastStartError = undefined;
    this.log(error);
    if (this.stopping) {
      this.setStatus({ phase: 'stopped', index: this.current.index });
      return;
    }
    const delay = this.backoff.failure(Date.now() - startedAt);
    const maxRestarts = this.options.maxRestarts ?? 8;
    if (this.backoff.attempts > maxRestarts) {
      this.setStatus({ phase: 'failed', error: `${error}; gave up after ${maxRestarts} restarts` });
      return;
    }
    this.log(`restarting in ${delay} ms`);
    this.setStatus({ phase: 'restarting', error, restartInMs: delay, index: this.current.index });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopping) this.spawnProcess();
    }, delay);
  }

  private onProgress(generation: number, params: unknown): void {
    if (generation !== this.generation || !isIndexState(params)) return;
    const before = this.current.index;
    const wasBusy = before !== undefined && (before.indexing || before.waiting_for_writer);
    this.setStatus({ ...this.current, index: params });
    this.progressListeners.fire(params);
    if (wasBusy && !params.indexing && !params.waiting_for_writer) this.indexChangedListeners.fire(params);
  }

  private forget(): void {
    this.child = undefined;
    this.connection = undefined;
  }

  private whenRunning(waitMs: number): Promise<JsonRpcConnection> {
    if (this.current.phase === 'running' && this.connection) return Promise.resolve(this.connection);
    if (this.current.phase === 'failed' || this.current.phase === 'stopped' || waitMs <= 0) {
      return Promise.reject(new DaemonUnavailableError(this.unavailableReason()));
    }
    return new Promise<JsonRpcConnection>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new DaemonUnavailableError(`${this.unavailableReason()} (waited ${waitMs} ms)`));
      }, waitMs);
      const waiter: Waiter = {
        resolve: (connection) => {
          clearTimeout(timer);
          resolve(connection);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.waiters.add(waiter);
    });
  }

  private unavailableReason(): string {
    switch (this.current.phase) {
      case 'starting':
        return 'the comP daemon is starting';
      case 'restarting':
        return `the comP daemon is restarting (${this.current.error ?? 'it exited'})`;
      case 'failed':
        return `the comP daemon is not running: ${this.current.error ?? 'it failed'}`;
      default:
        return 'the comP daemon is not running';
    }
  }

  private setStatus(status: DaemonStatus): void {
    this.current = status;
    if (status.phase === 'running' && this.connection) {
      const connection = this.connection;
      for (const waiter of [...this.waiters]) waiter.resolve(connection);
      this.waiters.clear();
    } else if (status.phase === 'failed' || status.phase === 'stopped') {
      const error = new DaemonUnavailableError(this.unavailableReason());
      for (const waiter of [...this.waiters]) waiter.reject(error);
      this.waiters.clear();
    }
    this.statusListeners.fire(status);
  }

  private log(message: string): void {
    this.stderrListeners.fire(`[comP extension] ${message}`);
  }
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function isIndexState(value: unknown): value is IndexState {
  return typeof value === 'object' && value !== null && typeof (value as { ready?: unknown }).ready === 'boolean';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

