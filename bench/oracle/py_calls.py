#!/usr/bin/env python3
"""Call-site oracle for Python: pyright's language server over LSP.

    python3 bench/oracle/py_calls.py [--langserver PATH] [--timeout S] ROOT OUT.jsonl

Enumerates every call (``ast.Call``) in the ``.py`` files under ROOT with
Python's own ``ast`` module, independently of comP. The callee's name token
is ``foo`` for ``foo()`` (an ``ast.Name``) and ``foo`` for ``a.b.foo()`` (the
attribute of an ``ast.Attribute``, found at ``end_col_offset - len(attr)`` on
the end line); other callees (``f()()``, ``a[k]()``, ``(lambda: 0)()``) are
skipped and counted. For each site it asks ``textDocument/definition`` of
``pyright-langserver --stdio`` (default: node_modules/.bin/ next to this
script). Files are opened one at a time (didOpen, all of that file's requests
sent at once, responses collected, didClose).

Output: one JSON line per call site, the same format as ts_calls.mjs:
  {"file", "line", "column" (1-indexed UTF-8 byte column of the name token),
   "name", "kind": "call", "targets": [{"file" (null when outside ROOT, in a
   site-packages/typeshed folder, or an import pyright could not follow),
   "line" (line of the declaration's name), "decl_start_line",
   "decl_end_line" (the def/class statement, decorators included, when the
   target is one; else the name's line), "name", "kind", "local"}]}
plus "timeout": true or "error": "..." on sites pyright did not answer.
Target "kind": function|method|class|variable|property|parameter|import|
module|other (from the target file's ast); "local": a parameter, or a
variable bound inside a function body (comP has no node for it); "ext": basename of an external target's file.

LSP positions are UTF-16 code units; they are converted from and to the
UTF-8 byte offsets of ``ast`` exactly. Lines are counted as Python and LSP
count them (``\\r\\n``, ``\\r``, ``\\n``); files with a lone ``\\r`` are
reported on stderr since comP counts ``\\n`` only. Standard library only.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_DIRS = {"node_modules", ".git", ".comp", ".codegraph", ".hg", ".svn", "__pycache__",
             ".tox", ".nox", ".venv", "venv", ".mypy_cache", ".pytest_cache", "site-packages"}
LINE_RE = re.compile(r"\r\n|\r|\n")
NAME_RE = re.compile(r"[^\W\d]\w*")


def log(msg: str) -> None:
    sys.stderr.write(f"py_calls: {msg}\n")
    sys.stderr.flush()


# --------------------------------------------------------------------------- LSP
class LSPError(Exception):
    pass


class LSPClient:
    """A minimal JSON-RPC/LSP client over a child's stdin/stdout."""

    def __init__(self, argv: list[str], settings: dict, verbose: bool = False):
        self.settings = settings
        self.verbose = verbose
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE if not verbose else None)
        self.next_id = 1
        self.responses: dict[int, dict] = {}
        self.cond = threading.Condition()
        self.wlock = threading.Lock()
        self.dead = False
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()
        if not verbose:
            threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        for _ in iter(self.proc.stderr.readline, b""):
            pass

    def _send(self, msg: dict) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        data = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self.wlock:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError) as e:
                raise LSPError(f"server pipe closed: {e}") from e

    def _read_loop(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    k, _, v = line.partition(b":")
                    if k.strip().lower() == b"content-length":
                        length = int(v.strip())
                if length is None:
                    continue
                body = out.read(length)
                if len(body) < length:
                    raise EOFError
                msg = json.loads(body)
                if "method" in msg and "id" in msg:
                    self._answer_server_request(msg)
                elif "id" in msg:
                    with self.cond:
                        self.responses[msg["id"]] = msg
                        self.cond.notify_all()
                elif self.verbose and msg.get("method") == "window/logMessage":
                    log("server: " + msg["params"].get("message", "")[:300])
        except (EOFError, ValueError, OSError):
            pass
        with self.cond:
            self.dead = True
            self.cond.notify_all()

    def _answer_server_request(self, msg: dict) -> None:
        method = msg["method"]
        result = None
        if method == "workspace/configuration":
            result = []
            for item in msg["params"].get("items", []):
                section = item.get("section") or ""
                value = self.settings
                for part in section.split(".") if section else []:
                    value = value.get(part, {}) if isinstance(value, dict) else {}
                result.append(value)
        try:
            self._send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        except LSPError:
            pass

    def request_async(self, method: str, params: dict) -> int:
        rid = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, ids: list[int], deadline: float) -> dict[int, dict]:
        """Responses for ids that arrive before deadline (monotonic)."""
        got: dict[int, dict] = {}
        pending = set(ids)
        with self.cond:
            while pending:
                for rid in list(pending):
                    if rid in self.responses:
                        got[rid] = self.responses.pop(rid)
                        pending.discard(rid)
                if not pending or self.dead:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(min(left, 1.0))
        for rid in pending:
            try:
                self.notify("$/cancelRequest", {"id": rid})
            except LSPError:
                break
        return got

    def request(self, method: str, params: dict, timeout: float) -> dict:
        rid = self.request_async(method, params)
        got = self.wait([rid], time.monotonic() + timeout)
        if rid not in got:
            raise LSPError(f"{method}: no answer in {timeout} s" + (" (server died)" if self.dead else ""))
        return got[rid]

    def close(self) -> None:
        try:
            self.request("shutdown", {}, 10)
            self.notify("exit", {})
        except LSPError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --------------------------------------------------------------------------- text
