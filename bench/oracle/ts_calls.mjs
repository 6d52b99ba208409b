#!/usr/bin/env node
// Call-site oracle for TypeScript: the TypeScript compiler's language service.
//
//   node bench/oracle/ts_calls.mjs [--tsconfig FILE] [--workspace-paths] ROOT OUT.jsonl
//
// Enumerates every CallExpression and NewExpression in the project's own
// .ts/.tsx/.mts/.cts files (not .d.ts, not node_modules) with the TypeScript
// AST, independently of comP, and asks languageService.getDefinitionAtPosition
// at the callee's name token: `foo()` -> `foo`, `a.b.foo()` -> `foo`,
// `new Foo()` -> `Foo`. Callees that are neither an identifier nor a property
// access (`(x)()`, `a[k]()`, `f()()`, `super()`, `import()`) are skipped and
// counted on stderr.
//
// One LanguageService holds every .ts/.tsx/.mts/.cts file under ROOT, plus
// the .d.ts files that some tsconfig*.json under ROOT includes (all of them
// when there is no tsconfig), with the compilerOptions of ROOT/tsconfig.json
// (or --tsconfig) when present, else bundler-style defaults; allowJs is
// forced off.
//
// Output: one JSON line per call site:
//   {"file", "line", "column" (1-indexed UTF-8 byte column of the name token),
//    "name", "kind": "call"|"new", "targets": [{"file" (null when external:
//    outside ROOT, node_modules, TypeScript's lib .d.ts, or an import whose
//    module could not be resolved), "line" (line of the declaration's name),
//    "decl_start_line", "decl_end_line", "name", "kind", "local"}]}
// Lines count '\n' only (as comP and tree-sitter do). A target that is a
// class constructor is reported as its class (comP's convention for `new`).
// Extra target fields: "kind" (function|method|class|interface|variable|
// property|parameter|import|module|type|enum|other), "local" (a parameter,
// or a variable declared inside a function body: comP has no node for it), "ext" (basename of the external
// file, for debugging), "unresolved_import" (TS stopped at an import alias).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');

function usage(msg) {
  if (msg) process.stderr.write(`ts_calls: ${msg}\n`);
  process.stderr.write('usage: node ts_calls.mjs [--tsconfig FILE] [--workspace-paths] ROOT OUT.jsonl\n');
  process.exit(2);
}

const argv = process.argv.slice(2);
let tsconfigArg = null;
let workspacePaths = false;
const positional = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--tsconfig') tsconfigArg = argv[++i];
  else if (a === '--workspace-paths') workspacePaths = true;
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else positional.push(a);
}
if (positional.length !== 2) usage();
const ROOT = fs.realpathSync(path.resolve(positional[0]));
const OUT = path.resolve(positional[1]);

const SKIP_DIRS = new Set(['node_modules', '.git', '.comp', '.codegraph', '.hg', '.svn']);
const SOURCE_RE = /\.(ts|tsx|mts|cts)$/;
const DTS_RE = /\.d\.(ts|mts|cts)$|\.d\.[^/]*\.ts$/;

function walk(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (SKIP_DIRS.has(e.name)) continue;
      walk(p, out);
    } else if (e.isFile() && SOURCE_RE.test(e.name)) {
      out.push(p);
    }
  }
}

const t0 = Date.now();
const allFiles = [];
walk(ROOT, allFiles);
const callFiles = allFiles.filter((f) => !DTS_RE.test(f));

// ---- compiler options -------------------------------------------------------
function loadOptions() {
  const cfgPath = tsconfigArg ? path.resolve(tsconfigArg) : path.join(ROOT, 'tsconfig.json');
  let options = {};
  if (fs.existsSync(cfgPath)) {
    const read = ts.readConfigFile(cfgPath, ts.sys.readFile);
    if (read.error) {
      process.stderr.write(`ts_calls: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}\n`);
    } else {
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(cfgPath), undefined, cfgPath);
      options = parsed.options;
      process.stderr.write(`ts_calls: compilerOptions from ${path.relative(ROOT, cfgPath) || cfgPath}\n`);
    }
  } else {
    options = {
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.Preserve,
      strict: true,
      experimentalDecorators: true,
      esModuleInterop: true,
      resolveJsonModule: true,
    };
    process.stderr.write('ts_calls: no tsconfig.json at ROOT; using bundler defaults\n');
  }
  options.allowJs = false;
  options.checkJs = false;
  options.noEmit = true;
  options.skipLibCheck = true;
  // Project references would redirect imports to (absent) built .d.ts files.
  delete options.composite;
  delete options.incremental;
  delete options.tsBuildInfoFile;
  if (workspacePaths) addWorkspacePaths(options);
  return options;
}

