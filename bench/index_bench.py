#!/usr/bin/env python3
"""Indexing speed of comp beside its peers, in one run, on the same trees.

For each tree: comp cold index (wall, CPU, peak RSS, MB/s), tree-sitter parse
alone (bench/parse_bench, one thread: the physical ceiling), codegraph's cold
build (when bench/peers is installed), then re-runs on the unchanged tree and
after touching one file, for comp and codegraph. Ratios are printed beside the
numbers; nothing here asserts on time.

  python3 bench/index_bench.py --comp build/comp --parse-bench build/bench/parse_bench \
      --language python /work/bench-data-local/sympy [more trees with --language each]

Trees are modified only inside <tree>/.comp, <tree>/.codegraph and one file
that is appended to and then restored.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENSIONS = {
    "python": (".py",), "typescript": (".ts", ".tsx"), "rust": (".rs",), "go": (".go",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"), "java": (".java",),
}


def measured(argv, cwd=None, env=None):
    """Runs argv with wait4 to get its own CPU time and peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with {proc.returncode}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
            "stdout": out}


def source_bytes(tree, language):
    total, files = 0, 0
    exts = EXTENSIONS.get(language, ())
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".comp", ".codegraph", "node_modules")]
        for name in filenames:
            if name.endswith(exts):
                total += os.path.getsize(os.path.join(dirpath, name))
                files += 1
    return files, total


def pick_file(tree, language):
    exts = EXTENSIONS.get(language, ())
    for dirpath, dirnames, filenames in sorted(os.walk(tree)):
        dirnames.sort()
        if "/." in dirpath[len(tree):]:
            continue
        for name in sorted(filenames):
            if name.endswith(exts):
                return os.path.join(dirpath, name)
    raise SystemExit(f"no {language} file in {tree}")


def touch_one(tree, language, command, reps=5, env=None):
    """Appends a comment line to one file, re-indexes, restores; median wall."""
    path = pick_file(tree, language)
    with open(path, "rb") as f:
        original = f.read()
    comment = b"\n// comp bench\n" if language not in ("python",) else b"\n# comp bench\n"
    walls = []
    try:
        for i in range(reps):
            with open(path, "ab") as f:
                f.write(comment)
            walls.append(measured(command, env=env)["wall_s"])
            with open(path, "wb") as f:
                f.write(original)
            measured(command, env=env)  # index the restored file too, off the clock
    finally:
        with open(path, "wb") as f:
            f.write(original)
    return statistics.median(walls)


def parse_only(parse_bench, tree, language):
    """tree-sitter parsing alone, one thread: CPU seconds for one pass over
    every file comp parses (all languages of the tree), and the MB/s of the
    tree's main language."""
    env = dict(os.environ, COMP_BENCH_TREE=tree)
    result = measured([parse_bench, "--benchmark_filter=^parse_only/", "--benchmark_format=json",
                       "--benchmark_min_time=0.1"], env=env)
    benchmarks = json.loads(result["stdout"])["benchmarks"]
    total = sum(b["cpu_time"] for b in benchmarks) / 1000.0  # ms per pass -> s
    main = next(b for b in benchmarks if b["name"] == f"parse_only/{language}")
    return {"cpu_s": total, "mb_s": main["bytes_per_second"] / 1e6}


