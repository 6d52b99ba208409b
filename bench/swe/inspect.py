#!/usr/bin/env python3
"""Per-task view of `comp query` on a bench-swe dataset, for tuning.

usage: bench/swe/inspect.py COMP [--cache DIR] [--dataset dev] [--ids ID,...]
                            [--jobs N] [--no-refresh] [--quiet] [--save FILE]
                            [--candidates]

Runs `comp query --json` on each task's cached tree (built by the kit's
make_tasks.py/run.py under $COMP_SWE_CACHE) and prints the gold file's rank,
the files ranked above it with the evidence (`why`), and the task's terms;
then Acc@k overall and per language (polybench-dev) and per repository, and
how often the 8,000-token pack (`pivot_files`) holds a gold file / all of them /
all gold source files, and Acc@k in the pack's order (what the kit scores with
its default `--json-path`, `pivot_files[].path`),
the tokens of gold files it sends and its files (p50), and how many function
bodies it sends in full (`full_bodies`, and in gold files),
and latency (whole `comp query` process, and its own search/pack timings;
run with `--jobs 1` for latency).
`--candidates` also prints, per task and for the tasks missed at 5, the best
gold file's place among the 150 files the pack considers (from comP's
evidence dump, COMP_PIPELINE_FEATURES): a miss whose gold file is there is a
ranking problem, one whose gold file is not needs evidence comP lacks.
`--no-refresh` queries the index as it is (index the trees first with
`comp index`), which makes a tuning round take seconds.
"""
import argparse
import collections
import concurrent.futures
import contextlib
import json
import os
import subprocess
import tempfile
import time

from cached_tasks import cached_tasks


# The kit's source files (bench-swe README, "Tasks and gold files"): the rest
# of polybench-dev's gold files are docs, API JSON and config.
SOURCE_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".java", ".py")