// Monorepos whose packages import each other by package name resolve through
// node_modules symlinks to built output, neither of which a source checkout
// has. --workspace-paths maps each package.json "name" under ROOT to its
// folder, and "<name>/<outDir>/*" to "<dir>/<rootDir>/*" when the package's
// tsconfig.json says so (e.g. @theia/core/lib/* -> packages/core/src/*).
function addWorkspacePaths(options) {
  const paths = { ...(options.paths || {}) };
  const base = options.pathsBasePath || options.baseUrl || ROOT;
  const rel = (p) => './' + path.relative(base, p).split(path.sep).join('/');
  const pkgs = [];
  (function find(dir, depth) {
    if (depth > 6) return;
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) find(path.join(dir, e.name), depth + 1);
      else if (e.isFile() && e.name === 'package.json' && dir !== ROOT) pkgs.push(dir);
    }
  })(ROOT, 0);
  let added = 0;
  for (const dir of pkgs) {
    let name;
    let entry;
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      name = pkg.name;
      entry = pkg.types || pkg.typings || pkg.main;
    } catch {
      continue;
    }
    if (!name || paths[name] || paths[`${name}/*`]) continue;
    let rootDir = null;
    let outDir = null;
    const cfg = path.join(dir, 'tsconfig.json');
    if (fs.existsSync(cfg)) {
      const read = ts.readConfigFile(cfg, ts.sys.readFile);
      if (!read.error) {
        const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, cfg);
        rootDir = parsed.options.rootDir || null;
        outDir = parsed.options.outDir || null;
      }
    }
    if (rootDir && outDir) {
      paths[`${name}/${path.relative(dir, outDir).split(path.sep).join('/')}/*`] = [`${rel(rootDir)}/*`];
      paths[name] = [`${rel(rootDir)}/index`, rel(dir)];
      if (typeof entry === 'string') {
        // "main": "lib/common/index.js" -> src/common/index
        const e = path.resolve(dir, entry).replace(/\.(d\.ts|js|ts|cjs|mjs)$/, '');
        const r = path.relative(outDir, e);
        if (!r.startsWith('..') && !path.isAbsolute(r)) paths[name].unshift(rel(path.join(rootDir, r)));
      }
    } else {
      paths[name] = [rel(dir), `${rel(dir)}/src`, `${rel(dir)}/src/index`];
    }
    paths[`${name}/*`] = [`${rel(dir)}/*`, `${rel(dir)}/src/*`];
    added++;
  }
  options.paths = paths;
  if (!options.baseUrl && !options.pathsBasePath) options.baseUrl = ROOT;
  process.stderr.write(`ts_calls: --workspace-paths added ${added} package(s)\n`);
}

const options = loadOptions();

// Declaration files: only those that some tsconfig*.json under ROOT (or
// --tsconfig) covers. A .d.ts outside every tsconfig may be a script meant to
// be concatenated into a bundle (vue's runtime-core/types/*.d.ts declare
// `module '@vue/runtime-core'` ambiently), which would shadow the real module.
// Without any tsconfig, every .d.ts is a root.
function coveredDeclarationFiles() {
  const configs = [];
  (function find(dir) {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) find(p);
      else if (e.isFile() && /^tsconfig.*\.json$/.test(e.name)) configs.push(p);
    }
  })(ROOT);
  if (tsconfigArg) configs.push(path.resolve(tsconfigArg));
  if (!configs.length) return null;
  const covered = new Set();
  for (const cfg of configs) {
    try {
      const read = ts.readConfigFile(cfg, ts.sys.readFile);
      if (read.error) continue;
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(cfg), undefined, cfg);
      for (const f of parsed.fileNames) covered.add(path.resolve(f));
    } catch {
      // a broken tsconfig covers nothing
    }
  }
  return covered;
}
const covered = coveredDeclarationFiles();
const rootFiles = covered ? allFiles.filter((f) => !DTS_RE.test(f) || covered.has(f)) : allFiles;

