#!/usr/bin/env python3
"""How soon `comp mcp` follows an edit, two comp binaries side by side in the same run.

On a copy of each tree (indexed once), each binary in turn (alternating, --rounds times)
starts `comp mcp`, waits for its first runs, then for each of --edits edits:
  visible   a function is appended to a mid-sized source file of the tree's main language;
            time until search_code lists that function in that file (polled every 10 ms)
  answered  another function is appended; 50 ms later (an agent's next call) get_context
            is sent: time until its answer, which waits for the index run (8,000 tokens)
  run       the daemon's own index run after each edit, from its log ("indexed: ... in X s")
With --import-edits, the first write of each edit also adds an import line the
file lacks (taken from a file of the same folder, above its first import) and
the second removes it: the file's imports change each time, so each run
re-resolves what may depend on them.
With --new-files, each edit instead adds a file beside it (the function, under
the file's own package line for Java and Go): "visible" is until search_code
lists it in the new file, "answered" is get_context sent 50 ms after the new
file is deleted again (both re-resolve the imports that may name the file).
The file is restored after each edit. Each binary works on its own copy of the
tree, indexed by itself (their index schemas may differ). Prints p50 / p90 per
binary and the ratios first / second (higher: the second is faster).

usage: bench/daemon_edit.py --comp OLD --comp NEW [--edits 10] [--rounds 2] [--import-edits | --new-files]
                           TREE [TREE...]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import Server, edit_target, percentile  # noqa: E402

LANGUAGES = (".py", ".ts", ".tsx", ".js", ".java", ".go", ".rs", ".c")


def main_language(root):
    counts = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        for f in files:
            ext = os.path.splitext(f)[1]
            if ext in LANGUAGES:
                counts[ext] = counts.get(ext, 0) + 1
    return max(counts, key=counts.get)


def function_text(ext, name):
    if ext == ".py":
        return f"\n\ndef {name}():\n    return 2\n"
    if ext == ".java":
        return f"\nclass {name.capitalize()}Holder {{ static int {name}() {{ return 2; }} }}\n"
    if ext == ".go":
        return f"\nfunc {name}() int {{ return 2 }}\n"
    if ext == ".rs":
        return f"\npub fn {name}() -> i32 {{ 2 }}\n"
    if ext == ".c":
        return f"\nint {name}(void) {{ return 2; }}\n"
    return f"\nexport function {name}() {{ return 2; }}\n"


IMPORT_LINE = re.compile(r"^(import |from \S+ import |use |#include )")


def new_import(target):
    """An import line of a sibling file that `target` lacks, or None."""
    with open(target, errors="replace") as f:
        own = set(line for line in f if IMPORT_LINE.match(line))
    folder = os.path.dirname(target)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if path == target or os.path.splitext(name)[1] != os.path.splitext(target)[1] or not os.path.isfile(path):
            continue
        with open(path, errors="replace") as f:
            for line in f:
                if IMPORT_LINE.match(line) and line.endswith("\n") and line not in own:
                    return line
    return None


def edited(text, addition, extra_import):
    """`text` with `addition` appended and `extra_import` (when given) above its first import."""
    if extra_import:
        lines = text.splitlines(keepends=True)
        at = next((i for i, line in enumerate(lines) if IMPORT_LINE.match(line)), 0)
        lines.insert(at, extra_import)
        text = "".join(lines)
    return text + addition


PACKAGE_LINE = re.compile(r"^package [\w.]+;?\s*$")


def new_file_text(original, ext, name):
    """A new file's text: the function, under `original`'s package line (Java, Go)."""
    package = next((line for line in original.splitlines(keepends=True) if PACKAGE_LINE.match(line)), "")
    if package and not package.endswith("\n"):
        package += "\n"
    return package + function_text(ext, name)


def measure(comp, tree, ext, target, edits, tag, extra_import=None, new_files=False):
    log = tempfile.NamedTemporaryFile(prefix="comp-edit-", suffix=".log", delete=False)
    server = Server([comp, "mcp", "--root", tree, "--log-level", "info"], tree, stderr=log)
    server.initialize()
    server.call("search_code", {"query": "zz_warm_up"})  # waits for the first index
    time.sleep(3)  # the catch-up run after the watches are in place
    with open(target) as f:
        original = f.read()
    rel_target = os.path.relpath(target, tree)
    visible, answered = [], []
    new_path = None
    try:
        for i in range(edits):
            name = f"zz_edit_{tag}_{i}_{os.getpid()}"
            new_path = os.path.join(os.path.dirname(target), f"Zz{name.title().replace('_', '')}{ext}")
            written = time.perf_counter()
            if new_files:
                with open(new_path, "w") as out:
                    out.write(new_file_text(original, ext, name))
                rel_new = os.path.relpath(new_path, tree)
            else:
                with open(target, "w") as out:
                    out.write(edited(original, function_text(ext, name), extra_import))
                rel_new = rel_target
            while time.perf_counter() - written < 10:
                answer, _ = server.call("search_code", {"query": name})
                symbols = answer.get("result", {}).get("structuredContent", {}).get("symbols", [])
                if any(s.get("name") == name and s.get("file") == rel_new for s in symbols):
                    visible.append((time.perf_counter() - written) * 1000)
                    break
                time.sleep(0.01)
            time.sleep(0.3)
            if new_files:
                os.unlink(new_path)
            else:
                with open(target, "w") as out:
                    # With --import-edits the added import goes again: the imports change twice.
                    out.write(edited(original, function_text(ext, name) + function_text(ext, name + "_again"), None))
            time.sleep(0.05)
            _, elapsed = server.call("get_context", {"task": f"{name}_again returns the wrong value",
                                                     "max_tokens": 8000})
            answered.append(elapsed * 1000)
            with open(target, "w") as out:
                out.write(original)
            time.sleep(0.5)
    finally:
        with open(target, "w") as out:
            out.write(original)
        if new_path and os.path.exists(new_path):
            os.unlink(new_path)
        server.close()
        log.close()
    runs = []
    with open(log.name) as f:
        for line in f:
            found = re.search(r"indexed: .* in ([0-9.]+) s", line)
            if found:
                runs.append(float(found.group(1)) * 1000)
    os.unlink(log.name)
    return visible, answered, runs


def summary(values):
    if not values:
        return "-"
    return f"{statistics.median(values):.0f} / {percentile(values, 0.9):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", action="append", required=True, help="a comp binary (twice: old, then new)")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--import-edits", action="store_true", help="each write also changes the file's imports")
    parser.add_argument("--new-files", action="store_true", help="each edit adds a file beside the target, then deletes it")
    parser.add_argument("trees", nargs="+")
    args = parser.parse_args()
    binaries = [os.path.abspath(b) for b in args.comp]
    print("| tree | files | binary | visible p50 / p90 ms | answered p50 / p90 ms | index run p50 / p90 ms |")
    print("|---|---:|---|---|---|---|")
    ratios = []
    for source in args.trees:
        work = tempfile.mkdtemp(prefix="comp-edit-bench-")
        label = os.path.basename(source.rstrip("/"))
        if re.fullmatch(r"[0-9a-f]{40}", label):  # a bench-swe tree: owner+name/commit
            label = os.path.basename(os.path.dirname(source.rstrip("/"))) + "@" + label[:7]
        trees = {}
        try:
            for i, b in enumerate(binaries):
                trees[b] = os.path.join(work, str(i), label)
                shutil.copytree(source, trees[b], symlinks=True, ignore=shutil.ignore_patterns(".comp", ".git"))
                subprocess.run([b, "index", "--root", trees[b]], check=True, capture_output=True)
            tree = trees[binaries[0]]
            files = sum(len(f) for _, _, f in os.walk(tree))
            ext = main_language(tree)
            target = os.path.relpath(edit_target(tree, ext), tree)
            extra_import = new_import(os.path.join(tree, target)) if args.import_edits else None
            if args.import_edits:
                print(f"<!-- {label}: {target} gains {extra_import!r} -->")
            results = {b: ([], [], []) for b in binaries}
            for r in range(args.rounds):
                for b in binaries:
                    v, a, run = measure(b, trees[b], ext, os.path.join(trees[b], target), args.edits, f"{r}",
                                        extra_import, args.new_files)
                    results[b][0].extend(v)
                    results[b][1].extend(a)
                    results[b][2].extend(run)
            for b in binaries:
                v, a, run = results[b]
                print(f"| {os.path.basename(tree)} | {files} | {os.path.basename(b)} | {summary(v)} | {summary(a)} | {summary(run)} |")
            if len(binaries) == 2:
                old, new = results[binaries[0]], results[binaries[1]]
                ratios.append((os.path.basename(tree), *[
                    statistics.median(o) / statistics.median(n) if o and n else float("nan") for o, n in zip(old, new)]))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if ratios:
        print("\nfirst / second (p50): visible, answered, index run")
        for name, v, a, run in ratios:
            print(f"  {name}: {v:.1f}x, {a:.1f}x, {run:.1f}x")


if __name__ == "__main__":
    main()
