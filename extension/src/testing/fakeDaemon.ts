// fakeDaemon: a stand-in for `comp serve` with scripted faults, for the
// DaemonClient tests (run as `node fakeDaemon.js serve --root DIR`).
// FAKE_DAEMON (comma-separated): `crash-at-start` exits at once with code 1;
// `ignore-exit` ignores `exit` and the end of its input; `progress` reports
// an index run after initialize. Requests: `echo` answers its params, `slow`
// never answers, `die` makes the process exit (code 3) without answering,
// `shutdown` answers null. FAKE_DAEMON_LOG names a file that gets one line per
// start and per request.

import * as fs from 'node:fs';
import { LineFramer } from '../daemon/JsonRpcConnection';

const flags = new Set((process.env.FAKE_DAEMON ?? '').split(',').filter(Boolean));
const logFile = process.env.FAKE_DAEMON_LOG;
const note = (line: string): void => {
  if (logFile) fs.appendFileSync(logFile, `${process.pid} ${line}\n`);
};

note('start');
if (flags.has('crash-at-start')) {
  process.stderr.write('fake daemon: crashing at start\n');
  process.exit(1);
}

const root = process.argv[process.argv.indexOf('--root') + 1] ?? process.cwd();
const send = (message: unknown): void => {
  process.stdout.write(JSON.stringify(message) + '\n');
};
const index = (indexing: boolean) => ({ ready: !indexing, indexing, waiting_for_writer: false, done: indexing ? 1 : 2, total: 2, pending_changes: 0, watch: 'none', last_error: null });

const framer = new LineFramer();
process.stdin.on('data', (chunk: Buffer) => {
  for (const line of framer.push(chunk)) {
    const message = JSON.parse(line) as { id?: number; method: string; params?: unknown };
    note(`request ${message.method}`);
    if (message.id === undefined) {
      if (message.method === 'exit' && !flags.has('ignore-exit')) process.exit(0);
      continue;
    }
    switch (message.method) {
      case 'initialize':
        send({ jsonrpc: '2.0', id: message.id, result: { name: 'comp', version: '0.0.0-fake', root, capabilities: { methods: [], notifications: { client: [], server: [] } }, languages: [], documents: [], index: index(false) } });
        if (flags.has('progress')) {
          setTimeout(() => send({ jsonrpc: '2.0', method: 'index_progress', params: index(true) }), 20);
          setTimeout(() => send({ jsonrpc: '2.0', method: 'index_progress', params: index(false) }), 40);
        }
        break;
      case 'echo':
        send({ jsonrpc: '2.0', id: message.id, result: message.params ?? null });
        break;
      case 'slow':
        break;
      case 'die':
        process.stderr.write('fake daemon: dying mid-request\n');
        process.exit(3);
        break;
      case 'shutdown':
        send({ jsonrpc: '2.0', id: message.id, result: null });
        break;
      default:
        send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
    }
  }
});
process.stdin.on('end', () => {
  if (!flags.has('ignore-exit')) process.exit(0);
});
if (flags.has('ignore-exit')) {
  process.on('SIGTERM', () => note('ignored SIGTERM'));
  setInterval(() => {}, 1000); // stays alive without input
}
process.stderr.write(`fake daemon ready on ${root}\n`);
