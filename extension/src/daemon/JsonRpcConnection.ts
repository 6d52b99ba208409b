// JsonRpcConnection: the client side of JSON-RPC 2.0 over a pair of byte
// streams framed as one JSON message per line (what `comp serve` speaks on
// stdio). It knows nothing of processes or VS Code.
//
// Guarantees: every request's promise settles exactly once: with the result,
// an RpcError for an error answer, a RequestTimeoutError, a
// RequestCancelledError (its AbortSignal fired), or a ConnectionClosedError
// when the connection closes first. A timeout or cancellation tells the
// daemon with `$/cancelRequest` and drops the late answer. Answers may come
// in any order and chunks may split or join lines anywhere, even inside a
// UTF-8 character.

import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { ErrorCodes } from './protocol';
import { Disposable, Listeners } from './Listeners';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export class ConnectionClosedError extends Error {
  constructor(message = 'the connection to the comP daemon closed') {
    super(message);
    this.name = 'ConnectionClosedError';
  }
}

export class RequestTimeoutError extends Error {
  constructor(method: string, timeoutMs: number) {
    super(`comP daemon did not answer ${method} within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

export class RequestCancelledError extends RpcError {
  constructor(method: string) {
    super(ErrorCodes.RequestCancelled, `${method} was cancelled`);
    this.name = 'RequestCancelledError';
  }
}

export interface RequestOptions {
  /** Overrides the connection's default timeout; 0 waits forever. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface ConnectionOptions {
  /** Default request timeout in ms (0: none). */
  readonly requestTimeoutMs?: number;
  /** Where protocol anomalies (unparsable lines, unknown ids) are reported. */
  readonly log?: (message: string) => void;
}

/** Splits a byte stream into lines (LF or CRLF); keeps a partial line until its end arrives. */
export class LineFramer {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  /** The complete, non-empty lines that `chunk` finishes. */
  push(chunk: Buffer | string): string[] {
    const text = this.partial + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    return parts.map(stripCarriageReturn).filter((line) => line.trim().length > 0);
  }

  /** The last line when the stream ended without a newline. */
  end(): string[] {
    const rest = (this.partial + this.decoder.end()).trim();
    this.partial = '';
    return rest.length > 0 ? [rest] : [];
  }
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

interface Pending {
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class JsonRpcConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, Listeners<unknown>>();
  private readonly closed = new Listeners<Error>();
  private readonly framer = new LineFramer();
  private closeError: Error | undefined;
  private readonly detach: () => void;

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly options: ConnectionOptions = {},
  ) {
    const onData = (chunk: Buffer | string): void => {
      for (const line of this.framer.push(chunk)) this.handleLine(line);
    };
    const onEnd = (): void => {
      for (const line of this.framer.end()) this.handleLine(line);
      this.close(new ConnectionClosedError('the comP daemon closed its output'));
    };
    const onInputError = (error: Error): void => this.close(new ConnectionClosedError(`reading from the comP daemon failed: ${error.message}`));
    const onOutputError = (error: Error): void => this.close(new ConnectionClosedError(`writing to the comP daemon failed: ${error.message}`));
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onInputError);
    output.on('error', onOutputError);
    this.detach = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onInputError);
      output.off('error', onOutputError);
      // Late errors of a dead pipe must not become uncaught exceptions.
      input.on('error', ignore);
      output.on('error', ignore);
    };
  }

  get isClosed(): boolean {
    return this.closeError !== undefined;
  }

  /** Fires once, with the reason, when the connection closes. */
  get onClose(): (listener: (error: Error) => void) => Disposable {
    return this.closed.event;
  }

  /** Requests currently waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  request<R>(method: string, params?: unknown, options: RequestOptions = {}): Promise<R> {
    if (this.closeError) return Promise.reject(this.closeError);
    if (options.signal?.aborted) return Promise.reject(new RequestCancelledError(method));
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => this.abandon(id, new RequestCancelledError(method));
      const finish = (): void => {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        method,
        resolve: (value) => {
          finish();
          resolve(value as R);
        },
        reject: (error) => {
          finish();
          reject(error);
        },
      });
      const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? 0;
      if (timeoutMs > 0) {
        timer = setTimeout(() => this.abandon(id, new RequestTimeoutError(method, timeoutMs)), timeoutMs);
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const message: JsonObject = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      this.send(message);
    });
  }

  notify(method: string, params?: unknown): void {
    if (this.closeError) return;
    const message: JsonObject = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(message);
  }

  onNotification(method: string, handler: (params: unknown) => void): Disposable {
    let listeners = this.handlers.get(method);
    if (!listeners) {
      listeners = new Listeners<unknown>();
      this.handlers.set(method, listeners);
    }
    return listeners.event(handler);
  }

  /** Rejects every pending request with `error` and stops reading; idempotent. */
  close(error: Error = new ConnectionClosedError()): void {
    if (this.closeError) return;
    this.closeError = error;
    this.detach();
    for (const pending of [...this.pending.values()]) pending.reject(error);
    this.pending.clear();
    this.closed.fire(error);
    this.closed.clear();
  }

  // Settles a request with `error` and asks the daemon to stop working on it;
  // its answer, if one still comes, is dropped.
  private abandon(id: number, error: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    pending.reject(error);
    this.notify('$/cancelRequest', { id });
  }

  private send(message: JsonObject): void {
    if (!this.output.writable) {
      this.close(new ConnectionClosedError('the comP daemon no longer reads its input'));
      return;
    }
    this.output.write(JSON.stringify(message) + '\n');
  }

  private handleLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.log(`unparsable line from the daemon: ${line.slice(0, 200)}`);
      return;
    }
    if (Array.isArray(message)) {
      for (const item of message) this.handleMessage(item);
    } else {
      this.handleMessage(message);
    }
  }

  private handleMessage(message: unknown): void {
    if (!isObject(message)) {
      this.log('a message from the daemon is not an object');
      return;
    }
    const method = message.method;
    if (typeof method === 'string') {
      if ('id' in message && message.id !== undefined) {
        // The daemon sends no requests today; answer so that it never waits.
        this.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCodes.MethodNotFound, message: `the client has no method ${method}` } });
        return;
      }
      this.handlers.get(method)?.fire(message.params);
      return;
    }
    const id = message.id;
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!pending) {
      if (isObject(message.error) && id === null) this.log(`daemon error: ${String(message.error.message)}`);
      else if (typeof id !== 'number' || id >= this.nextId) this.log(`an answer for unknown request id ${JSON.stringify(id)}`);
      return; // a late answer to an abandoned request
    }
    if (isObject(message.error)) {
      const code = typeof message.error.code === 'number' ? message.error.code : ErrorCodes.MethodNotFound;
      const text = typeof message.error.message === 'string' ? message.error.message : 'unknown error';
      pending.reject(code === ErrorCodes.RequestCancelled ? new RequestCancelledError(pending.method) : new RpcError(code, text, message.error.data));
    } else {
      pending.resolve(message.result ?? null);
    }
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}

function ignore(): void {}
