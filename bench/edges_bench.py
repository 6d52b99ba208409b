#!/usr/bin/env python3
"""The cost of dependency edges, and the speed of graph queries.

usage: bench/edges_bench.py COMP TREE [TREE ...] [--runs N]

For each tree (a source checkout; its .comp/ is replaced):
  1. cold `comp index --no-edges` vs cold `comp index` (same run, alternating,
     best of N): the cost of extracting, storing and resolving references;
  2. one-file updates: append a comment to a leaf file (few dependents) and to
     the file whose symbols have the most dependents, then `comp index`; the
     whole process time and the re-resolution time it reports;
  3. `comp symbol <id>` for the symbol with the most dependents (depth 1) and
     `comp dependents <file>` for the file with the most symbols, warm, N
     runs: whole-process wall time (process start included).
Edits are undone afterwards (the original bytes and mtime are restored).
Prints a Markdown table.
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"edges_bench: {' '.join(cmd)} failed: {proc.stderr[:400]}")
    return elapsed, proc.stdout


def cold(comp, tree, edges):
    shutil.rmtree(os.path.join(tree, ".comp"), ignore_errors=True)
    cmd = [comp, "index", "--root", tree, "--json"] + ([] if edges else ["--no-edges"])
    elapsed, out = run(cmd)
    return elapsed, json.loads(out)


def query_db(tree, sql):
    db = sqlite3.connect(f"file:{os.path.join(tree, '.comp', 'graph.db')}?mode=ro", uri=True)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def one_file_update(comp, tree, rel):
    path = os.path.join(tree, rel)
    with open(path, "rb") as f:
        original = f.read()
    stat = os.stat(path)
    comment = b"\n# comp-bench\n" if rel.endswith(".py") else b"\n// comp-bench\n"
    try:
        with open(path, "ab") as f:
            f.write(comment)
        elapsed, out = run([comp, "index", "--root", tree, "--json"])
        summary = json.loads(out)
    finally:
        with open(path, "wb") as f:
            f.write(original)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        run([comp, "index", "--root", tree, "--json"])
    return elapsed, summary["references"]["seconds"], summary["references"]["resolved_this_run"]


def warm(cmd, runs):
    times = []
    for _ in range(runs):
        elapsed, _ = run(cmd)
        times.append(elapsed)
    times.sort()
    return times[0], times[len(times) // 2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("comp")
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    comp = os.path.abspath(args.comp)
    rows = []
    for tree in args.trees:
        tree = os.path.abspath(tree)
        name = os.path.basename(tree.rstrip("/"))
        without, with_edges = [], []
        for _ in range(args.runs):
            without.append(cold(comp, tree, False)[0])
            elapsed, summary = cold(comp, tree, True)
            with_edges.append(elapsed)
        resolve_seconds = summary["references"]["seconds"]
        refs = summary["references"]["resolved_this_run"]
        hub = query_db(tree, "SELECT n.file_path, count(*) c FROM refs r JOIN nodes n ON n.id = r.target "
                             "WHERE n.kind != 'file' GROUP BY n.file_path ORDER BY c DESC LIMIT 1")[0][0]
        leaf = query_db(tree, "SELECT f.path FROM files f WHERE f.language IN ('python', 'typescript', 'javascript', "
                              "'go', 'rust', 'java') AND f.symbol_count BETWEEN 3 AND 20 AND NOT EXISTS (SELECT 1 "
                              "FROM refs r JOIN nodes n ON n.id = r.target WHERE n.file_path = f.path) "
                              "ORDER BY f.path LIMIT 1")
        leaf = leaf[0][0] if leaf else hub
        leaf_update = one_file_update(comp, tree, leaf)
        hub_update = one_file_update(comp, tree, hub)
        top = query_db(tree, "SELECT target, count(DISTINCT from_node) c FROM refs WHERE target IS NOT NULL "
                             "AND target LIKE '%::%' GROUP BY target ORDER BY c DESC LIMIT 1")[0]
        biggest = query_db(tree, "SELECT path, symbol_count FROM files ORDER BY symbol_count DESC LIMIT 1")[0]
        symbol = warm([comp, "symbol", top[0], "--depth", "1", "--limit", "100000", "--root", tree], args.runs * 2)
        dependents = warm([comp, "dependents", biggest[0], "--root", tree], args.runs * 2)
        rows.append((name, min(without), min(with_edges), refs, resolve_seconds, leaf, leaf_update, hub, hub_update,
                     top, symbol, biggest, dependents))
    print("| tree | cold --no-edges | cold with edges | ratio | references | resolution |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r[0]} | {r[1]:.2f} s | {r[2]:.2f} s | {r[2] / r[1]:.2f}x | {r[3]:,} | {r[4]:.2f} s |")
    print()
    print("| tree | one-file update | whole process | re-resolution | references re-resolved |")
    print("| --- | --- | ---: | ---: | ---: |")
    for r in rows:
        for label, path, (elapsed, seconds, count) in (("leaf", r[5], r[6]), ("hub", r[7], r[8])):
            print(f"| {r[0]} | {label} `{path}` | {elapsed * 1000:.0f} ms | {seconds * 1000:.0f} ms | {count:,} |")
    print()
    print("| tree | query | dependents / symbols | min | median |")
    print("| --- | --- | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r[0]} | `comp symbol {r[9][0]}` | {r[9][1]:,} | {r[10][0] * 1000:.1f} ms | {r[10][1] * 1000:.1f} ms |")
        print(f"| {r[0]} | `comp dependents {r[11][0]}` | {r[11][1]:,} | {r[12][0] * 1000:.1f} ms | {r[12][1] * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
