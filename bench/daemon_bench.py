#!/usr/bin/env python3
"""comP's daemons beside a peer MCP server, in the same run, on the same tree.

For `comp mcp` and `codegraph mcp` (@optave/codegraph, pinned in bench/peers):
  startup     spawn -> answer to `initialize` (median of 5 cold process starts)
  tools_list  o200k tokens of the whole tools/list answer (what an agent pays every turn)
  lookup      p50/p90 of a symbol lookup tool call over 20 names (comp: search_code,
              codegraph: where), server warm, index built beforehand
  impact      p50 of a blast-radius call (comp: get_symbol, codegraph: fn_impact)
  context     p50/p95 of get_context (comp only: codegraph has no such tool) over 20 tasks
  edit        a function appended to an existing mid-sized source file; time until a lookup
              finds it there (polled every 10 ms)
  fresh       a new file with a new function is written; time until a lookup finds it
              (never, within 10 s, when the server does not watch the tree)
  rss         RSS when idle after the queries (VmRSS), and peak (VmHWM) at the end
Also `comp serve`'s startup. Ratios are peer / comp (higher: comp better).

usage: bench/daemon_bench.py [--comp build/comp] TREE [TREE...]
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CODEGRAPH = os.path.join(HERE, "peers", "node_modules", ".bin", "codegraph")


class Server:
    def __init__(self, argv, cwd, stderr=subprocess.DEVNULL):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, bufsize=0)
        self.buffer = b""
        self.next_id = 0

    def request(self, method, params=None, timeout=120):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                answer = json.loads(line)
                if answer.get("id") == self.next_id:
                    return answer
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                raise RuntimeError(f"{method}: server closed its output")
            self.buffer += chunk
        raise RuntimeError(f"{method}: no answer in {timeout} s")

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def initialize(self):
        answer = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                             "clientInfo": {"name": "bench", "version": "1"}})
        elapsed = time.perf_counter() - self.started
        self.notify("notifications/initialized")
        return answer, elapsed

    def call(self, tool, arguments):
        started = time.perf_counter()
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        return answer, time.perf_counter() - started

    def rss_kb(self):
        return proc_status_kb(self.proc.pid, "VmHWM")["VmHWM"]

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def count_tokens(comp, text):
    """o200k_base tokens of `text`, counted by comp's tokenizer (parity-tested with tiktoken)."""
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "t.txt"), "w") as out:
            out.write(text)
        result = subprocess.run([comp, "file", "t.txt", "--root", root, "--json"], capture_output=True, text=True,
                                check=True)
        return json.loads(result.stdout)["raw_tokens"]


def text_of(answer):
    result = answer.get("result", {})
    return "".join(part.get("text", "") for part in result.get("content", []))


def lists_symbol(answer, name, basename):
    """The lookup's answer lists `name` defined in a file called `basename`. comp's
    structured symbols say so exactly (its Markdown heading echoes the query); a peer
    without them is read as text."""
    structured = answer.get("result", {}).get("structuredContent") or {}
    if "symbols" in structured:
        return any(s.get("name") == name and os.path.basename(s.get("file", "")) == basename
                   for s in structured["symbols"])
    text = text_of(answer)
    return basename in text and name in text and "error" not in answer


def pick_names(comp, tree, count):
    out = subprocess.run([comp, "symbols", "--root", tree, "--kind", "function", "--json"], capture_output=True,
                         text=True, check=True)
    symbols = json.loads(out.stdout)
    by_name = {}
    for symbol in symbols:
        by_name.setdefault(symbol["name"], []).append(symbol)
    unique = sorted(name for name, defs in by_name.items() if len(defs) == 1 and len(name) > 4
                    and "test" not in defs[0]["file"].lower())
    random.Random(7).shuffle(unique)
    return unique[:count]


def proc_status_kb(pid, *keys):
    """The kB fields `keys` of /proc/PID/status (VmRSS, VmHWM: the peak,
    RssAnon, RssFile: a memory-mapped file's pages), 0 for any missing."""
    fields = dict.fromkeys(keys, 0)
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key = line.split(":", 1)[0]
            if key in fields:
                fields[key] = int(line.split()[1])
    return fields