def codegraph_command(tree):
    binary = os.path.join(HERE, "peers", "node_modules", ".bin", "codegraph")
    if not os.path.exists(binary):
        return None
    return [binary, "build", tree]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", default="build/comp")
    parser.add_argument("--parse-bench", default="build/bench/parse_bench")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--language", action="append", required=True, help="the main language of each tree, in order")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("trees", nargs="+")
    args = parser.parse_intermixed_args()
    if len(args.language) != len(args.trees):
        parser.error("give one --language per tree")
    comp = os.path.abspath(args.comp)
    results = []
    for tree, language in zip(args.trees, args.language):
        tree = os.path.abspath(tree)
        files, size = source_bytes(tree, language)
        row = {"tree": os.path.basename(tree), "language": language, "files": files, "source_mb": size / 1e6}
        index = [comp, "index", "--root", tree, "--json"] + (["--jobs", str(args.jobs)] if args.jobs else [])
        shutil.rmtree(os.path.join(tree, ".comp"), ignore_errors=True)
        cold = measured(index)
        summary = json.loads(cold["stdout"])
        row["comp_cold"] = {k: cold[k] for k in ("wall_s", "cpu_s", "rss_mb")}
        row["comp_cold"]["mb_s_all"] = summary["bytes_read"] / 1e6 / cold["wall_s"]
        row["comp_cold"]["symbols"] = summary["symbols"]
        db = os.path.join(tree, ".comp", "graph.db")
        row["comp_db_mb"] = (os.path.getsize(db) + sum(os.path.getsize(db + s) for s in ("-wal",) if os.path.exists(db + s))) / 1e6
        row["comp_db_ratio"] = row["comp_db_mb"] * 1e6 / max(summary["bytes_read"], 1)
        row["comp_rerun_s"] = statistics.median(measured(index)["wall_s"] for _ in range(args.reps))
        row["comp_touch_s"] = touch_one(tree, language, index, args.reps)
        row["parse_only"] = parse_only(os.path.abspath(args.parse_bench), tree, language)
        peer = None if args.no_peers else codegraph_command(tree)
        if peer:
            shutil.rmtree(os.path.join(tree, ".codegraph"), ignore_errors=True)
            env = dict(os.environ, NO_UPDATE_CHECK="1", CI="1",
                       CODEGRAPH_REGISTRY_PATH=os.path.join(tree, ".codegraph-registry.json"),
                       CODEGRAPH_UPDATE_CACHE_PATH=os.path.join(tree, ".codegraph-update.json"))
            cg = measured(peer, cwd=tree, env=env)
            row["codegraph_cold"] = {k: cg[k] for k in ("wall_s", "cpu_s", "rss_mb")}
            row["codegraph_rerun_s"] = statistics.median(measured(peer, cwd=tree, env=env)["wall_s"] for _ in range(3))
            row["codegraph_touch_s"] = touch_one(tree, language, peer, 3, env=env)
            cgdb = os.path.join(tree, ".codegraph")
            row["codegraph_db_mb"] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(cgdb) for f in fs) / 1e6
            shutil.rmtree(cgdb, ignore_errors=True)  # leave the tree as comp found it
            for name in (".codegraph-registry.json", ".codegraph-update.json"):
                if os.path.exists(os.path.join(tree, name)):
                    os.remove(os.path.join(tree, name))
        results.append(row)
        print_row(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


def print_row(row):
    c = row["comp_cold"]
    p = row["parse_only"]
    print(f"\n== {row['tree']} ({row['language']}: {row['files']} files, {row['source_mb']:.1f} MB)")
    print(f"comp cold index     {c['wall_s']:7.2f} s wall  {c['cpu_s']:7.2f} s CPU  {c['rss_mb']:6.0f} MB RSS  "
          f"{row['source_mb'] / c['wall_s']:6.1f} MB/s ({row['language']})  {c['mb_s_all']:6.1f} MB/s (all files)  "
          f"{c['symbols']} symbols")
    print(f"parse only (1 core) {p['cpu_s']:7.2f} s CPU (all parsed files)  {p['mb_s']:6.1f} MB/s ({row['language']})"
          f"   comp CPU / parse CPU = "
          f"{c['cpu_s'] / p['cpu_s']:.2f}x")
    print(f"comp re-run         {row['comp_rerun_s'] * 1000:7.1f} ms   one file touched {row['comp_touch_s'] * 1000:7.1f} ms")
    print(f"comp database       {row['comp_db_mb']:7.1f} MB  ({row['comp_db_ratio']:.2f}x the bytes indexed)")
    if "codegraph_cold" in row:
        g = row["codegraph_cold"]
        print(f"codegraph cold      {g['wall_s']:7.2f} s wall  {g['cpu_s']:7.2f} s CPU  {g['rss_mb']:6.0f} MB RSS  "
              f"-> comp is {g['wall_s'] / c['wall_s']:.1f}x faster, {g['rss_mb'] / c['rss_mb']:.1f}x less memory")
        print(f"codegraph re-run    {row['codegraph_rerun_s'] * 1000:7.1f} ms   touched {row['codegraph_touch_s'] * 1000:7.1f} ms"
              f"  -> ratios {row['codegraph_rerun_s'] / row['comp_rerun_s']:.1f}x, "
              f"{row['codegraph_touch_s'] / row['comp_touch_s']:.1f}x")
        print(f"codegraph database  {row['codegraph_db_mb']:7.1f} MB")


if __name__ == "__main__":
    main()