def path_uri(p: str) -> str:
    return "file://" + urllib.request.pathname2url(p)


def uri_path(u: str) -> str:
    parsed = urllib.parse.urlparse(u)
    return os.path.normpath(urllib.request.url2pathname(parsed.path))


def split_lines(text: str) -> list[str]:
    return LINE_RE.split(text)


def utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def byte_col_to_utf16(line: str, byte_col: int) -> int:
    return utf16_len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))


def utf16_to_index(line: str, units: int) -> int:
    """str index in line of the UTF-16 offset units."""
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def read_text(path: str) -> tuple[bytes, str]:
    with open(path, "rb") as f:
        raw = f.read()
    return raw, raw.decode("utf-8-sig", errors="replace")


# --------------------------------------------------------------------------- ast
def enumerate_calls(tree: ast.AST, lines: list[str], skipped: dict) -> list[dict]:
    sites = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name):
            line, col, name = f.lineno, f.col_offset, f.id
        elif isinstance(f, ast.Attribute) and f.end_lineno is not None:
            line, name = f.end_lineno, f.attr
            col = f.end_col_offset - len(name.encode("utf-8"))
        else:
            k = type(f).__name__
            skipped[k] = skipped.get(k, 0) + 1
            continue
        sites.append({"line": line, "col": col, "name": name})
    sites.sort(key=lambda s: (s["line"], s["col"]))
    return sites


class DeclIndex:
    """(line, name) -> (kind, decl_start_line, decl_end_line, local) for one file."""

    def __init__(self, tree: ast.AST | None):
        self.by_key: dict[tuple[int, str], tuple[str, int, int, bool]] = {}
        if tree is not None:
            self._visit(tree, None, False)

    def _put(self, line, name, kind, start, end, local):
        self.by_key.setdefault((line, name), (kind, start, end, local))

    def _visit(self, node, parent, in_func):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                if isinstance(child, ast.ClassDef):
                    kind = "class"
                else:
                    kind = "method" if isinstance(node, ast.ClassDef) else "function"
                self._put(child.lineno, child.name, kind, start, child.end_lineno, False)
                self._visit(child, node, in_func or not isinstance(child, ast.ClassDef))
                continue
            if isinstance(child, ast.arg):
                self._put(child.lineno, child.arg, "parameter", child.lineno, child.end_lineno, True)
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                self._put(child.lineno, child.id, "variable", child.lineno, child.end_lineno, in_func)
            elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Store):
                self._put(child.end_lineno, child.attr, "property", child.lineno, child.end_lineno, False)
            elif isinstance(child, ast.alias) and hasattr(child, "lineno"):
                name = child.asname or child.name.split(".")[0]
                self._put(child.lineno, name, "import", child.lineno, child.end_lineno, in_func)
                if child.asname is None and "." in child.name:
                    self._put(child.lineno, child.name.split(".")[-1], "import", child.lineno, child.end_lineno, in_func)
            self._visit(child, node, in_func)


