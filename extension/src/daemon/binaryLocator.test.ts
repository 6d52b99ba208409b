import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateBinary } from './binaryLocator';

const only =
  (...files: string[]) =>
  (file: string): boolean =>
    files.includes(file);

describe('locateBinary', () => {
  it('prefers the comp.binaryPath setting, with ~ expanded', () => {
    const found = locateBinary({ configured: '~/bin/comp', extensionPath: '/ext', home: '/home/u', platform: 'linux', arch: 'x64', pathVariable: '/usr/bin', isExecutable: only('/home/u/bin/comp', '/ext/bin/linux-x64/comp') });
    assert.deepEqual(found, { ok: true, path: '/home/u/bin/comp', source: 'setting' });
  });

  it('reports a setting that names no executable instead of silently using another binary', () => {
    const found = locateBinary({ configured: '/nowhere/comp', extensionPath: '/ext', platform: 'linux', arch: 'x64', pathVariable: '/usr/bin', isExecutable: only('/usr/bin/comp') });
    assert.equal(found.ok, false);
    assert.match(found.ok ? '' : found.error, /comp.binaryPath/);
  });

  it('uses the bundled binary of the platform, then PATH', () => {
    const bundled = locateBinary({ extensionPath: '/ext', platform: 'linux', arch: 'x64', pathVariable: '/a:/b', isExecutable: only('/ext/bin/linux-x64/comp', '/b/comp') });
    assert.deepEqual(bundled, { ok: true, path: '/ext/bin/linux-x64/comp', source: 'bundled' });
    const onPath = locateBinary({ configured: '  ', extensionPath: '/ext', platform: 'linux', arch: 'arm64', pathVariable: '/a::/b', isExecutable: only('/ext/bin/linux-x64/comp', '/b/comp') });
    assert.deepEqual(onPath, { ok: true, path: '/b/comp', source: 'path' });
  });

  it('says where it looked when there is no binary', () => {
    const missing = locateBinary({ extensionPath: '/ext', platform: 'linux', arch: 'x64', pathVariable: '/a', isExecutable: only() });
    assert.equal(missing.ok, false);
    assert.match(missing.ok ? '' : missing.error, /bin\/linux-x64\/comp/);
  });
});