// ---- language service ---------------------------------------------------------
const snapshots = new Map();
const host = {
  getScriptFileNames: () => rootFiles,
  getScriptVersion: () => '1',
  getScriptSnapshot: (f) => {
    if (snapshots.has(f)) return snapshots.get(f);
    if (!fs.existsSync(f)) return undefined;
    const s = ts.ScriptSnapshot.fromString(ts.sys.readFile(f) ?? '');
    snapshots.set(f, s);
    return s;
  },
  getCurrentDirectory: () => ROOT,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
  realpath: ts.sys.realpath,
  useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();
const tProgram = Date.now();
process.stderr.write(
  `ts_calls: ${rootFiles.length} root files (${callFiles.length} without .d.ts; ` +
    `${allFiles.length - rootFiles.length} .d.ts outside every tsconfig left out), ` +
    `${program.getSourceFiles().length} source files loaded, ${((tProgram - t0) / 1000).toFixed(1)} s\n`,
);

// ---- positions: lines by '\n', UTF-8 byte columns --------------------------------
const lineCache = new Map();
function lineStarts(sf) {
  let ls = lineCache.get(sf.fileName);
  if (!ls) {
    ls = [0];
    const t = sf.text;
    for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1)) ls.push(i + 1);
    lineCache.set(sf.fileName, ls);
  }
  return ls;
}
function lineIndex(sf, pos) {
  const ls = lineStarts(sf);
  let lo = 0;
  let hi = ls.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ls[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
function lineOf(sf, pos) {
  return lineIndex(sf, pos) + 1;
}
function byteColumn(sf, pos) {
  const start = lineStarts(sf)[lineIndex(sf, pos)];
  return Buffer.byteLength(sf.text.slice(start, pos), 'utf8') + 1;
}

// ---- target classification -------------------------------------------------------
function relOrNull(fileName) {
  const abs = path.resolve(fileName);
  const r = path.relative(ROOT, abs);
  if (!r || r.startsWith('..') || path.isAbsolute(r)) return null;
  if (r.split(path.sep).includes('node_modules')) return null;
  return r.split(path.sep).join('/');
}

function nodeAt(sf, pos) {
  // Deepest node whose [getStart, end) contains pos.
  let node = sf;
  for (;;) {
    let next = null;
    ts.forEachChild(node, (c) => {
      if (next) return;
      if (c.pos <= pos && pos < c.end && c.getStart(sf) <= pos) next = c;
    });
    if (!next) return node;
    node = next;
  }
}

function isFunctionLike(n) {
  return (
    n &&
    (ts.isFunctionDeclaration(n) ||
      ts.isFunctionExpression(n) ||
      ts.isArrowFunction(n) ||
      ts.isMethodDeclaration(n) ||
      ts.isConstructorDeclaration(n) ||
      ts.isGetAccessorDeclaration(n) ||
      ts.isSetAccessorDeclaration(n))
  );
}

function declOf(nameNode) {
  // The declaration node whose name is nameNode (or nameNode's nearest
  // declaration ancestor).
  let n = nameNode;
  while (n && !ts.isSourceFile(n)) {
    if (
      ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isMethodSignature(n) ||
      ts.isClassDeclaration(n) || ts.isClassExpression(n) || ts.isInterfaceDeclaration(n) ||
      ts.isConstructorDeclaration(n) || ts.isVariableDeclaration(n) || ts.isParameter(n) ||
      ts.isPropertyDeclaration(n) || ts.isPropertySignature(n) || ts.isPropertyAssignment(n) ||
      ts.isShorthandPropertyAssignment(n) || ts.isGetAccessorDeclaration(n) ||
      ts.isSetAccessorDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n) ||
      ts.isEnumMember(n) || ts.isModuleDeclaration(n) || ts.isImportSpecifier(n) ||
      ts.isImportClause(n) || ts.isNamespaceImport(n) || ts.isImportEqualsDeclaration(n) ||
      ts.isExportSpecifier(n) || ts.isBindingElement(n) || ts.isFunctionExpression(n) ||
      ts.isCallSignatureDeclaration(n) || ts.isConstructSignatureDeclaration(n) || ts.isIndexSignatureDeclaration(n)
    )
      return n;
    n = n.parent;
  }
  return null;
}

function isFunctionValue(init) {
  while (init && (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression?.(init)))
    init = init.expression;
  return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
}

function classify(decl) {
  if (!decl) return 'other';
  if (ts.isFunctionDeclaration(decl) || ts.isFunctionExpression(decl)) return 'function';
  if (ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl) || ts.isGetAccessorDeclaration(decl) || ts.isSetAccessorDeclaration(decl))
    return 'method';
  if (ts.isCallSignatureDeclaration(decl) || ts.isConstructSignatureDeclaration(decl)) return 'method';
  if (ts.isClassDeclaration(decl) || ts.isClassExpression(decl) || ts.isConstructorDeclaration(decl)) return 'class';
  if (ts.isInterfaceDeclaration(decl)) return 'interface';
  if (ts.isTypeAliasDeclaration(decl)) return 'type';
  if (ts.isEnumDeclaration(decl) || ts.isEnumMember(decl)) return 'enum';
  if (ts.isModuleDeclaration(decl)) return 'module';
  if (ts.isParameter(decl)) return 'parameter';
  if (ts.isImportSpecifier(decl) || ts.isImportClause(decl) || ts.isNamespaceImport(decl) || ts.isImportEqualsDeclaration(decl) || ts.isExportSpecifier(decl))
    return 'import';
  if (ts.isVariableDeclaration(decl)) return isFunctionValue(decl.initializer) ? 'function' : 'variable';
  if (ts.isBindingElement(decl)) return 'variable';
  if (ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl))
    return isFunctionValue(decl.initializer) ? 'method' : 'property';
  if (ts.isPropertySignature(decl) || ts.isShorthandPropertyAssignment(decl)) return 'property';
  return 'other';
}