def run_task(args, task, task_file, tree):
    if not os.path.isdir(tree):
        return task, None, "no tree"
    cmd = [args.comp, "query", "--root", tree, "--task-file", task_file, "--json"]
    if args.no_refresh:
        cmd.append("--no-refresh")
    with tempfile.TemporaryDirectory() if args.candidates else contextlib.nullcontext() as scratch:
        features = os.path.join(scratch, "features.tsv") if scratch else None
        env = dict(os.environ, COMP_PIPELINE_FEATURES=features) if features else None
        started = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        wall_ms = (time.monotonic() - started) * 1000
        if proc.returncode != 0:
            return task, None, proc.stderr[:200]
        result = json.loads(proc.stdout)
        result["wall_ms"] = wall_ms
        if features:
            # The files the pack considered, best first (the evidence dump's
            # first column; no dump when comP could not write the file).
            result["candidates"] = []
            if os.path.exists(features):
                with open(features) as dumped:
                    result["candidates"] = [line.split("\t", 1)[0] for line in dumped]
    return task, result, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--dataset", default="dev")
    ap.add_argument("--ids", default="")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-refresh", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="only the summary line per task")
    ap.add_argument("--save", help="write {instance_id: rank} here")
    ap.add_argument("--candidates", action="store_true",
                    help="also the best gold file's place among the 150 files the pack considers "
                         "(COMP_PIPELINE_FEATURES): what any re-ranking of today's evidence could reach; "
                         "the dump reads files, so leave latency to runs without it")
    args = ap.parse_args()
    tasks = cached_tasks(args.cache, args.dataset, set(filter(None, args.ids.split(","))))
    groups = collections.defaultdict(list)
    ranks = {}
    pack_ranks = {}  # instance id -> the first gold file's place in pivot_files
    packs = {}
    bodies = {}  # instance id -> (function bodies sent in full, of them in gold files)
    sent = {}  # instance id -> (tokens of gold files sent, files sent)
    timings = []
    candidate_ranks = {}  # instance id -> the best gold file's place among the considered files (--candidates)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for task, result, error in pool.map(lambda t: run_task(args, *t), tasks):
            if error:
                print(task["instance_id"], "ERROR", error)
                continue
            ranking = [r["path"] for r in result["ranking"]]
            gold = task["gold_files"]
            rank = min((ranking.index(g) + 1 for g in gold if g in ranking), default=None)
            ranks[task["instance_id"]] = rank
            timings.append((result["wall_ms"], result["timing_ms"]["search"], result["timing_ms"]["pack"]))
            groups["language " + task.get("language", "?")].append(rank)
            groups["repo " + task["repo"]].append(rank)
            packed = {p["path"] for p in result["pivot_files"]}
            order = [p["path"] for p in result["pivot_files"]]
            pack_ranks[task["instance_id"]] = min((order.index(g) + 1 for g in gold if g in order), default=None)
            source_gold = [g for g in gold if g.endswith(SOURCE_SUFFIXES)]
            packs[task["instance_id"]] = (any(g in packed for g in gold), all(g in packed for g in gold),
                                          all(g in packed for g in source_gold))
            sent[task["instance_id"]] = (sum(p["token_count"] for p in result["pivot_files"] if p["path"] in gold),
                                         len(result["pivot_files"]))
            bodies[task["instance_id"]] = (sum(len(p.get("full_bodies", [])) for p in result["pivot_files"]),
                                           sum(len(p.get("full_bodies", [])) for p in result["pivot_files"]
                                               if p["path"] in gold))
            among = ""
            if args.candidates:
                considered = result["candidates"]
                candidate_ranks[task["instance_id"]] = min(
                    (considered.index(g) + 1 for g in gold if g in considered), default=None)
                among = f" among_{len(considered)}={candidate_ranks[task['instance_id']]}"
            print(f"{task['instance_id']:40} rank={rank}{among} packed={packs[task['instance_id']][0]} "
                  f"all_packed={packs[task['instance_id']][1]} gold={gold[:4]}")
            if args.quiet or rank == 1:
                continue
            for r in result["ranking"][: max(args.top, (rank or 0))]:
                mark = "*" if r["path"] in gold else " "
                print(f"   {mark} {r['score']:.3f} {r['path']}  {', '.join(r['why'][:5])}")
            terms = result["task_terms"]
            print("     ids:", terms["identifiers"][:15], "paths:", terms["paths"][:5], "dotted:", terms["dotted"][:5])

    def summary(label, values):
        n = len(values)
        acc = lambda k: sum(1 for r in values if r and r <= k) / n
        print(f"{label:40} n={n:3} Acc@1={acc(1):.3f} Acc@3={acc(3):.3f} Acc@5={acc(5):.3f} Acc@10={acc(10):.3f}")

    if ranks:
        for label in sorted(groups):
            summary(label, groups[label])
        summary("all", list(ranks.values()))
        summary("all, in the pack's order", list(pack_ranks.values()))
        for i, name in enumerate(("whole process", "search", "pack")):
            values = sorted(t[i] for t in timings)
            print(f"{name} ms: p50 {values[len(values) // 2]:.0f}, p95 {values[int(len(values) * 0.95)]:.0f}")
        n = len(packs)
        print(f"8,000-token pack holds a gold file: {sum(p[0] for p in packs.values())}/{n}, "
              f"every gold file: {sum(p[1] for p in packs.values())}/{n}, "
              f"every gold source file: {sum(p[2] for p in packs.values())}/{n}")
        files = sorted(f for _, f in sent.values())
        print(f"tokens of gold files sent: {sum(t for t, _ in sent.values())}, files per pack p50: {files[n // 2]}")
        print(f"function bodies sent in full: {sum(a for a, _ in bodies.values())}, "
              f"in gold files: {sum(b for _, b in bodies.values())}")
        if candidate_ranks:
            # A task missed at 5 whose gold file is among the candidates is a
            # ranking problem; one whose gold file is not needs new evidence.
            missed = sorted(((candidate_ranks[i] is None, candidate_ranks[i] or 0), i)
                            for i, r in ranks.items() if not r or r > 5)
            print(f"a gold file among the files the pack considers: "
                  f"{sum(r is not None for r in candidate_ranks.values())}/{n}; "
                  f"missed at 5, the best gold file's place there: "
                  f"{', '.join(str(candidate_ranks[i]) for _, i in missed) or '-'}")
    if args.save:
        json.dump(ranks, open(args.save, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
