// The @comp handler with a fake daemon and stream: /context without a
// language model still returns the context (references, savings, code);
// with one, the model's answer follows; /symbol falls back to a search on
// an unknown name; /diff shows the daemon's markdown; errors are shown.

import * as assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { RpcError } from '../daemon/JsonRpcConnection';
import type { PipelineResult } from '../daemon/protocol';
import { CancellationTokenSource, Location, testState, Uri } from '../testing/vscodeFake';
import { ChatDaemon, createChatHandler, pipelineParams, relationOf } from './participant';

const pipeline: PipelineResult = {
  pivot_files: [
    { path: 'app.py', score: 1.3, symbols: [], token_count: 31, raw_token_count: 31, compression_level: 0, lines: null, content: 'def main():\n    return helper(3)\n' },
    { path: 'util.py', score: 1.0, symbols: [], token_count: 12, raw_token_count: 30, compression_level: 2, lines: null, content: 'def helper(x): ...' },
    { path: 'docs/app.md', score: 0, symbols: [], token_count: 9, raw_token_count: 40, compression_level: 0, lines: '12-14', documents: 'app.py', content: '## main\nReturns helper(3).\n' },
    { path: 'cli.py', score: 0.5, symbols: [], token_count: 10, raw_token_count: 400, compression_level: 2, lines: null, outline: true, content: '3: def run(argv):\n⋮\n40: def usage():\n' },
    { path: 'CHANGES.md', score: 0, symbols: [], token_count: 8, raw_token_count: 900, compression_level: 0, lines: '1-3', required_by: '.github/PULL_REQUEST_TEMPLATE.md', content: '# Changes\n\n* [fix] login\n' },
    { path: 'stage.py', score: 0.2, symbols: [], token_count: 6, raw_token_count: 80, compression_level: 2, lines: null, outline: true, used_by: 'app.py', content: '1: class Stage:\n' },
  ],
  tokens_sent: 70,
  token_savings: 18,
  cost_estimation: 0.0001,
  max_tokens: 500,
  left_out: [],
  freshness: { stale_files: 0, pending_changes: 0, indexing: false, ready: true, last_indexed_at: 1 },
};

