// agentRegistration: planning, writing and undoing comP's entry in agent
// config files, on the file system but without UI (AgentSetupManager asks
// the user). Writes keep a copy of the old file as `<file>.comp-backup`,
// replace the file atomically (temporary file + rename, same mode) and
// refuse when the file changed since it was planned.

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { AgentId, AgentTarget, TargetContext } from './agentTargets';
import { mcpArgs } from './agentTargets';
import type { EntryLocation, RegistrationPlan, RemovalPlan, ServerEntry, UndoData } from './configEdit';
import { planJsonRegistration, planJsonRemoval } from './jsonConfig';
import { planTomlRegistration, planTomlRemoval } from './tomlConfig';

export const backupSuffix = '.comp-backup';

export interface TargetPlan {
  readonly target: AgentTarget;
  readonly file: string;
  /** The file's text when planned; undefined when it did not exist. */
  readonly before: string | undefined;
  readonly entry: ServerEntry;
  readonly plan: RegistrationPlan;
}

/** What was written, kept (in the extension's global state) so that undo removes exactly that. */
export interface RegistrationRecord {
  readonly agent: AgentId;
  readonly file: string;
  readonly format: 'json' | 'toml';
  readonly location: EntryLocation;
  readonly entry: ServerEntry;
  readonly undo: UndoData;
  readonly time: string;
  /** The file as it was before (null: there was none) and as comP wrote it: an untouched file is restored verbatim. */
  readonly original?: string | null;
  readonly written?: string;
}

export type UndoOutcome =
  | { readonly kind: 'undone'; readonly deleted: boolean }
  | { readonly kind: 'absent' }
  | { readonly kind: 'modified'; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const bom = '\uFEFF';

// Plans on the text without a byte-order mark (Windows editors write one;
// the parsers reject it) and puts it back on the result.
function keepingBom<P extends RegistrationPlan | RemovalPlan>(text: string | undefined, plan: (text: string | undefined) => P): P {
  if (!text?.startsWith(bom)) return plan(text);
  const result = plan(text.slice(1));
  return result.kind === 'change' ? { ...result, text: bom + result.text } : result;
}

export function planRegistration(format: 'json' | 'toml', text: string | undefined, location: EntryLocation, entry: ServerEntry): RegistrationPlan {
  return keepingBom(text, (source) => (format === 'json' ? planJsonRegistration(source, location, entry) : planTomlRegistration(source, location, entry)));
}

export function planRemoval(record: RegistrationRecord, text: string | undefined): RemovalPlan {
  return keepingBom(text, (source) =>
    record.format === 'json'
      ? planJsonRemoval(source, record.location, record.entry, record.undo)
      : planTomlRemoval(source, record.location, record.entry, record.undo),
  );
}

/** The change registering `command` (comp) for `context.folder` would make to the target's file. */
export async function planTarget(target: AgentTarget, context: TargetContext, command: string): Promise<TargetPlan> {
  const file = target.file(context);
  const entry = target.entry(command, mcpArgs(context.folder));
  let before: string | undefined;
  try {
    before = await readIfExists(file);
  } catch (error) {
    return { target, file, before: undefined, entry, plan: { kind: 'error', message: `cannot read it: ${(error as Error).message}` } };
  }
  return { target, file, before, entry, plan: planRegistration(target.format, before, target.location, entry) };
}

// Replaces `file` with `text`: backup of `before` first, then a temporary file renamed over it.
async function replaceFile(file: string, before: string | undefined, text: string): Promise<void> {
  const now = await readIfExists(file);
  if (now !== before) throw new Error(`${file} changed since comP read it; run the command again`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  let mode: number | undefined;
  if (before !== undefined) {
    await fs.writeFile(file + backupSuffix, before, 'utf8');
    mode = (await fs.stat(file)).mode & 0o7777;
  }
  const temporary = `${file}.comp-tmp-${process.pid}`;
  await fs.writeFile(temporary, text, { encoding: 'utf8', ...(mode !== undefined ? { mode } : {}) });
  await fs.rename(temporary, file);
}

/** Writes a planned change; returns the record for undo. */
export async function writeRegistration(plan: TargetPlan, now: Date = new Date()): Promise<RegistrationRecord> {
  if (plan.plan.kind !== 'change') throw new Error('nothing to write');
  await replaceFile(plan.file, plan.before, plan.plan.text);
  return {
    agent: plan.target.id,
    file: plan.file,
    format: plan.target.format,
    location: plan.target.location,
    entry: plan.entry,
    undo: plan.plan.undo,
    time: now.toISOString(),
    original: plan.before ?? null,
    written: plan.plan.text,
  };
}

/**
 * Removes (or restores) what `record` wrote, if it is still as written: the
 * whole file as it was when nobody touched it since, else only the entry
 * (configEdit's removal plans), keeping what the user changed elsewhere.
 */
export async function undoRegistration(record: RegistrationRecord): Promise<UndoOutcome> {
  let text: string | undefined;
  try {
    text = await readIfExists(record.file);
  } catch (error) {
    return { kind: 'error', message: `cannot read ${record.file}: ${(error as Error).message}` };
  }
  // Untouched since comP wrote it: put back exactly what was there.
  const removal: RemovalPlan =
    record.written !== undefined && record.original !== undefined && text === record.written
      ? { kind: 'change', text: record.original ?? '', deleteFile: record.original === null }
      : planRemoval(record, text);
  if (removal.kind !== 'change') return removal;
  try {
    if (removal.deleteFile) {
      await fs.writeFile(record.file + backupSuffix, text ?? '', 'utf8');
      await fs.rm(record.file);
    } else {
      await replaceFile(record.file, text, removal.text);
    }
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  return { kind: 'undone', deleted: removal.deleteFile };
}