def is_external_path(path: str, root: str) -> bool:
    rel = os.path.relpath(path, root)
    if rel.startswith("..") or os.path.isabs(rel):
        return True
    parts = rel.split(os.sep)
    return any(p in ("site-packages", "dist-packages", "typeshed", "typeshed-fallback", "node_modules") for p in parts)


class Targets:
    """Turns LSP locations into oracle targets, caching target files."""

    def __init__(self, root: str):
        self.root = root
        self.files: dict[str, tuple[list[str], DeclIndex | None]] = {}

    def _file(self, path: str, want_index: bool):
        if path not in self.files:
            lines: list[str] = []
            index = None
            try:
                raw, text = read_text(path)
                lines = split_lines(text)
                if want_index:
                    try:
                        index = DeclIndex(ast.parse(raw, filename=path))
                    except (SyntaxError, ValueError):
                        index = DeclIndex(None)
            except OSError:
                pass
            self.files[path] = (lines, index)
        return self.files[path]

    def make(self, loc: dict) -> dict:
        uri = loc.get("targetUri") or loc.get("uri")
        rng = loc.get("targetSelectionRange") or loc.get("range")
        path = uri_path(uri)
        external = is_external_path(path, self.root)
        lines, index = self._file(path, not external)
        s, e = rng["start"], rng["end"]
        name = ""
        if s["line"] < len(lines):
            text = lines[s["line"]]
            a = utf16_to_index(text, s["character"])
            b = utf16_to_index(text, e["character"]) if e["line"] == s["line"] else len(text)
            name = text[a:b]
            # An annotated variable's range spans `x: T = v`: keep the name.
            m = NAME_RE.match(name)
            if m:
                name = m.group(0)
        line = s["line"] + 1
        t = {"file": None if external else os.path.relpath(path, self.root).replace(os.sep, "/"),
             "line": line, "decl_start_line": line, "decl_end_line": line, "name": name,
             "kind": "other", "local": False}
        if s == e and s["line"] == 0 and s["character"] == 0:
            t["kind"] = "module"
        if index is not None:
            hit = index.by_key.get((line, name))
            if hit:
                t["kind"], t["decl_start_line"], t["decl_end_line"], t["local"] = hit
        if t["kind"] == "import" and not external:
            # pyright stopped at the import statement: the module did not resolve.
            t["unresolved_import"] = True
            t["file"] = None
        if t["file"] is None:
            t["ext"] = os.path.basename(path)
        return t


# --------------------------------------------------------------------------- main
def find_files(root: str) -> list[str]:
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not os.path.exists(os.path.join(d, x, "pyvenv.cfg")))
        out.extend(os.path.join(d, f) for f in sorted(files) if f.endswith(".py"))
    return out


