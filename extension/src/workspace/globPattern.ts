// globPattern: the glob dialect of comp.ignoredGlobs, matched against
// workspace-relative paths with '/' separators: `**` (any number of
// folders), `*` (within one name), `?`, `{a,b}` and `[abc]`. A pattern
// without '/' matches a name at any depth, as in .gitignore.

export function globToRegExp(glob: string): RegExp {
  let pattern = glob.trim().replace(/^\.\//, '');
  if (!pattern.includes('/')) pattern = `**/${pattern}`;
  // `dir/**` is the folder and what is inside it (the suffix below adds the inside).
  while (pattern.endsWith('/**') && pattern.length > 3) pattern = pattern.slice(0, -3);
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slashAfter = pattern[i + 2] === '/';
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) {
        out += '\\[';
      } else {
        const body = pattern.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else {
      out += c.replace(/[.+^$()|\\/]/g, '\\$&');
    }
  }
  // A folder pattern also covers what is inside it.
  return new RegExp(`^${out}(?:/.*)?$`);
}

/** Matches workspace-relative paths against a list of globs. */
export class GlobSet {
  private readonly patterns: RegExp[];

  constructor(globs: readonly string[]) {
    this.patterns = globs.filter((glob) => glob.trim().length > 0).map(globToRegExp);
  }

  matches(relativePath: string): boolean {
    const normalized = relativePath.replace(/\\/g, '/');
    return this.patterns.some((pattern) => pattern.test(normalized));
  }
}