function isLocal(decl) {
  if (!decl) return false;
  if (ts.isParameter(decl)) return true;
  if (ts.isVariableDeclaration(decl) || ts.isBindingElement(decl)) {
    for (let n = decl.parent; n && !ts.isSourceFile(n); n = n.parent) {
      if (isFunctionLike(n)) return true;
      if (ts.isClassLike(n) || ts.isModuleBlock(n)) return false;
    }
  }
  return false;
}

const checker = program.getTypeChecker();
const declOfTarget = new WeakMap();

function isOverloadable(n) {
  return n && (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isMethodSignature(n));
}

function overloadSiblings(t) {
  const info = declOfTarget.get(t);
  if (!info || !isOverloadable(info.decl) || !info.decl.name) return [];
  const sym = checker.getSymbolAtLocation(info.decl.name);
  const out = [];
  for (const d of sym?.declarations || []) {
    if (d === info.decl || d.kind !== info.decl.kind || !d.name) continue;
    const dsf = d.getSourceFile();
    const o = {
      file: t.file,
      line: lineOf(dsf, d.name.getStart(dsf)),
      decl_start_line: lineOf(dsf, d.getStart(dsf)),
      decl_end_line: lineOf(dsf, Math.max(d.getStart(dsf), d.end - 1)),
      name: t.name,
      kind: t.kind,
      local: t.local,
      overload: true,
    };
    if (dsf.fileName !== info.sf.fileName) o.file = relOrNull(dsf.fileName);
    if (o.file === null || t.file === null) {
      o.file = null;
      o.ext = path.basename(dsf.fileName);
    }
    out.push(o);
  }
  return out;
}

function makeTarget(def) {
  const tsf = program.getSourceFile(def.fileName);
  const external =
    !tsf || program.isSourceFileDefaultLibrary(tsf) || program.isSourceFileFromExternalLibrary(tsf) || relOrNull(def.fileName) === null;
  let decl = null;
  if (tsf) decl = declOf(nodeAt(tsf, def.textSpan.start));
  const t = {
    file: external ? null : relOrNull(def.fileName),
    line: null,
    decl_start_line: null,
    decl_end_line: null,
    name: def.name,
    kind: classify(decl),
    local: isLocal(decl),
  };
  if (!tsf) return t;
  let nameStart = def.textSpan.start;
  let ctxStart = def.contextSpan ? def.contextSpan.start : def.textSpan.start;
  let ctxEnd = def.contextSpan ? def.contextSpan.start + def.contextSpan.length : def.textSpan.start + def.textSpan.length;
  if (decl && ts.isConstructorDeclaration(decl)) {
    // `new Foo()` lands on Foo's constructor: report the class.
    const cls = decl.parent;
    t.via = 'constructor';
    if (cls.name) {
      nameStart = cls.name.getStart(tsf);
      t.name = cls.name.text;
    } else {
      nameStart = cls.getStart(tsf);
    }
    ctxStart = cls.getStart(tsf);
    ctxEnd = cls.end;
  }
  t.line = lineOf(tsf, nameStart);
  t.decl_start_line = lineOf(tsf, ctxStart);
  t.decl_end_line = lineOf(tsf, Math.max(ctxStart, ctxEnd - 1));
  if (def.failedAliasResolution || (t.kind === 'import' && !external)) {
    // TS stopped at the import: the module did not resolve (absent package).
    t.unresolved_import = true;
    t.file = null;
  }
  if (t.file === null) t.ext = path.basename(def.fileName);
  if (decl) declOfTarget.set(t, { decl, sf: tsf });
  return t;
}