def start_server(args, root: str) -> LSPClient:
    settings = {
        "python": {"analysis": {"typeCheckingMode": "off", "diagnosticMode": "openFilesOnly",
                                "autoSearchPaths": True, "useLibraryCodeForTypes": True,
                                "logLevel": "Error"}},
        "pyright": {"disableOrganizeImports": True},
    }
    argv = [args.langserver, "--stdio"]
    client = LSPClient(argv, settings, verbose=args.verbose)
    caps = {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {"definition": {"linkSupport": True},
                         "synchronization": {"didSave": False}},
        "workspace": {"configuration": True, "workspaceFolders": True},
    }
    uri = path_uri(root)
    client.request("initialize", {"processId": os.getpid(), "rootUri": uri, "rootPath": root,
                                  "workspaceFolders": [{"uri": uri, "name": os.path.basename(root)}],
                                  "capabilities": caps, "initializationOptions": {}}, 120)
    client.notify("initialized", {})
    client.notify("workspace/didChangeConfiguration", {"settings": settings})
    return client


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("out")
    ap.add_argument("--langserver", default=os.path.join(HERE, "node_modules", ".bin", "pyright-langserver"))
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per file, plus 0.5 s per call site (default 60)")
    ap.add_argument("--verbose", action="store_true", help="show the server's stderr and log messages")
    args = ap.parse_args()
    root = os.path.realpath(args.root)
    if not os.path.exists(args.langserver):
        log(f"{args.langserver} not found: run `npm install` in {HERE}")
        return 2

    t0 = time.monotonic()
    files = find_files(root)
    log(f"{len(files)} .py files under {root}")
    stats = {"files": 0, "parse_errors": 0, "sites": 0, "answered": 0, "in_project": 0,
             "external_only": 0, "no_answer": 0, "timeouts": 0, "errors": 0, "skipped": {},
             "lone_cr_files": 0, "restarts": 0}
    client = start_server(args, root)
    targets = Targets(root)
    tmp = args.out + ".partial"
    with open(tmp, "w", encoding="utf-8") as out:
        for i, path in enumerate(files, 1):
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                raw, text = read_text(path)
                tree = ast.parse(raw, filename=path)
            except (SyntaxError, ValueError, OSError) as e:
                stats["parse_errors"] += 1
                log(f"skip {rel}: {type(e).__name__}: {e}")
                continue
            stats["files"] += 1
            if re.search(rb"\r(?!\n)", raw):
                stats["lone_cr_files"] += 1
                log(f"warning: {rel} has a lone CR: its lines differ from comP's")
            bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
            lines = split_lines(text)
            sites = enumerate_calls(tree, lines, stats["skipped"])
            if not sites:
                continue
            uri = path_uri(path)
            results: dict[int, dict] = {}
            for attempt in range(2):
                try:
                    if client.dead:
                        raise LSPError("server died")
                    client.notify("textDocument/didOpen", {"textDocument": {
                        "uri": uri, "languageId": "python", "version": 1, "text": text}})
                    ids = []
                    for s in sites:
                        ch = byte_col_to_utf16(lines[s["line"] - 1], s["col"])
                        ids.append(client.request_async("textDocument/definition", {
                            "textDocument": {"uri": uri},
                            "position": {"line": s["line"] - 1, "character": ch}}))
                    got = client.wait(ids, time.monotonic() + args.timeout + 0.5 * len(sites))
                    results = {k: got.get(rid) for k, rid in enumerate(ids)}
                    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
                    break
                except LSPError as e:
                    log(f"{rel}: {e}; restarting the server")
                    stats["restarts"] += 1
                    try:
                        client.proc.kill()
                    except OSError:
                        pass
                    client = start_server(args, root)
                    results = {}
            for k, s in enumerate(sites):
                rec = {"file": rel, "line": s["line"],
                       "column": s["col"] + 1 + (bom if s["line"] == 1 else 0),
                       "name": s["name"], "kind": "call", "targets": []}
                resp = results.get(k)
                if resp is None:
                    rec["timeout"] = True
                    stats["timeouts"] += 1
                elif "error" in resp:
                    rec["error"] = str(resp["error"].get("message", resp["error"]))[:200]
                    stats["errors"] += 1
                else:
                    res = resp.get("result") or []
                    if isinstance(res, dict):
                        res = [res]
                    seen = set()
                    for loc in res:
                        t = targets.make(loc)
                        key = (t["file"], t.get("ext"), t["line"], t["name"])
                        if key not in seen:
                            seen.add(key)
                            rec["targets"].append(t)
                stats["sites"] += 1
                if rec["targets"]:
                    stats["answered"] += 1
                    if any(t["file"] is not None for t in rec["targets"]):
                        stats["in_project"] += 1
                    else:
                        stats["external_only"] += 1
                else:
                    stats["no_answer"] += 1
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
            if i % 20 == 0 or i == len(files):
                log(f"{i}/{len(files)} files, {stats['sites']} call sites, "
                    f"{time.monotonic() - t0:.1f} s")
    client.close()
    os.replace(tmp, args.out)
    stats["wall_s"] = round(time.monotonic() - t0, 2)
    try:
        with open(os.path.join(HERE, "node_modules", "pyright", "package.json")) as f:
            stats["pyright"] = json.load(f)["version"]
    except OSError:
        pass
    log("done " + json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