def current_rss_kb(pid):
    return proc_status_kb(pid, "VmRSS")["VmRSS"]


def edit_target(root, ext):
    """A mid-sized source file of the tree, the same for both tools."""
    candidates = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        for f in files:
            if f.endswith(ext) and "test" not in f:
                path = os.path.join(folder, f)
                candidates.append((abs(os.path.getsize(path) - 8000), path))
    return sorted(candidates)[0][1]


def percentile(values, fraction):
    values = sorted(values)
    return values[max(0, int(len(values) * fraction) - 1)] if values else None


def measure(name, argv, cwd, tools, names, comp, language_ext):
    lookup_tool, lookup_arg, impact_tool, impact_arg, context_tool = tools
    starts = []
    for _ in range(5):
        server = Server(argv, cwd)
        _, elapsed = server.initialize()
        starts.append(elapsed * 1000)
        server.close()
    server = Server(argv, cwd)
    server.initialize()
    listing = server.request("tools/list")
    tools_tokens = count_tokens(comp, json.dumps(listing["result"]))
    server.call(lookup_tool, {lookup_arg: names[0]})  # warm-up (and waits for a first index)
    lookups, found = [], 0
    for symbol in names:
        answer, elapsed = server.call(lookup_tool, {lookup_arg: symbol})
        lookups.append(elapsed * 1000)
        found += symbol in text_of(answer)
    impacts = []
    for symbol in names:
        _, elapsed = server.call(impact_tool, {impact_arg: symbol})
        impacts.append(elapsed * 1000)
    contexts = []
    if context_tool:
        for symbol in names:
            _, elapsed = server.call(context_tool, {"task": f"{symbol} gives a wrong result for empty input"})
            contexts.append(elapsed * 1000)
    idle_rss = current_rss_kb(server.proc.pid)
    # A one-file edit: a function appended to an existing source file.
    edited = edit_target(cwd, language_ext)
    edit_name = f"edited_in_place_{name}_{random.randrange(1 << 30)}"
    original = open(edited).read()
    written = time.perf_counter()
    with open(edited, "a") as out:
        out.write(f"\n\ndef {edit_name}():\n    return 2\n" if language_ext == ".py"
                  else f"\nexport function {edit_name}() {{ return 2; }}\n")
    edit_ms = None
    while time.perf_counter() - written < 10:
        answer, _ = server.call(lookup_tool, {lookup_arg: edit_name})
        if lists_symbol(answer, edit_name, os.path.basename(edited)):
            edit_ms = (time.perf_counter() - written) * 1000
            break
        time.sleep(0.01)
    with open(edited, "w") as out:
        out.write(original)
    fresh_name = f"freshly_added_{name}_{random.randrange(1 << 30)}"
    path = os.path.join(cwd, f"zz_bench_fresh_{name}{language_ext}")
    body = f"def {fresh_name}():\n    return 1\n" if language_ext == ".py" else f"export function {fresh_name}() {{ return 1; }}\n"
    written = time.perf_counter()
    with open(path, "w") as out:
        out.write(body)
    fresh_ms = None
    while time.perf_counter() - written < 10:
        answer, _ = server.call(lookup_tool, {lookup_arg: fresh_name})
        if lists_symbol(answer, fresh_name, os.path.basename(path)):
            fresh_ms = (time.perf_counter() - written) * 1000
            break
        time.sleep(0.05)
    os.remove(path)
    rss = server.rss_kb()
    server.close()
    lookups.sort()
    return {"tool": name, "startup_ms": statistics.median(starts), "tools_list_tokens": tools_tokens,
            "lookup_p50_ms": statistics.median(lookups), "lookup_p90_ms": lookups[int(len(lookups) * 0.9) - 1],
            "lookup_found": f"{found}/{len(names)}", "impact_p50_ms": statistics.median(impacts),
            "impact_p95_ms": percentile(impacts, 0.95),
            "context_p50_ms": statistics.median(contexts) if contexts else None,
            "context_p95_ms": percentile(contexts, 0.95), "idle_rss_mb": idle_rss / 1024,
            "edit_ms": edit_ms, "fresh_ms": fresh_ms, "rss_mb": rss / 1024}