class RecordingStream {
  readonly parts: { kind: string; value: unknown; title?: string }[] = [];
  markdown(value: string): void {
    this.parts.push({ kind: 'markdown', value });
  }
  anchor(value: unknown, title?: string): void {
    this.parts.push({ kind: 'anchor', value, title });
  }
  reference(value: unknown): void {
    this.parts.push({ kind: 'reference', value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  get text(): string {
    return this.parts.filter((part) => part.kind === 'markdown').map((part) => part.value).join('');
  }
}

function run(command: string | undefined, prompt: string, answers: Record<string, (params: unknown) => unknown>) {
  const calls: { method: string; params: unknown }[] = [];
  const daemon: ChatDaemon = {
    folder: Uri.file('/ws') as unknown as vscode.Uri,
    request: async <R>(method: string, params: unknown) => {
      calls.push({ method, params });
      const answer = answers[method];
      if (!answer) throw new Error(`unexpected ${method}`);
      return answer(params) as R;
    },
  };
  const handler = createChatHandler(() => daemon, () => ({ maxTokens: 500, compressionLevel: 2 }));
  const stream = new RecordingStream();
  const token = new CancellationTokenSource().token;
  const done = handler(
    { command, prompt, references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
    { history: [] } as unknown as vscode.ChatContext,
    stream as unknown as vscode.ChatResponseStream,
    token as unknown as vscode.CancellationToken,
  );
  return { calls, stream, done: Promise.resolve(done) };
}

describe('@comp chat participant', () => {
  beforeEach(() => testState.reset());

  it('/context without a language model streams references, savings and the context itself', async () => {
    const { calls, stream, done } = run('context', 'why does main return 6?', { run_pipeline: () => pipeline });
    const result = await done;
    assert.deepEqual(calls, [{ method: 'run_pipeline', params: { task: 'why does main return 6?', max_tokens: 500, compression_level: 2 } }]);
    const references = stream.parts.filter((part) => part.kind === 'reference').map((part) => String(part.value));
    assert.deepEqual(references, ['file:///ws/app.py', 'file:///ws/util.py', 'file:///ws/docs/app.md', 'file:///ws/cli.py', 'file:///ws/CHANGES.md', 'file:///ws/stage.py']);
    assert.deepEqual(stream.parts.filter((part) => part.kind === 'anchor').map((part) => part.title), ['app.py', 'util.py', 'docs/app.md', 'cli.py', 'CHANGES.md', 'stage.py']);
    assert.match(stream.text, /6 files, 70 tokens\*\* \(of 500\); 18 tokens saved/);
    assert.match(stream.text, /### app\.py\n\n```py\ndef main\(\):/);
    assert.match(stream.text, /### util\.py \(compressed, level 2\)/);
    assert.match(stream.text, /- .*— 9 tokens \(documents app\.py\)\n/);
    assert.match(stream.text, /### docs\/app\.md lines 12-14 \(documents app\.py\)\n/);
    assert.match(stream.text, /- .*— 10 tokens \(outline\)\n/);
    assert.match(stream.text, /### cli\.py \(outline\)\n\n```py\n3: def run\(argv\):\n⋮\n/);
    assert.match(stream.text, /- .*— 8 tokens \(required by \.github\/PULL_REQUEST_TEMPLATE\.md\)\n/);
    assert.match(stream.text, /### CHANGES\.md lines 1-3 \(required by \.github\/PULL_REQUEST_TEMPLATE\.md\)\n/);
    assert.match(stream.text, /- .*— 6 tokens \(used by app\.py\)\n/);
    assert.match(stream.text, /### stage\.py \(outline\) \(used by app\.py\)\n/);
    assert.deepEqual((result as vscode.ChatResult).metadata, { command: 'context', files: ['app.py', 'util.py', 'docs/app.md', 'cli.py', 'CHANGES.md', 'stage.py'] });
  });

  it('/context hands the context to a language model when there is one', async () => {
    const sent: unknown[] = [];
    testState.chatModels = [
      {
        sendRequest: async (messages: unknown[]) => {
          sent.push(...messages);
          return { text: (async function* () { yield 'main returns '; yield 'helper(3) = 6.'; })() };
        },
      },
    ];
    const { stream, done } = run(undefined, 'why does main return 6?', { run_pipeline: () => pipeline });
    await done;
    assert.match(stream.text, /main returns helper\(3\) = 6\./);
    assert.ok(!stream.text.includes('```py'), 'the model answers instead of the raw context');
    assert.equal(sent.length, 2);
    // The daemon's Markdown, which max_tokens bounds, is what the model gets when the daemon sends it.
    const markdown = '# Context: 1 file within 500 tokens (18 saved)\n\n## app.py\n```\ndef main():\n```\n\n';
    sent.length = 0;
    await run(undefined, 'why does main return 6?', { run_pipeline: () => ({ ...pipeline, markdown }) }).done;
    const first = sent[0] as { content: string };
    assert.ok(first.content.endsWith('\n\n' + markdown), first.content);
    assert.ok(!first.content.includes('### app.py'), 'not the chat view\'s rendering');
  });

  it('/symbol shows the blast radius, or similar names for an unknown one', async () => {
    const found = run('symbol', 'helper', {
      get_symbol: () => ({ symbol: { id: 'util.py::helper', file: 'util.py', name: 'helper', kind: 'function', line: 1 }, choices: [], markdown: '# function `util.helper`\n', freshness: {} }),
    });
    await found.done;
    assert.match(found.stream.text, /# function `util.helper`/);
    assert.ok(found.stream.parts.some((part) => part.kind === 'reference' && part.value instanceof Location));

    const missing = run('symbol', 'helpr', {
      get_symbol: () => {
        throw new RpcError(-32004, "no symbol named 'helpr'");
      },
      search: () => ({ symbols: [{ name: 'helper', kind: 'function', file: 'util.py', line: 1 }], files: [] }),
    });
    await missing.done;
    assert.match(missing.stream.text, /No symbol named `helpr`.*Similar names:\n\n- `helper` \(function, util\.py:1\)/s);
  });

  it('/diff passes the ref and shows the markdown; failures are reported, not thrown', async () => {
    const diff = run('diff', 'main~1', { get_git_diff_context: (params) => ({ base_commit: 'abc', changes: [{ path: 'a.py', status: 'modified' }], changed_symbols: [], related: [], markdown: `# since ${(params as { base: string }).base}`, freshness: {} }) });
    await diff.done;
    assert.match(diff.stream.text, /# since main~1/);
    const failing = run('diff', '', {
      get_git_diff_context: () => {
        throw new RpcError(-32010, 'not a git repository');
      },
    });
    const result = (await failing.done) as vscode.ChatResult;
    assert.match(failing.stream.text, /comP could not answer: not a git repository/);
    assert.equal(result.errorDetails?.message, 'not a git repository');
  });

  it('names why a file no evidence ranked is sent', () => {
    const file = pipeline.pivot_files[0];
    assert.equal(relationOf(file), '');
    assert.equal(relationOf({ ...file, used_by: 'app.py' }), 'used by app.py');
    assert.equal(relationOf({ ...file, changed_with: 'src/Tabs.tsx' }), 'changed with src/Tabs.tsx');
    assert.equal(relationOf({ ...file, manifest_of: 'hive/src/Metastore.java' }), 'manifest of hive/src/Metastore.java');
  });

  it('builds run_pipeline params from the settings', () => {
    assert.deepEqual(pipelineParams('t', { maxTokens: 100, compressionLevel: 1, pricePerMillion: 3 }), { task: 't', max_tokens: 100, compression_level: 1, price_per_million: 3 });
  });
});
