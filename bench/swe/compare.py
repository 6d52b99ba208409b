#!/usr/bin/env python3
"""Two comp binaries on every task of the public dev sets, answer by answer.

usage: bench/swe/compare.py OLD NEW [--datasets dev,polybench-dev] [--jobs 2]

Runs `comp query --json --no-refresh` with each binary on each task's cached
tree (index the trees first) and reports, per task, where the answers differ:
the gold file's rank, the ranked paths, the scores (to 6 decimals) and the
evidence (`why`), and the pack (`pivot_files` paths and contents). Timings
are ignored. Use it to show that a change meant to be faster, or safer,
leaves the answers as they were, or to list exactly what it moved.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess


def answer(comp, cache, path):
    task = json.load(open(path))
    tree = os.path.join(cache, "trees", task["repo"].replace("/", "+"), task["base_commit"])
    proc = subprocess.run([comp, "query", "--root", tree, "--task-file", path, "--json", "--no-refresh"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return task, {"error": proc.stderr[:200]}
    result = json.loads(proc.stdout)
    result.pop("timing_ms", None)
    return task, result


def gold_rank(result, gold):
    for i, ranked in enumerate(result.get("ranking", [])):
        if ranked["path"] in gold:
            return i + 1
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--datasets", default="dev,polybench-dev")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    paths = [p for dataset in args.datasets.split(",")
             for p in sorted(glob.glob(os.path.join(args.cache, "tasks", dataset, "*.json")))
             if not p.endswith("index.json")]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        old = list(pool.map(lambda p: answer(args.old, args.cache, p), paths))
        new = list(pool.map(lambda p: answer(args.new, args.cache, p), paths))
    counts = {"same": 0, "gold rank": 0, "ranked paths": 0, "scores or evidence": 0, "pack": 0, "error": 0}
    for (task, a), (_, b) in zip(old, new):
        name = task["instance_id"]
        if "error" in a or "error" in b:
            counts["error"] += 1
            print(f"{name}: error: {a.get('error') or b.get('error')}")
            continue
        gold = set(task["gold_files"])
        ra, rb = gold_rank(a, gold), gold_rank(b, gold)
        pa, pb = [r["path"] for r in a["ranking"]], [r["path"] for r in b["ranking"]]
        sa = [(r["path"], round(r.get("score", 0), 6), tuple(r.get("why", []))) for r in a["ranking"]]
        sb = [(r["path"], round(r.get("score", 0), 6), tuple(r.get("why", []))) for r in b["ranking"]]
        packs = [[(p["path"], p.get("content")) for p in r["pivot_files"]] for r in (a, b)]
        if ra != rb:
            counts["gold rank"] += 1
            print(f"{name}: gold rank {ra} -> {rb}")
        if pa != pb:
            counts["ranked paths"] += 1
            first = next(i for i, (x, y) in enumerate(zip(pa + [None] * 99, pb + [None] * 99)) if x != y)
            print(f"{name}: ranking differs from rank {first + 1}")
        elif sa != sb:
            counts["scores or evidence"] += 1
        if packs[0] != packs[1]:
            counts["pack"] += 1
            print(f"{name}: pack differs")
        if ra == rb and pa == pb and sa == sb and packs[0] == packs[1]:
            counts["same"] += 1
    print(f"{len(paths)} tasks: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