def serve_startup(comp, tree):
    starts = []
    for _ in range(5):
        server = Server([comp, "serve", "--root", tree, "--log-level", "error"], tree)
        server.started = time.perf_counter()
        server.request("initialize", {})
        starts.append((time.perf_counter() - server.started) * 1000)
        server.close()
    return statistics.median(starts)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", default=os.path.join(HERE, "..", "build", "comp"))
    parser.add_argument("trees", nargs="+")
    args = parser.parse_args()
    comp = os.path.abspath(args.comp)
    rows = []
    for tree in args.trees:
        label = os.path.basename(os.path.normpath(tree))
        work = tempfile.mkdtemp(prefix=f"daemon-bench-{label}-")
        copy = os.path.join(work, label)
        shutil.copytree(tree, copy, symlinks=True, ignore=shutil.ignore_patterns(".comp", ".codegraph"))
        print(f"{label}: indexing with both tools", file=sys.stderr)
        subprocess.run([comp, "index", "--root", copy], check=True, capture_output=True)
        subprocess.run([CODEGRAPH, "build", copy], check=True, capture_output=True, cwd=copy)
        names = pick_names(comp, copy, 20)
        ext = ".py" if any(f.endswith(".py") for _, _, files in os.walk(copy) for f in files[:50]) else ".ts"
        comp_row = measure("comp", [comp, "mcp", "--root", copy, "--log-level", "error"], copy,
                           ("search_code", "query", "get_symbol", "name", "get_context"), names, comp, ext)
        peer_row = measure("codegraph", [CODEGRAPH, "mcp", "-d", os.path.join(copy, ".codegraph", "graph.db")], copy,
                           ("where", "target", "fn_impact", "name", None), names, comp, ext)
        comp_row["serve_startup_ms"] = serve_startup(comp, copy)
        for row in (comp_row, peer_row):
            row["repo"] = label
            print(json.dumps(row))
            rows.append(row)
        shutil.rmtree(work, ignore_errors=True)
    print("\n| repo | tool | startup ms | tools/list tokens | lookup p50 / p90 ms | found | impact p50 / p95 ms "
          "| get_context p50 / p95 ms | one-file edit visible | new file visible | idle / peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ms = lambda v: f"{v:.0f} ms" if v is not None else "not within 10 s"
    for row in rows:
        context = (f"{row['context_p50_ms']:.0f} / {row['context_p95_ms']:.0f}" if row["context_p50_ms"] is not None
                   else "(no such tool)")
        print(f"| {row['repo']} | {row['tool']} | {row['startup_ms']:.0f} | {row['tools_list_tokens']} | "
              f"{row['lookup_p50_ms']:.1f} / {row['lookup_p90_ms']:.1f} | {row['lookup_found']} | "
              f"{row['impact_p50_ms']:.1f} / {row['impact_p95_ms']:.1f} | {context} | {ms(row['edit_ms'])} | "
              f"{ms(row['fresh_ms'])} | {row['idle_rss_mb']:.0f} / {row['rss_mb']:.0f} |")
    for comp_row, peer_row in zip(rows[0::2], rows[1::2]):
        print(f"{comp_row['repo']}: codegraph/comp startup {peer_row['startup_ms'] / comp_row['startup_ms']:.1f}x, "
              f"tools/list {peer_row['tools_list_tokens'] / comp_row['tools_list_tokens']:.1f}x, "
              f"lookup p50 {peer_row['lookup_p50_ms'] / comp_row['lookup_p50_ms']:.1f}x, "
              f"impact p50 {peer_row['impact_p50_ms'] / comp_row['impact_p50_ms']:.1f}x; "
              f"comp serve startup {comp_row['serve_startup_ms']:.0f} ms")


if __name__ == "__main__":
    main()
