import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexState } from '../daemon/protocol';
import { describeStatus } from './StatusBar';

const index = (over: Partial<IndexState> = {}): IndexState => ({
  ready: true,
  indexing: false,
  waiting_for_writer: false,
  done: 10,
  total: 10,
  pending_changes: 0,
  watch: 'inotify',
  last_error: null,
  ...over,
});

describe('describeStatus', () => {
  it('says ready, indexing N%, pending changes', () => {
    assert.equal(describeStatus([{ phase: 'running', index: index() }]).text, '$(check) comP ready');
    assert.equal(describeStatus([{ phase: 'running', index: index({ indexing: true, ready: false, done: 25, total: 100 }) }]).text, '$(sync~spin) comP indexing 25%');
    assert.equal(describeStatus([{ phase: 'running', index: index({ pending_changes: 3 }) }]).text, '$(pulse) comP 3 pending');
    assert.equal(describeStatus([{ phase: 'running', index: index({ waiting_for_writer: true }) }]).text, '$(sync~spin) comP waiting');
  });

  it('shows the state that most needs attention across folders', () => {
    const ready = { phase: 'running' as const, index: index() };
    assert.equal(describeStatus([ready, { phase: 'restarting', error: 'the daemon was killed (SIGKILL)', restartInMs: 2000 }]).severity, 'warning');
    const failed = describeStatus([ready, { phase: 'failed', error: 'no comP binary found' }]);
    assert.equal(failed.text, '$(error) comP error');
    assert.match(failed.tooltip, /no comP binary found/);
    assert.equal(describeStatus([ready, { phase: 'running', index: index({ last_error: 'disk full' }) }]).severity, 'error');
    assert.equal(describeStatus([]).severity, 'warning');
  });
});
