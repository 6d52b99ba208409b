import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GlobSet } from './globPattern';

describe('GlobSet', () => {
  it('matches the default ignore globs at any depth', () => {
    const set = new GlobSet(['**/.git/**', '**/.comp/**', '**/node_modules/**']);
    assert.ok(set.matches('.git/index'));
    assert.ok(set.matches('.comp/session-memory.json'));
    assert.ok(set.matches('web/node_modules/x/index.js'));
    assert.ok(!set.matches('src/git/index.ts'));
    assert.ok(!set.matches('src/comp.ts'));
  });

  it('supports *, ?, {a,b}, [abc], names without a slash and Windows separators', () => {
    const set = new GlobSet(['*.log', 'build/**', 'src/**/*.{gen,tmp}.ts', 'data/file?.[ch]sv']);
    assert.ok(set.matches('x/y/debug.log'));
    assert.ok(set.matches('build/out/a.js'));
    assert.ok(set.matches('build'));
    assert.ok(!set.matches('src/build/a.js'));
    assert.ok(set.matches('src/a/b/x.gen.ts'));
    assert.ok(set.matches('src/x.tmp.ts'));
    assert.ok(!set.matches('src/x.ts'));
    assert.ok(set.matches('data/file1.csv'));
    assert.ok(!set.matches('data/file10.csv'));
    assert.ok(set.matches('build\\win\\a.js'));
  });

  it('ignores empty patterns', () => {
    assert.ok(!new GlobSet(['', '  ']).matches('a'));
  });
});
