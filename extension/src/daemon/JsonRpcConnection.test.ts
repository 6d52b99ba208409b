// Faults the connection must survive: lines split anywhere (inside a UTF-8
// character too), several messages in one chunk, answers out of order,
// garbage lines, requests from the server, timeouts, cancellation and a
// peer that goes away with requests in flight.

import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import {
  ConnectionClosedError,
  JsonRpcConnection,
  LineFramer,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
} from './JsonRpcConnection';

interface Peer {
  connection: JsonRpcConnection;
  /** Bytes from the daemon to the client. */
  toClient: PassThrough;
  /** Messages the client sent, parsed. */
  sent: Record<string, unknown>[];
  logs: string[];
  /** Resolves when the client has sent `count` messages. */
  waitSent(count: number): Promise<void>;
}

function peer(timeoutMs = 0): Peer {
  const toClient = new PassThrough();
  const toDaemon = new PassThrough();
  const sent: Record<string, unknown>[] = [];
  const logs: string[] = [];
  const framer = new LineFramer();
  const waiters: { count: number; resolve: () => void }[] = [];
  toDaemon.on('data', (chunk: Buffer) => {
    for (const line of framer.push(chunk)) sent.push(JSON.parse(line) as Record<string, unknown>);
    for (const waiter of waiters.filter((w) => sent.length >= w.count)) waiter.resolve();
  });
  const connection = new JsonRpcConnection(toClient, toDaemon, { requestTimeoutMs: timeoutMs, log: (line) => logs.push(line) });
  return {
    connection,
    toClient,
    sent,
    logs,
    waitSent: (count) => (sent.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
  };
}

const answer = (id: number, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n';

describe('LineFramer', () => {
  it('keeps a partial line until its end arrives', () => {
    const framer = new LineFramer();
    assert.deepEqual(framer.push('{"a":'), []);
    assert.deepEqual(framer.push('1}\n{"b"'), ['{"a":1}']);
    assert.deepEqual(framer.push(':2}\r\n\n'), ['{"b":2}']);
    assert.deepEqual(framer.end(), []);
  });

  it('joins a UTF-8 character split between chunks', () => {
    const framer = new LineFramer();
    const bytes = Buffer.from('{"s":"héllo €"}\n', 'utf8');
    const split = bytes.indexOf(0xe2) + 1; // inside the euro sign
    assert.deepEqual(framer.push(bytes.subarray(0, split)), []);
    assert.deepEqual(framer.push(bytes.subarray(split)), ['{"s":"héllo €"}']);
  });

  it('returns the last line of a stream without a final newline at its end', () => {
    const framer = new LineFramer();
    assert.deepEqual(framer.push('{"x":1}'), []);
    assert.deepEqual(framer.end(), ['{"x":1}']);
  });
});

describe('JsonRpcConnection', () => {
  it('frames each request as one line with jsonrpc, id, method and params', async () => {
    const p = peer();
    const result = p.connection.request('search', { query: 'x' });
    await p.waitSent(1);
    assert.deepEqual(p.sent[0], { jsonrpc: '2.0', id: 1, method: 'search', params: { query: 'x' } });
    p.toClient.write(answer(1, { ok: true }));
    assert.deepEqual(await result, { ok: true });
  });

  it('matches answers that come out of order, split over chunks and several per chunk', async () => {
    const p = peer();
    const first = p.connection.request<string>('a');
    const second = p.connection.request<string>('b');
    const third = p.connection.request<string>('c');
    await p.waitSent(3);
    const stream = answer(3, 'three') + answer(1, 'one') + answer(2, 'two');
    // Byte by byte in odd-sized chunks: every split point is exercised somewhere.
    for (let i = 0; i < stream.length; i += 7) p.toClient.write(stream.slice(i, i + 7));
    assert.deepEqual(await Promise.all([first, second, third]), ['one', 'two', 'three']);
  });

  it('turns error answers into RpcError with the code and data', async () => {
    const p = peer();
    const result = p.connection.request('get_symbol', { name: 'nope' });
    await p.waitSent(1);
    p.toClient.write(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32004, message: 'no symbol', data: { x: 1 } } }) + '\n');
    await assert.rejects(result, (error: unknown) => error instanceof RpcError && error.code === -32004 && error.message === 'no symbol');
  });

  it('dispatches notifications, ignores garbage and answers server requests with method-not-found', async () => {
    const p = peer();
    const progress: unknown[] = [];
    p.connection.onNotification('index_progress', (params) => progress.push(params));
    p.toClient.write('not json\n[1,\n{"jsonrpc":"2.0","method":"index_progress","params":{"done":1}}\n');
    p.toClient.write('{"jsonrpc":"2.0","id":"s1","method":"workspace/configuration","params":{}}\n');
    await p.waitSent(1);
    assert.deepEqual(progress, [{ done: 1 }]);
    assert.equal(p.sent[0]?.id, 's1');
    assert.equal((p.sent[0]?.error as { code: number }).code, -32601);
    assert.ok(p.logs.some((line) => line.includes('unparsable')));
  });

  it('handles a batch (array) of answers', async () => {
    const p = peer();
    const a = p.connection.request('a');
    const b = p.connection.request('b');
    await p.waitSent(2);
    p.toClient.write(JSON.stringify([{ jsonrpc: '2.0', id: 2, result: 'B' }, { jsonrpc: '2.0', id: 1, result: 'A' }]) + '\n');
    assert.deepEqual(await Promise.all([a, b]), ['A', 'B']);
  });

  it('times out, tells the daemon with $/cancelRequest and drops the late answer', async () => {
    const p = peer(30);
    const result = p.connection.request('run_pipeline', { task: 't' });
    await assert.rejects(result, RequestTimeoutError);
    await p.waitSent(2);
    assert.deepEqual(p.sent[1], { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } });
    p.toClient.write(answer(1, 'late'));
    assert.equal(p.connection.pendingCount, 0);
  });

  it('cancels through an AbortSignal', async () => {
    const p = peer();
    const controller = new AbortController();
    const result = p.connection.request('run_pipeline', { task: 't' }, { signal: controller.signal });
    await p.waitSent(1);
    controller.abort();
    await assert.rejects(result, RequestCancelledError);
    await p.waitSent(2);
    assert.equal(p.sent[1]?.method, '$/cancelRequest');
    // Already aborted: nothing is sent at all.
    await assert.rejects(p.connection.request('x', {}, { signal: controller.signal }), RequestCancelledError);
    assert.equal(p.sent.length, 2);
  });

  it('maps a -32800 answer to RequestCancelledError', async () => {
    const p = peer();
    const result = p.connection.request('run_pipeline');
    await p.waitSent(1);
    p.toClient.write(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32800, message: 'cancelled' } }) + '\n');
    await assert.rejects(result, RequestCancelledError);
  });

  it('rejects every pending request when the daemon closes its output mid-request', async () => {
    const p = peer();
    const closed: Error[] = [];
    p.connection.onClose((error) => closed.push(error));
    const a = p.connection.request('run_pipeline', { task: 'a' });
    const b = p.connection.request('get_symbol', { name: 'b' });
    await p.waitSent(2);
    p.toClient.write('{"jsonrpc":"2.0","id":1,"res'); // dies in the middle of an answer
    p.toClient.end();
    await assert.rejects(a, ConnectionClosedError);
    await assert.rejects(b, ConnectionClosedError);
    assert.equal(closed.length, 1);
    assert.equal(p.connection.isClosed, true);
    await assert.rejects(p.connection.request('after'), ConnectionClosedError);
    p.connection.notify('file_changed', { paths: [] }); // no throw
  });

  it('rejects when the daemon stops reading (its stdin closed)', async () => {
    const toClient = new PassThrough();
    const toDaemon = new PassThrough();
    const connection = new JsonRpcConnection(toClient, toDaemon);
    toDaemon.destroy();
    await assert.rejects(connection.request('x'), ConnectionClosedError);
  });
});
