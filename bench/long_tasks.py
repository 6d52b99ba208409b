#!/usr/bin/env python3
"""`comp query` on tasks far longer than an issue: what an agent pastes from a
log. Two binaries side by side on one indexed tree.

usage: bench/long_tasks.py OLD NEW --root TREE [--rounds 3]

Writes eight tasks (the same every run: a fixed seed) into a temporary
folder and times `OLD query` and `NEW query` (`--json --no-refresh`) on each,
alternating which goes first, and reports the median wall time, the peak
RSS (the largest of the rounds, from wait4) and NEW/OLD, and whether the two
rankings are the same:

  prose        a title and 200,000 random words (2 MB)
  identifiers  20,000 distinct getXxxValue names
  binary       300,000 random bytes
  frames       a 20,000-frame Python traceback (pkg/mN.py, distinct)
  code         a fenced block of 30,000 assignment lines
  dotted       20,000 dotted names (pkg.mod.name)
  paths        a build log naming 20,000 paths (src/x/y/index.js:12:4)
  js_frames    a 20,000-frame JavaScript stack trace

Index TREE first (`comp index --root TREE`); a large tree shows most (the
per-name and per-path work of a query scales with its files).
"""
import argparse
import json
import os
import random
import statistics
import string
import subprocess
import tempfile
import time


def write_tasks(folder):
    rng = random.Random(1)
    words = ["".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(3, 12))) for _ in range(200000)]
    tasks = {
        "prose": "Crash in parser\n" + " ".join(words),
        "identifiers": "Fix getters\n" + " ".join("get" + w.capitalize() + "Value" for w in words[:20000]),
        "binary": bytes(rng.getrandbits(8) for _ in range(300000)),
        "frames": "Traceback (most recent call last):\n" + "\n".join(
            f'  File "pkg/m{i}.py", line {i}, in f{i}' for i in range(20000)),
        "code": "Code\n```python\n" + "\n".join(f"x{i} = foo{i}(bar{i})" for i in range(30000)) + "\n```",
        "dotted": "Import error\n" + " ".join(f"{a[:5]}.{b[:6]}.{c[:4]}" for a, b, c in zip(words, words[1:], words[2:20002])),
        "paths": "Build log\n" + "\n".join(f"ERROR in src/{a}/{b}/index.js:12:4" for a, b in zip(words[:20000], words[1:])),
        "js_frames": "TypeError\n" + "\n".join(f"    at {a} (/app/src/{b}/{c}.ts:{i}:{i})"
                                                  for i, (a, b, c) in enumerate(zip(words[:20000], words[1:], words[2:]))),
    }
    paths = {}
    for name, text in tasks.items():
        paths[name] = os.path.join(folder, name + ".txt")
        with open(paths[name], "wb") as out:
            out.write(text if isinstance(text, bytes) else text.encode())
    return paths


def run(binary, root, task_file):
    """Wall ms, stdout and peak RSS (kB, the query process's own: wait4) of one query."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen([binary, "query", "--root", root, "--task-file", task_file, "--json", "--no-refresh"],
                                stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.monotonic() - started) * 1000
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{binary} on {task_file}: exit {proc.returncode}: {err.read(200)!r}")
        out.seek(0)
        return wall, out.read(), usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--root", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tasks = write_tasks(folder)
        print(f"{'task':12} {'OLD ms':>8} {'NEW ms':>8} {'NEW/OLD':>8} {'OLD MB':>7} {'NEW MB':>7}  same ranking")
        for name, task_file in tasks.items():
            times = {args.old: [], args.new: []}
            peaks = {args.old: 0, args.new: 0}
            answers = {}
            for round_ in range(args.rounds):
                order = [args.old, args.new] if round_ % 2 == 0 else [args.new, args.old]
                for binary in order:
                    wall, out, peak_kb = run(binary, args.root, task_file)
                    times[binary].append(wall)
                    peaks[binary] = max(peaks[binary], peak_kb)
                    answers[binary] = out
            ranking = {b: [r["path"] for r in json.loads(answers[b])["ranking"]] for b in answers}
            old_ms, new_ms = statistics.median(times[args.old]), statistics.median(times[args.new])
            old_mb, new_mb = peaks[args.old] / 1024, peaks[args.new] / 1024
            print(f"{name:12} {old_ms:8.0f} {new_ms:8.0f} {new_ms / old_ms:8.2f} {old_mb:7.0f} {new_mb:7.0f}  "
                  f"{ranking[args.old] == ranking[args.new]}")


if __name__ == "__main__":
    main()
