#!/usr/bin/env python3
"""`comp query` latency of two binaries side by side on a bench-swe dataset.

usage: bench/swe/query_latency.py OLD NEW [--cache DIR] [--dataset polybench-dev]
                                 [--rounds 1] [--ids ID,...] [--refresh]

Runs `OLD query` and `NEW query` (`--json --no-refresh`; with `--refresh`,
`--json` alone: each query brings the index up to date first, as `comp
query` does by default and the kit runs it) on each task's cached
tree (built by the kit's make_tasks.py/run.py under $COMP_SWE_CACHE; index
the trees first), one after the other, the order alternating from task to
task so that neither binary always meets a warm or a cold cache. Prints, for
each binary, the p50 and p95 of the whole process and of comP's own search
and pack timings, NEW/OLD as ratios, in how many runs NEW was faster, and in
how many tasks the two gave the same ranking and the same pack (the paths
of `pivot_files`, in order; `compare.py` lists what differs). Run on an
otherwise idle machine; a shared one is noisy, so compare ratios from the
same run, never figures across runs.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from cached_tasks import cached_tasks

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from daemon_bench import percentile  # noqa: E402


def query(binary, tree, task_file, refresh):
    started = time.monotonic()
    proc = subprocess.run([binary, "query", "--root", tree, "--task-file", task_file, "--json"] +
                          ([] if refresh else ["--no-refresh"]), capture_output=True, text=True)
    wall_ms = (time.monotonic() - started) * 1000
    if proc.returncode != 0:
        raise RuntimeError(f"{binary} failed on {task_file}: {proc.stderr[:200]}")
    result = json.loads(proc.stdout)
    return {"wall": wall_ms, "search": result["timing_ms"]["search"], "pack": result["timing_ms"]["pack"],
            "ranking": [r["path"] for r in result["ranking"]], "pack_paths": [p["path"] for p in result["pivot_files"]]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--dataset", default="polybench-dev")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--ids", default="")
    ap.add_argument("--refresh", action="store_true", help="each query refreshes the index first (comp query's default)")
    args = ap.parse_args()
    tasks = [(task["instance_id"], tree, task_file)
             for task, task_file, tree in cached_tasks(args.cache, args.dataset, set(filter(None, args.ids.split(","))))
             if os.path.isdir(tree)]
    if not tasks:
        sys.exit(f"no task with a tree under {args.cache}")
    runs = {args.old: [], args.new: []}
    same_ranking, same_pack, turn = set(), set(), 0
    for _ in range(args.rounds):
        for instance_id, tree, task_file in tasks:
            order = [args.old, args.new] if turn % 2 == 0 else [args.new, args.old]
            turn += 1
            answers = {binary: query(binary, tree, task_file, args.refresh) for binary in order}
            for binary in order:
                runs[binary].append(answers[binary])
            if answers[args.old]["ranking"] == answers[args.new]["ranking"]:
                same_ranking.add(instance_id)
            if answers[args.old]["pack_paths"] == answers[args.new]["pack_paths"]:
                same_pack.add(instance_id)
    print(f"{len(tasks)} tasks x {args.rounds} round(s), {args.dataset}{', refresh first' if args.refresh else ''}")
    for measure in ("wall", "search", "pack"):
        old = [r[measure] for r in runs[args.old]]
        new = [r[measure] for r in runs[args.new]]
        faster = sum(n < o for o, n in zip(old, new))
        print(f"{measure:6} ms  OLD p50 {statistics.median(old):6.1f} p95 {percentile(old, 0.95):6.1f} | "
              f"NEW p50 {statistics.median(new):6.1f} p95 {percentile(new, 0.95):6.1f} | "
              f"NEW/OLD p50 {statistics.median(new) / statistics.median(old):.2f} "
              f"p95 {percentile(new, 0.95) / percentile(old, 0.95):.2f} | NEW faster in {faster}/{len(old)}")
    print(f"same ranking: {len(same_ranking)}/{len(tasks)}, same pack (paths, in order): {len(same_pack)}/{len(tasks)}")


if __name__ == "__main__":
    main()
