#!/usr/bin/env python3
"""Would learned weights over comP's evidence rank better than the tuned ones?

usage: bench/swe/learn.py COMP [--cache DIR] [--datasets dev,polybench-dev]
                          [--l2 0.01] [--iterations 300] [--keep DIR]

Runs `comp query --no-refresh` on every task of the public dev sets with
COMP_PIPELINE_FEATURES set, so that comP writes the evidence of its 150 best
candidates (one TSV line each: path, score, the unweighted evidence parts,
title and name coverage, graph boost, test/example/vendored/parsed flags,
log file size). Then fits a linear re-ranker of those 150 (a listwise softmax
loss on the gold files, L2 towards comP's own score) and prints Acc@k for:
comP as it is, the model fitted on all tasks (an upper bound: it has seen
the answers), and leave-one-repository-out cross-validation (each
repository's tasks ranked by a model fitted on the other repositories: the
honest estimate). Index the trees first (the kit's run.py or `comp index`).
Pure standard library; a run takes a few minutes.
"""
import argparse
import ast
import concurrent.futures
import json
import math
import os
import subprocess
import tempfile

PARTS = ["names", "words", "title", "symbol_title", "symbols", "path_mention", "file_name", "frame", "modules", "tag",
         "quoted", "code"]  # pipeline.cc enum Part, in order
EXTRA = ["title_coverage", "name_coverage", "graph", "test", "example", "vendored", "parsed", "log_size"]


def gold_of(task):
    gold = task["gold_files"]
    return set(ast.literal_eval(gold) if isinstance(gold, str) else gold)


def dump(args, out_dir):
    jobs = []
    for dataset in args.datasets.split(","):
        task_dir = os.path.join(args.cache, "tasks", dataset)
        for name in sorted(os.listdir(task_dir)):
            if not name.endswith(".json") or name == "index.json":
                continue
            task = json.load(open(os.path.join(task_dir, name)))
            tree = os.path.join(args.cache, "trees", task["repo"].replace("/", "+"), task["base_commit"])
            if os.path.isdir(tree):
                jobs.append((dataset, task, os.path.join(task_dir, name), tree))

    def run(job):
        dataset, task, task_file, tree = job
        features = os.path.join(out_dir, task["instance_id"] + ".tsv")
        env = dict(os.environ, COMP_PIPELINE_FEATURES=features)
        subprocess.run([args.comp, "query", "--root", tree, "--task-file", task_file, "--json", "--no-refresh"],
                       env=env, capture_output=True)
        rows = []
        if os.path.exists(features):
            gold = gold_of(task)
            for line in open(features):
                cells = line.rstrip("\n").split("\t")
                values = dict(zip(["score"] + PARTS + EXTRA, map(float, cells[1:])))
                values["gold"] = cells[0] in gold
                values["path"] = cells[0]
                rows.append(values)
        return {"id": task["instance_id"], "dataset": dataset, "repo": task["repo"], "tree": tree, "rows": rows}

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return list(pool.map(run, jobs))


def features(row):
    coverage = max(row["title_coverage"], 0.0)
    return [math.log(row["score"] + 1e-3), coverage, coverage * coverage, max(row["name_coverage"], 0.0),
            1.0 if row["title_coverage"] < 0 else 0.0, math.log1p(row["graph"]), row["names"], row["words"],
            row["title"], row["symbol_title"], math.sqrt(row["symbols"]),
            min(row["path_mention"] + row["file_name"], 1.0), 1.0 if row["frame"] > 0 else 0.0,
            min(row["modules"], 1.0), min(row["tag"], 1.0), row["test"], row["example"], row["vendored"],
            1.0 - row["parsed"], row["log_size"] / 10]


def fit(tasks, l2, iterations, rate=0.05):
    """Adam on the mean listwise loss -log(sum over gold of softmax); L2 towards (1, 0, ..., 0)."""
    data = [(t["x"], t["y"]) for t in tasks if any(t["y"])]
    n = len(data[0][0][0])
    prior = [1.0] + [0.0] * (n - 1)
    w, m, v = list(prior), [0.0] * n, [0.0] * n
    for step in range(1, iterations + 1):
        grad = [0.0] * n
        for xs, ys in data:
            scores = [sum(a * b for a, b in zip(w, x)) for x in xs]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            total, gold_total = sum(e), sum(p for p, y in zip(e, ys) if y)
            for x, p, y in zip(xs, e, ys):
                c = p / total - (p / gold_total if y else 0.0)
                for k in range(n):
                    grad[k] += c * x[k]
        for k in range(n):
            g = grad[k] / len(data) + l2 * (w[k] - prior[k])
            m[k] = 0.9 * m[k] + 0.1 * g
            v[k] = 0.999 * v[k] + 0.001 * g * g
            w[k] -= rate * (m[k] / (1 - 0.9 ** step)) / (math.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
    return w


def ranks(tasks, w):
    out = {}
    for t in tasks:
        scores = [sum(a * b for a, b in zip(w, x)) for x in t["x"]]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        out[t["id"]] = next((k + 1 for k, i in enumerate(order) if t["y"][i]), None)
    return out


def report(label, tasks, rank_of):
    for dataset in sorted({t["dataset"] for t in tasks}):
        ids = [t["id"] for t in tasks if t["dataset"] == dataset]
        cells = " ".join(f"Acc@{k} {sum(1 for i in ids if rank_of[i] and rank_of[i] <= k) / len(ids):.3f}"
                         for k in (1, 3, 5, 10))
        print(f"{label:28s} {dataset:14s} n={len(ids):3d} {cells}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--datasets", default="dev,polybench-dev")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--keep", help="keep the TSV dumps here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out_dir = args.keep or scratch
        os.makedirs(out_dir, exist_ok=True)
        tasks = dump(args, out_dir)
    for t in tasks:
        t["x"] = [features(r) for r in t["rows"]]
        t["y"] = [r["gold"] for r in t["rows"]]
    tasks = [t for t in tasks if t["rows"]]
    n = len(tasks[0]["x"][0])
    report("comp as it is", tasks, ranks(tasks, [1.0] + [0.0] * (n - 1)))
    report("fitted on all (seen)", tasks, ranks(tasks, fit(tasks, args.l2, args.iterations)))
    cross = {}
    for repo in sorted({t["repo"] for t in tasks}):
        w = fit([t for t in tasks if t["repo"] != repo], args.l2, args.iterations)
        cross.update(ranks([t for t in tasks if t["repo"] == repo], w))
    report("leave-one-repository-out", tasks, cross)


if __name__ == "__main__":
    main()
