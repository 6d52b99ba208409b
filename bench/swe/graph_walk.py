#!/usr/bin/env python3
"""Would a personalised PageRank over the file graph rank better?

usage: bench/swe/graph_walk.py COMP [--cache DIR] [--datasets dev,polybench-dev]
                               [--seeds 3,5,8,10,12] [--damping 0.5,0.7,0.85]
                               [--weight 0.05,0.1,0.2,0.3,0.5,1.0] [--keep DIR]

The issue's suggestion (aider's repo map ranks this way): seed a random walk
with restart at comP's strongest files, walk the index's file edges (a file
to the files its references resolve to, `refs.target_path`), and add each
candidate's visit share to its score. comP itself only adds a one-hop boost
(what its eight strongest files use, pipeline.cc step 5).

Takes comP's evidence dumps (learn.py's, COMP_PIPELINE_FEATURES: the 150
best candidates, their scores and the one-hop boost), seeds the walk with the
`--seeds` best candidates by score before that boost (weighted by it), runs
20 steps with restart probability 1 - damping, and re-ranks the 150 with
score + weight * visit share * (the seeds' total score). Prints comP's
Acc@1/Acc@5 per dataset, then each setting's, with the tasks it gains and
loses at 5 (edges followed forwards, and both ways). Reads each tree's
.comp/graph.db read-only; index the trees first. Standard library only.
"""
import argparse
import collections
import os
import sqlite3
import tempfile

import learn


def file_graph(tree):
    """{file: {file it references: references}}, from the index's resolved refs."""
    db = sqlite3.connect(f"file:{os.path.join(tree, '.comp', 'graph.db')}?mode=ro", uri=True)
    edges = collections.defaultdict(dict)
    for source, target, count in db.execute(
            "SELECT file_path, target_path, COUNT(*) FROM refs"
            " WHERE target_path IS NOT NULL AND target_path != file_path GROUP BY 1, 2"):
        edges[source][target] = count
    db.close()
    return edges


def both_ways(edges):
    out = collections.defaultdict(dict)
    for source, targets in edges.items():
        for target, count in targets.items():
            out[source][target] = out[source].get(target, 0) + count
            out[target][source] = out[target].get(source, 0) + count
    return out


def walk(edges, restart, damping, steps=20):
    """Visit shares of a walk that restarts at `restart` ({file: share}, summing
    to 1); an edge weighs its references, at most 4 (as comP's boost)."""
    shares = dict(restart)
    for _ in range(steps):
        moved = collections.defaultdict(float)
        stuck = 0.0
        for node, share in shares.items():
            out = edges.get(node)
            if not out:
                stuck += share
                continue
            total = sum(min(count, 4) for count in out.values())
            for target, count in out.items():
                moved[target] += damping * share * min(count, 4) / total
        for node, share in restart.items():
            moved[node] += (1 - damping) * share + damping * stuck * share
        shares = moved
    return shares


def rank_of_gold(task, edges, seeds, damping, weight):
    rows = task["rows"]
    score = {r["path"]: r["score"] for r in rows}
    if weight > 0:
        before = sorted(((r["score"] - r["graph"], r["path"]) for r in rows), reverse=True)[:seeds]
        total = sum(s for s, _ in before)
        if total > 0:
            restart = {path: s / total for s, path in before}
            for path, share in walk(edges, restart, damping).items():
                if path in score and path not in restart:
                    score[path] += weight * share * total
    gold = {r["path"] for r in rows if r["gold"]}
    order = sorted(score, key=lambda p: (-score[p], p))
    return next((k + 1 for k, p in enumerate(order) if p in gold), None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--datasets", default="dev,polybench-dev")
    ap.add_argument("--seeds", default="3,5,8,10,12")
    ap.add_argument("--damping", default="0.5,0.7,0.85")
    ap.add_argument("--weight", default="0.05,0.1,0.2,0.3,0.5,1.0")
    ap.add_argument("--keep", help="keep the TSV dumps here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out_dir = args.keep or scratch
        os.makedirs(out_dir, exist_ok=True)
        tasks = [t for t in learn.dump(args, out_dir) if t["rows"]]
    graphs = {}
    for t in tasks:
        if t["tree"] not in graphs:
            graphs[t["tree"]] = file_graph(t["tree"])
        t["edges"] = {"forwards": graphs[t["tree"]]}
    for t in tasks:
        t["edges"]["both ways"] = both_ways(t["edges"]["forwards"])

    def at(rank, k):
        return rank is not None and rank <= k

    def line(label, ranks):
        cells = []
        for dataset in sorted({t["dataset"] for t in tasks}):
            ids = [t["id"] for t in tasks if t["dataset"] == dataset]
            cells.append(f"{dataset} Acc@1 {sum(at(ranks[i], 1) for i in ids) / len(ids):.3f}"
                         f" Acc@5 {sum(at(ranks[i], 5) for i in ids) / len(ids):.3f}")
        return f"{label:34s} " + "  ".join(cells)

    base = {t["id"]: rank_of_gold(t, {}, 0, 0, 0) for t in tasks}
    print(line("comP as it is", base))
    for way in ("forwards", "both ways"):
        for seeds in map(int, args.seeds.split(",")):
            for damping in map(float, args.damping.split(",")):
                for weight in map(float, args.weight.split(",")):
                    ranks = {t["id"]: rank_of_gold(t, t["edges"][way], seeds, damping, weight) for t in tasks}
                    gained = sorted(i for i in ranks if at(ranks[i], 5) and not at(base[i], 5))
                    lost = sorted(i for i in ranks if at(base[i], 5) and not at(ranks[i], 5))
                    print(line(f"{way} seeds {seeds} d {damping} w {weight}", ranks),
                          f" +{len(gained)} -{len(lost)}", " ".join(gained), "|", " ".join(lost), flush=True)


if __name__ == "__main__":
    main()
