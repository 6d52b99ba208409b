import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff } from './Backoff';

describe('Backoff', () => {
  it('doubles the delay of each consecutive failure up to the maximum', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, factor: 2, stableMs: 10_000 });
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => backoff.failure(5)), [100, 200, 400, 800, 1000, 1000]);
    assert.equal(backoff.attempts, 6);
  });

  it('starts over after a daemon that ran long enough, or after reset', () => {
    const backoff = new Backoff({ initialMs: 100, maxMs: 1000, factor: 2, stableMs: 10_000 });
    backoff.failure(5);
    backoff.failure(5);
    assert.equal(backoff.failure(60_000), 100);
    assert.equal(backoff.attempts, 1);
    backoff.reset();
    assert.equal(backoff.failure(5), 100);
  });
});
