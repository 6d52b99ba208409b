#!/usr/bin/env python3
"""Per-task view of `comp query` on a bench-swe dataset, for tuning.

usage: bench/swe/inspect.py COMP [--cache DIR] [--dataset dev] [--ids ID,...]

Runs `comp query --json` on each task's cached tree (built by the kit's
make_tasks.py/run.py under $COMP_SWE_CACHE) and prints the gold file's rank,
the files ranked above it with the evidence (`why`), and the task's terms.
"""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--dataset", default="dev")
    ap.add_argument("--ids", default="")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--quiet", action="store_true", help="only the summary line per task")
    args = ap.parse_args()
    task_dir = os.path.join(args.cache, "tasks", args.dataset)
    ids = set(filter(None, args.ids.split(",")))
    ranks = []
    for name in sorted(os.listdir(task_dir)):
        if not name.endswith(".json") or name == "index.json":
            continue
        task = json.load(open(os.path.join(task_dir, name)))
        if ids and task["instance_id"] not in ids:
            continue
        tree = os.path.join(args.cache, "trees", task["repo"].replace("/", "+"), task["base_commit"])
        if not os.path.isdir(tree):
            continue
        proc = subprocess.run([args.comp, "query", "--root", tree, "--task-file", os.path.join(task_dir, name),
                               "--json"], capture_output=True, text=True)
        if proc.returncode != 0:
            print(task["instance_id"], "ERROR", proc.stderr[:200])
            continue
        result = json.loads(proc.stdout)
        ranking = [r["path"] for r in result["ranking"]]
        gold = task["gold_files"]
        rank = min((ranking.index(g) + 1 for g in gold if g in ranking), default=None)
        ranks.append(rank)
        packed = {p["path"] for p in result["pivot_files"]}
        print(f"{task['instance_id']:40} rank={rank} packed={all(g in packed for g in gold)} gold={gold}")
        if args.quiet or rank == 1:
            continue
        for r in result["ranking"][: max(args.top, (rank or 0))]:
            mark = "*" if r["path"] in gold else " "
            print(f"   {mark} {r['score']:.3f} {r['path']}  {', '.join(r['why'][:5])}")
        terms = result["task_terms"]
        print("     ids:", terms["identifiers"][:15], "paths:", terms["paths"][:5], "dotted:", terms["dotted"][:5])
    n = len(ranks)
    if n:
        acc = lambda k: sum(1 for r in ranks if r and r <= k) / n
        print(f"n={n} Acc@1={acc(1):.3f} Acc@5={acc(5):.3f} Acc@10={acc(10):.3f}")


if __name__ == "__main__":
    main()
