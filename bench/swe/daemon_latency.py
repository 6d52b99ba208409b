#!/usr/bin/env python3
"""get_context latency through the real MCP daemon, on a bench-swe tree, with
the dataset's own task texts; several comp binaries side by side, alternating.

usage: bench/swe/daemon_latency.py --repo OWNER/NAME [--instance ID] [--dataset polybench-dev]
           [--rounds 3] [--no-watch] [--first-call SECONDS] [--edit] [--tree DIR ...] COMP [COMP...]

Starts `COMP mcp --root TREE` (the tree of --instance, or of the
repository's newest task, as the kit's make_tasks.py/run.py cached it under
$COMP_SWE_CACHE, indexed beforehand), waits for the first answer, then asks
get_context (8,000 tokens) for every task of that repository, `--rounds`
times, and prints p50/p95 of the call as the client sees it, and the daemon's memory after the
queries (RSS, split into anonymous and file-backed pages). The binaries
take turns, round by round, so that load on a shared machine falls on each
alike. Rankings are not scored here (every task runs on one tree): this is
latency only. "Newest" is the highest pull-request number.
--first-call S: instead, per round and binary, a fresh daemon, S seconds
after `initialize` (its first index run done), answers the newest task
once: what an agent's first request costs.
--edit: before each get_context, a comment line is appended to a mid-sized
source file of the tree (the same file each time; put back after each round)
and the call is sent 1 s later, once the daemon's index run is done: an
agent's next request after an edit.
--tree DIR, once per binary: the i-th binary serves the i-th tree (a copy of
the kit's tree, indexed by that binary: two index schemas cannot share one).
"""
import argparse
import glob
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from daemon_bench import Server, edit_target, proc_status_kb  # noqa: E402

# The file an edit goes to: one of the task's language.
EXTENSIONS = {"Python": ".py", "JavaScript": ".js", "TypeScript": ".ts", "Java": ".java"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comps", nargs="+")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--dataset", default="polybench-dev")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-watch", action="store_true")
    ap.add_argument("--instance", help="the task whose tree to serve (default: the newest of the repository)")
    ap.add_argument("--first-call", type=float, metavar="SECONDS")
    ap.add_argument("--edit", action="store_true", help="an edit before each call")
    ap.add_argument("--tree", action="append", default=[], help="the tree of each binary, in order")
    args = ap.parse_args()
    tasks = []
    for name in sorted(glob.glob(os.path.join(args.cache, "tasks", args.dataset, "*.json"))):
        task = json.load(open(name))
        if task.get("repo") == args.repo:
            tasks.append(task)
    if not tasks:
        sys.exit(f"no task of {args.repo} in {args.dataset}")
    chosen = [t for t in tasks if t["instance_id"] == args.instance] if args.instance else \
        [max(tasks, key=lambda t: int(t["instance_id"].rsplit("-", 1)[1]))]
    if not chosen:
        sys.exit(f"no task {args.instance} of {args.repo}")
    tree = os.path.join(args.cache, "trees", args.repo.replace("/", "+"), chosen[0]["base_commit"])
    if args.tree and len(args.tree) != len(args.comps):
        sys.exit("--tree: one per binary")
    trees = dict(zip(args.comps, args.tree)) if args.tree else {comp: tree for comp in args.comps}
    latencies = {comp: [] for comp in args.comps}
    memory = {comp: [] for comp in args.comps}  # after each round's queries
    for _ in range(args.rounds):
        for comp in args.comps:
            root = trees[comp]
            argv = [comp, "mcp", "--root", root, "--log-level", "error"] + (["--no-watch"] if args.no_watch else [])
            server = Server(argv, root)
            server.initialize()
            if args.first_call is not None:
                time.sleep(args.first_call)
                _, elapsed = server.call("get_context", {"task": chosen[0]["problem_statement"], "max_tokens": 8000})
                latencies[comp].append(elapsed * 1000)
                server.close()
                continue
            server.call("get_context", {"task": "warm up"})
            edited = edit_target(root, EXTENSIONS[chosen[0].get("language", "Python")]) if args.edit else None
            original = open(edited, "rb").read() if edited else None
            try:
                for n, task in enumerate(tasks):
                    if edited:
                        with open(edited, "ab") as out:
                            out.write(f"\n{'#' if edited.endswith('.py') else '//'} edit {n}\n".encode())
                        time.sleep(1.0)
                    answer, elapsed = server.call("get_context", {"task": task["problem_statement"], "max_tokens": 8000})
                    if "error" in answer or answer.get("result", {}).get("isError"):
                        sys.exit(f"{comp}: {json.dumps(answer)[:300]}")
                    latencies[comp].append(elapsed * 1000)
            finally:
                if edited:
                    open(edited, "wb").write(original)
            memory[comp].append(proc_status_kb(server.proc.pid, "VmRSS", "RssAnon", "RssFile", "VmHWM"))
            server.close()
    for comp, values in latencies.items():
        values.sort()
        p95 = values[max(0, int(round(0.95 * len(values))) - 1)]
        what = f"first call after {args.first_call:g} s" if args.first_call is not None else f"{len(tasks)} tasks"
        if args.edit:
            what += ", each after an edit"
        print(f"{comp}: {args.repo} at {chosen[0]['instance_id']} ({what} x {args.rounds}, "
              f"watch {'off' if args.no_watch else 'on'}): get_context p50 {statistics.median(values):.0f} ms, "
              f"p95 {p95:.0f} ms, all {', '.join(f'{v:.0f}' for v in values)}")
        if memory[comp]:
            last = memory[comp][-1]
            print(f"  after the queries: RSS {last['VmRSS'] / 1024:.0f} MB (anonymous {last['RssAnon'] / 1024:.0f}, "
                  f"file pages {last['RssFile'] / 1024:.0f}), peak {last['VmHWM'] / 1024:.0f} MB")


if __name__ == "__main__":
    main()
