// DaemonClient against a scripted fake daemon (testing/fakeDaemon): a daemon
// that dies mid-request, one that crashes at every start (backoff, then
// giving up), one killed with SIGKILL while requests wait, one that ignores
// `exit` (killed after the grace period), and a missing binary.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DaemonClient, DaemonClientOptions, DaemonStatus, DaemonUnavailableError } from './DaemonClient';
import { ConnectionClosedError } from './JsonRpcConnection';
import { alive, until } from '../testing/wait';

const fakeDaemon = path.join(__dirname, '..', 'testing', 'fakeDaemon.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comp-client-test-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

let logCount = 0;
function client(flags: string, overrides: Partial<DaemonClientOptions> = {}): { client: DaemonClient; log: string; statuses: DaemonStatus[]; stderr: string[] } {
  const log = path.join(scratch, `fake-${++logCount}.log`);
  const instance = new DaemonClient({
    folder: scratch,
    launch: () => ({ ok: true, command: process.execPath, args: [fakeDaemon, 'serve', '--root', scratch] }),
    clientInfo: { name: 'test', version: '0' },
    backoff: { initialMs: 20, maxMs: 1000, factor: 2, stableMs: 60_000 },
    maxRestarts: 5,
    requestTimeoutMs: 5000,
    shutdownGraceMs: 1000,
    env: { ...process.env, FAKE_DAEMON: flags, FAKE_DAEMON_LOG: log },
    ...overrides,
  });
  const statuses: DaemonStatus[] = [];
  const stderr: string[] = [];
  instance.onStatus((status) => statuses.push(status));
  instance.onLog((line) => stderr.push(line));
  return { client: instance, log, statuses, stderr };
}

function logLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

describe('DaemonClient', () => {
  it('starts, initializes and answers requests; stderr goes to the log', async () => {
    const { client: daemon, statuses, stderr } = client('');
    daemon.start();
    assert.deepEqual(await daemon.request('echo', { x: 1 }), { x: 1 }); // waits for the start
    assert.equal(daemon.status.phase, 'running');
    assert.deepEqual(statuses.map((s) => s.phase).slice(0, 2), ['starting', 'running']);
    assert.equal(daemon.server?.version, '0.0.0-fake');
    await until(() => stderr.some((line) => line.includes('fake daemon ready')));
    await daemon.stop();
  });

  it('rejects the requests in flight when the daemon dies mid-request, then restarts it', async () => {
    const { client: daemon, statuses, log } = client('');
    daemon.start();
    await daemon.request('echo');
    const firstPid = daemon.pid;
    const slow = daemon.request('slow');
    const dying = daemon.request('die');
    await assert.rejects(slow, ConnectionClosedError);
    await assert.rejects(dying, ConnectionClosedError);
    await until(() => daemon.status.phase === 'running' && daemon.pid !== firstPid);
    const restarting = statuses.find((s) => s.phase === 'restarting');
    assert.ok(restarting, 'a restarting status was reported');
    assert.equal(restarting.restartInMs, 20);
    assert.match(restarting.error ?? '', /exited with code 3/);
    assert.deepEqual(await daemon.request('echo', 'again'), 'again');
    assert.equal(logLines(log).filter((line) => line.endsWith(' start')).length, 2);
    await daemon.stop();
  });

  it('backs off exponentially on repeated crashes and gives up after maxRestarts', async () => {
    const { client: daemon, statuses, log } = client('crash-at-start', { maxRestarts: 3 });
    daemon.start();
    await until(() => daemon.status.phase === 'failed');
    const delays = statuses.filter((s) => s.phase === 'restarting').map((s) => s.restartInMs);
    assert.deepEqual(delays, [20, 40, 80]);
    assert.equal(logLines(log).filter((line) => line.endsWith(' start')).length, 4);
    assert.match(daemon.status.error ?? '', /gave up after 3 restarts/);
    await assert.rejects(daemon.request('echo'), DaemonUnavailableError);
    // A manual restart starts over.
    await daemon.restart();
    await until(() => logLines(log).filter((line) => line.endsWith(' start')).length >= 5);
    await daemon.stop();
  });

  it('lets requests wait for a daemon restarting after SIGKILL', async () => {
    const { client: daemon } = client('');
    daemon.start();
    await daemon.request('echo');
    const pid = daemon.pid as number;
    // Asked while the daemon is down (from the status listener, so no race):
    // with waitMs the request waits for the restart, without it fails at once.
    const outcomes = new Promise<[unknown, unknown]>((resolve) => {
      const subscription = daemon.onStatus((status) => {
        if (status.phase !== 'restarting') return;
        subscription.dispose();
        const settle = (promise: Promise<unknown>) => promise.then((value) => value, (error: unknown) => error);
        void Promise.all([settle(daemon.request('echo', 'after kill', { waitMs: 5000 })), settle(daemon.request('echo', 'now', { waitMs: 0 }))]).then(resolve);
      });
    });
    process.kill(pid, 'SIGKILL');
    const [waited, immediate] = await outcomes;
    assert.equal(waited, 'after kill');
    assert.ok(immediate instanceof DaemonUnavailableError);
    assert.notEqual(daemon.pid, pid);
    await daemon.stop();
  });

  it('stops cleanly with shutdown and exit, and does not restart', async () => {
    const { client: daemon, log } = client('');
    daemon.start();
    await daemon.request('echo');
    const pid = daemon.pid as number;
    await daemon.stop();
    assert.equal(daemon.status.phase, 'stopped');
    assert.ok(!alive(pid));
    const lines = logLines(log).map((line) => line.split(' ').slice(1).join(' '));
    assert.deepEqual(lines.slice(-2), ['request shutdown', 'request exit']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(daemon.status.phase, 'stopped');
    assert.equal(logLines(log).filter((line) => line.endsWith(' start')).length, 1);
  });

  it('kills a daemon that ignores exit after the grace period', async () => {
    const { client: daemon, stderr } = client('ignore-exit', { shutdownGraceMs: 200 });
    daemon.start();
    await daemon.request('echo');
    const pid = daemon.pid as number;
    const started = Date.now();
    await daemon.stop();
    assert.ok(Date.now() - started >= 190);
    assert.ok(!alive(pid));
    assert.ok(stderr.some((line) => line.includes('killing it')));
  });

  it('reports index changes after the start and after each finished run', async () => {
    const { client: daemon } = client('progress');
    const changes: boolean[] = [];
    const progress: boolean[] = [];
    daemon.onIndexChanged((index) => changes.push(index.ready));
    daemon.onIndexProgress((index) => progress.push(index.indexing));
    daemon.start();
    await until(() => changes.length === 2);
    assert.deepEqual(progress, [true, false]);
    assert.equal(daemon.status.index?.ready, true);
    await daemon.stop();
  });

  it('fails without restarts when no binary can be found, and on a binary that does not exist', async () => {
    const { client: missing } = client('', { launch: () => ({ ok: false, error: 'no comP binary found' }) });
    missing.start();
    assert.equal(missing.status.phase, 'failed');
    assert.equal(missing.status.error, 'no comP binary found');
    const { client: broken, statuses } = client('', {
      launch: () => ({ ok: true, command: path.join(scratch, 'no-such-comp'), args: [] }),
      maxRestarts: 1,
    });
    broken.start();
    await until(() => broken.status.phase === 'failed');
    assert.match(statuses.find((s) => s.phase === 'restarting')?.error ?? '', /could not be started/);
    await broken.stop();
  });
});
