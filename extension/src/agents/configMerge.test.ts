// Data-driven: each folder of testdata/agents is a real-world-like agent
// config (comments, trailing commas, tabs and CRLF, one-line objects, other
// servers, an old comp entry, unparsable files). For each: registering gives
// exactly expected.<ext> (or the error in error.txt), registering again
// changes nothing, and undoing structurally (as when the user edited the
// file since) gives back the input byte for byte, or else exactly
// undone.<ext>, which must parse to the input's value; a file comP created is
// deleted. (An untouched file is restored verbatim from the record: see
// agentRegistration.test.) After an intended change of output, refresh the
// expectations with UPDATE_EXPECT=1 npm test and review the diff.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RegistrationRecord, planRegistration, planRemoval } from './agentRegistration';
import { mcpArgs } from './agentTargets';
import { canonical } from './configEdit';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';

const parsed = (format: 'json' | 'toml', text: string): unknown => (format === 'json' ? parseJsonc(text) : parseToml(text));

const casesRoot = path.join(__dirname, '..', '..', 'testdata', 'agents');
const update = process.env.UPDATE_EXPECT === '1';
const command = '/opt/comp/bin/comp';
const folder = '/home/dev/project';

interface CaseMeta {
  readonly format: 'json' | 'toml';
  readonly container: string;
  readonly entry: 'vscode' | 'plain';
}

const read = (file: string): string | undefined => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);

describe('agent config merging (testdata/agents)', () => {
  for (const name of fs.readdirSync(casesRoot).sort()) {
    it(name, () => {
      const dir = path.join(casesRoot, name);
      const meta = JSON.parse(read(path.join(dir, 'case.json')) ?? '{}') as CaseMeta;
      const input = read(path.join(dir, `input.${meta.format}`));
      const entry = meta.entry === 'vscode' ? { type: 'stdio', command, args: mcpArgs(folder) } : { command, args: mcpArgs(folder) };
      const location = { container: meta.container, name: 'comp' };
      const plan = planRegistration(meta.format, input, location, entry);

      const expectedError = read(path.join(dir, 'error.txt'))?.trim();
      if (expectedError !== undefined) {
        assert.equal(plan.kind, 'error', 'an unparsable or unsafe file is reported, never rewritten');
        assert.ok(plan.kind === 'error' && plan.message.includes(expectedError), plan.kind === 'error' ? plan.message : '');
        return;
      }
      assert.equal(plan.kind, 'change', plan.kind === 'error' ? plan.message : '');
      if (plan.kind !== 'change') return;
      const expectedFile = path.join(dir, `expected.${meta.format}`);
      if (update) fs.writeFileSync(expectedFile, plan.text);
      assert.equal(plan.text, read(expectedFile), `registration output of ${name}`);

      assert.equal(planRegistration(meta.format, plan.text, location, entry).kind, 'unchanged', 'a second run changes nothing');

      const record: RegistrationRecord = { agent: 'vscode', file: 'unused', format: meta.format, location, entry, undo: plan.undo, time: '' };
      const removal = planRemoval(record, plan.text);
      assert.equal(removal.kind, 'change', removal.kind === 'error' || removal.kind === 'modified' ? removal.message : removal.kind);
      if (removal.kind !== 'change') return;
      if (input === undefined) {
        assert.equal(removal.deleteFile, true, 'a file comP created is removed');
        return;
      }
      const undoneFile = path.join(dir, `undone.${meta.format}`);
      if (update) {
        if (removal.text !== input) fs.writeFileSync(undoneFile, removal.text);
        else fs.rmSync(undoneFile, { force: true });
      }
      assert.equal(removal.text, read(undoneFile) ?? input, 'undo restores the input');
      assert.equal(canonical(parsed(meta.format, removal.text)), canonical(parsed(meta.format, input)), 'undo restores the input value');
    });
  }
});
