// binaryLocator: which `comp` executable to run. In order: the comp.binaryPath
// setting (an error when it names no executable: the user asked for that
// one), the binary bundled in the extension (bin/<platform>-<arch>/comp), then
// `comp` on PATH. Pure: the file system and environment come in as options.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface LocateOptions {
  /** comp.binaryPath; empty or undefined when unset. `~` is the home folder. */
  readonly configured?: string;
  readonly extensionPath: string;
  readonly platform?: NodeJS.Platform;
  readonly arch?: string;
  /** The PATH variable. */
  readonly pathVariable?: string;
  readonly home?: string;
  readonly isExecutable?: (file: string) => boolean;
}

export type LocatedBinary =
  | { readonly ok: true; readonly path: string; readonly source: 'setting' | 'bundled' | 'path' }
  | { readonly ok: false; readonly error: string };

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform === 'win32') return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function locateBinary(options: LocateOptions): LocatedBinary {
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const isExecutable = options.isExecutable ?? isExecutableFile;
  const exe = platform === 'win32' ? 'comp.exe' : 'comp';
  const configured = options.configured?.trim();
  if (configured) {
    const home = options.home ?? os.homedir();
    const expanded = configured === '~' || configured.startsWith('~/') ? path.join(home, configured.slice(1)) : configured;
    return isExecutable(expanded)
      ? { ok: true, path: expanded, source: 'setting' }
      : { ok: false, error: `comp.binaryPath is set to '${configured}', which is not an executable file` };
  }
  const bundled = path.join(options.extensionPath, 'bin', `${platform}-${arch}`, exe);
  if (isExecutable(bundled)) return { ok: true, path: bundled, source: 'bundled' };
  const separator = platform === 'win32' ? ';' : ':';
  for (const dir of (options.pathVariable ?? process.env.PATH ?? '').split(separator)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    if (isExecutable(candidate)) return { ok: true, path: candidate, source: 'path' };
  }
  return {
    ok: false,
    error: `no comP binary found: set comp.binaryPath, or put 'comp' on PATH (looked for ${bundled} too)`,
  };
}
