import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FileChangeBatcher, Timers } from './FileChangeBatcher';

// A manual clock: timers fire only when the test advances time.
class ManualClock implements Timers {
  now = 0;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = end;
  }
}

function setup(delay = 200, maxWait = 2000) {
  const clock = new ManualClock();
  const batches: string[][] = [];
  const batcher = new FileChangeBatcher((paths) => batches.push(paths), delay, maxWait, clock, () => clock.now);
  return { clock, batches, batcher };
}

describe('FileChangeBatcher', () => {
  it('sends one batch, each path once, after the changes stop for the delay', () => {
    const { clock, batches, batcher } = setup();
    batcher.add('a.py');
    clock.advance(150);
    batcher.add('b.py');
    batcher.add('a.py');
    clock.advance(150);
    assert.deepEqual(batches, []);
    clock.advance(60);
    assert.deepEqual(batches, [['a.py', 'b.py']]);
    assert.equal(batcher.size, 0);
  });

  it('does not wait longer than maxWait under a steady stream of changes', () => {
    const { clock, batches, batcher } = setup(200, 1000);
    for (let t = 0; t < 1500; t += 100) {
      batcher.add(`f${t}.ts`);
      clock.advance(100);
    }
    assert.ok(batches.length >= 1);
    assert.equal(batches[0]?.length, 10); // 0..900 ms, flushed at 1000 ms
  });

  it('flushNow sends at once; dispose drops what is queued', () => {
    const { clock, batches, batcher } = setup();
    batcher.add('x');
    batcher.flushNow();
    assert.deepEqual(batches, [['x']]);
    batcher.flushNow();
    assert.equal(batches.length, 1);
    batcher.add('y');
    batcher.dispose();
    clock.advance(1000);
    assert.equal(batches.length, 1);
  });
});