// ---- enumerate call sites ------------------------------------------------------------
const out = fs.openSync(OUT + '.partial', 'w');
const stats = { sites: 0, answered: 0, in_project: 0, external_only: 0, no_answer: 0, skipped: {}, errors: 0, files: 0 };
let buf = [];
function flush() {
  if (buf.length) fs.writeSync(out, buf.join(''));
  buf = [];
}

for (const file of callFiles) {
  const sf = program.getSourceFile(file);
  if (!sf) continue;
  stats.files++;
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  // TypeScript drops a UTF-8 byte order mark; comP's columns count its 3 bytes.
  let bom = 0;
  try {
    const fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(3);
    if (fs.readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) bom = 3;
    fs.closeSync(fd);
  } catch {}
  const stack = [sf];
  const sites = [];
  while (stack.length) {
    const n = stack.pop();
    const isCall = ts.isCallExpression(n);
    const isNew = ts.isNewExpression(n);
    if (isCall || isNew) {
      const callee = n.expression;
      let nameNode = null;
      if (ts.isIdentifier(callee)) nameNode = callee;
      else if (ts.isPropertyAccessExpression(callee)) nameNode = callee.name;
      if (nameNode) sites.push({ nameNode, kind: isNew ? 'new' : 'call' });
      else {
        const k = ts.SyntaxKind[callee.kind];
        stats.skipped[k] = (stats.skipped[k] || 0) + 1;
      }
    }
    const kids = [];
    ts.forEachChild(n, (c) => {
      kids.push(c);
    });
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  sites.sort((a, b) => a.nameNode.getStart(sf) - b.nameNode.getStart(sf));
  for (const { nameNode, kind } of sites) {
    const pos = nameNode.getStart(sf);
    let defs;
    try {
      defs = service.getDefinitionAtPosition(file, pos) || [];
    } catch (e) {
      stats.errors++;
      defs = [];
    }
    const seen = new Set();
    const targets = [];
    const add = (t) => {
      const key = `${t.file}\0${t.ext}\0${t.line}\0${t.name}`;
      if (seen.has(key)) return;
      seen.add(key);
      targets.push(t);
    };
    for (const d of defs) add(makeTarget(d));
    // TS answers with the one overload signature the call resolved to; the
    // other declarations of that function (overloads, implementation) are
    // targets too, since comP cannot pick a signature.
    for (const t of targets.slice()) {
      for (const o of overloadSiblings(t)) add(o);
    }
    stats.sites++;
    if (!targets.length) stats.no_answer++;
    else {
      stats.answered++;
      if (targets.some((t) => t.file !== null)) stats.in_project++;
      else stats.external_only++;
    }
    buf.push(
      JSON.stringify({
        file: rel,
        line: lineOf(sf, pos),
        column: byteColumn(sf, pos) + (lineOf(sf, pos) === 1 ? bom : 0),
        name: nameNode.getText(sf),
        kind,
        targets,
      }) + '\n',
    );
  }
  if (buf.length > 2000) flush();
  if (stats.files % 50 === 0)
    process.stderr.write(`ts_calls: ${stats.files}/${callFiles.length} files, ${stats.sites} call sites, ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
flush();
fs.closeSync(out);
fs.renameSync(OUT + '.partial', OUT);
stats.wall_s = +((Date.now() - t0) / 1000).toFixed(2);
stats.program_s = +((tProgram - t0) / 1000).toFixed(2);
stats.typescript = ts.version;
process.stderr.write(`ts_calls: done ${JSON.stringify(stats)}\n`);
