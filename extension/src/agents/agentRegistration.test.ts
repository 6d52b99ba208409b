// Registration on a real (temporary) file system: backups, exact restore of
// an untouched file, undo after the user edited the file elsewhere, an entry
// the user changed or removed, a file changed between preview and write, an
// unparsable file, and a registration that replaced an earlier one.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { AgentTarget, TargetContext, agentTargets } from './agentTargets';
import { backupSuffix, planTarget, undoRegistration, writeRegistration } from './agentRegistration';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'comp-agents-test-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

let count = 0;
function context(): TargetContext {
  const base = path.join(scratch, `case-${++count}`);
  const folder = path.join(base, 'project');
  fs.mkdirSync(folder, { recursive: true });
  return { folder, home: path.join(base, 'home'), globalStorage: path.join(base, 'globalStorage', 'comp.comp-vscode') };
}

function target(id: string): AgentTarget {
  const found = agentTargets.find((t) => t.id === id);
  if (!found) throw new Error(id);
  return found;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const claudeInput = '{\n  // project servers\n  "mcpServers": {\n    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] }\n  }\n}\n';

describe('agent registration on disk', () => {
  it('knows where each agent keeps its servers', () => {
    const ctx: TargetContext = { folder: '/p', home: '/h', globalStorage: '/g/User/globalStorage/comp.comp-vscode' };
    const files = Object.fromEntries(agentTargets.map((t) => [t.id, t.file(ctx)]));
    assert.deepEqual(files, {
      vscode: '/p/.vscode/mcp.json',
      cursor: '/p/.cursor/mcp.json',
      windsurf: '/h/.codeium/windsurf/mcp_config.json',
      cline: '/g/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      'claude-code': '/p/.mcp.json',
      codex: '/h/.codex/config.toml',
    });
    assert.deepEqual(target('vscode').entry('/bin/comp', ['mcp']), { type: 'stdio', command: '/bin/comp', args: ['mcp'] });
  });

  it('writes with a backup and restores an untouched file byte for byte', async () => {
    const ctx = context();
    const file = target('claude-code').file(ctx);
    write(file, '{}');
    const plan = await planTarget(target('claude-code'), ctx, '/opt/comp');
    const record = await writeRegistration(plan);
    assert.equal(fs.readFileSync(file + backupSuffix, 'utf8'), '{}');
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(written.mcpServers.comp, { command: '/opt/comp', args: ['mcp', '--root', ctx.folder] });
    assert.equal((await planTarget(target('claude-code'), ctx, '/opt/comp')).plan.kind, 'unchanged');
    assert.deepEqual(await undoRegistration(record), { kind: 'undone', deleted: false });
    assert.equal(fs.readFileSync(file, 'utf8'), '{}');
  });

  it('deletes a file it created, and creates the folders it needs', async () => {
    const ctx = context();
    const plan = await planTarget(target('vscode'), ctx, '/opt/comp');
    const record = await writeRegistration(plan);
    const file = path.join(ctx.folder, '.vscode', 'mcp.json');
    assert.ok(fs.existsSync(file));
    assert.ok(!fs.existsSync(file + backupSuffix), 'no backup of a file that did not exist');
    assert.deepEqual(await undoRegistration(record), { kind: 'undone', deleted: true });
    assert.ok(!fs.existsSync(file));
  });

  it('removes only its entry when the user edited the file since', async () => {
    const ctx = context();
    const file = target('claude-code').file(ctx);
    write(file, claudeInput);
    const record = await writeRegistration(await planTarget(target('claude-code'), ctx, '/opt/comp'));
    // The user adds a server after comP's, and a comment.
    const edited = fs.readFileSync(file, 'utf8').replace('  }\n}\n', '  },\n  // mine\n  "theme": "dark"\n}\n').replace('"fetch"', '"fetch2"');
    fs.writeFileSync(file, edited);
    assert.equal((await undoRegistration(record)).kind, 'undone');
    const after = fs.readFileSync(file, 'utf8');
    assert.ok(!after.includes('"comp"'));
    assert.ok(after.includes('"fetch2"') && after.includes('// mine') && after.includes('"theme": "dark"') && after.includes('// project servers'));
  });

  it('leaves an entry the user changed, and notices one the user removed', async () => {
    const ctx = context();
    const file = target('cursor').file(ctx);
    write(file, claudeInput);
    const record = await writeRegistration(await planTarget(target('cursor'), ctx, '/opt/comp'));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"/opt/comp"', '"/usr/local/bin/comp"'));
    const changed = fs.readFileSync(file, 'utf8');
    assert.equal((await undoRegistration(record)).kind, 'modified');
    assert.equal(fs.readFileSync(file, 'utf8'), changed);
    fs.writeFileSync(file, claudeInput);
    assert.equal((await undoRegistration(record)).kind, 'absent');
  });

  it('refuses to write a file that changed between preview and write', async () => {
    const ctx = context();
    const file = target('cursor').file(ctx);
    write(file, claudeInput);
    const plan = await planTarget(target('cursor'), ctx, '/opt/comp');
    fs.writeFileSync(file, claudeInput.replace('fetch', 'fetched'));
    await assert.rejects(writeRegistration(plan), /changed since/);
    assert.equal(fs.readFileSync(file, 'utf8'), claudeInput.replace('fetch', 'fetched'));
  });

  it('never writes an unparsable file', async () => {
    const ctx = context();
    const file = target('windsurf').file(ctx);
    write(file, '{ "mcpServers": { "x": { "command": "y" } ');
    const plan = await planTarget(target('windsurf'), ctx, '/opt/comp');
    assert.equal(plan.plan.kind, 'error');
    await assert.rejects(writeRegistration(plan), /nothing to write/);
    assert.ok(!fs.existsSync(file + backupSuffix));
  });

  it('undoes a registration that replaced an earlier one, newest first, back to the original', async () => {
    const ctx = context();
    const file = target('codex').file(ctx);
    const original = '# mine\nmodel = "o3"\n';
    write(file, original);
    const first = await writeRegistration(await planTarget(target('codex'), ctx, '/old/comp'), new Date(1000));
    const second = await writeRegistration(await planTarget(target('codex'), ctx, '/new/comp'), new Date(2000));
    assert.match(fs.readFileSync(file, 'utf8'), /command = "\/new\/comp"/);
    // The user appends a table of their own after comP's.
    fs.appendFileSync(file, '\n[mcp_servers.theirs]\ncommand = "x"\n');
    assert.equal((await undoRegistration(second)).kind, 'undone');
    assert.match(fs.readFileSync(file, 'utf8'), /command = "\/old\/comp"/);
    assert.equal((await undoRegistration(first)).kind, 'undone');
    assert.equal(fs.readFileSync(file, 'utf8'), original + '\n[mcp_servers.theirs]\ncommand = "x"\n');
  });

  it('keeps the file mode of a config it rewrites', async () => {
    const ctx = context();
    const file = target('codex').file(ctx);
    write(file, 'model = "o3"\n');
    fs.chmodSync(file, 0o600);
    await writeRegistration(await planTarget(target('codex'), ctx, '/opt/comp'));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });
});
