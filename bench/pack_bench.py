#!/usr/bin/env python3
"""`comp pack --level 2` (cold and warm) beside `repomix --compress`, same files, in one run.

    bench/pack_bench.py [--comp PATH] [--bench-bin PATH] [--repomix PATH] [--repeat N]
                        [--jobs 1,2] [--check-tokens] [--out DIR] TREE...

Per TREE (each timing is the fastest of --repeat runs, wall clock):
  repomix     repomix --compress over exactly comP's files (the include globs of
              compress_bench.py: `compress_bench TREE --print-files`, by extension).
  cold        rm -rf TREE/.comp; `comp index --jobs J` + `comp pack --level 2
              --jobs J --no-refresh` (a first index, then every file compressed
              once and cached), for each J of --jobs.
  pack-empty  on the indexed tree, the cache emptied (DELETE FROM compressed):
              `comp pack --level 2 --jobs J` (with its refresh: an unchanged walk).
  warm        `comp pack --level 2` again: index unchanged, every file cached.
  edit        one source file gets one more trailing newline (new content, new
              hash), then `comp pack --level 2`: the refresh re-indexes it and it
              is the one cache miss. The file is restored afterwards.
Tokens: the pack's own summary (o200k_base, level 0 and level 2); with
--check-tokens also compress_bench's level-2 total over the same files (must be
equal). Database growth: `comp stats` database bytes after the index and after
the cold pack. Outputs: OUT/<tree>/{repomix.txt,pack.txt}, OUT/results.json and
a Markdown table on stdout. Run with `nice`, one run at a time, not while
building.
"""

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compress_bench import include_patterns, run_timed  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"comp pack: (\d+) files, (\d+) tokens at level (\d) \(level 0: (\d+)\); cache (\d+) hits, "
                     r"(\d+) misses, (\d+) written")


def run(cmd, what):
    rc, wall, cpu, out, err = run_timed(cmd)
    if rc != 0:
        sys.exit(f"{what} failed ({rc}): {' '.join(map(str, cmd))}\n{err[-2000:]}")
    return wall, err


def pack_summary(err):
    m = SUMMARY.search(err)
    if not m:
        sys.exit(f"no pack summary in: {err[-500:]}")
    files, tokens, level, raw, hits, misses, written = map(int, m.groups())
    return {"files": files, "tokens": tokens, "raw_tokens": raw, "hits": hits, "misses": misses, "written": written}


def db_bytes(comp, tree):
    out = subprocess.run([comp, "stats", "--json", "--root", str(tree)], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    return json.loads(out)["database_bytes"]


def bench_tree(tree, args, out_root):
    tree = Path(tree).resolve()
    name = tree.name
    out = out_root / name
    out.mkdir(parents=True, exist_ok=True)
    comp = str(args.comp)
    files = [p for p in subprocess.run([str(args.bench_bin), str(tree), "--print-files"], check=True,
                                       stdout=subprocess.PIPE, text=True).stdout.split("\n") if p]
    include = ",".join(include_patterns(files))
    repomix_cmd = [str(args.repomix), "--compress", "--style", "plain", "--output", str(out / "repomix.txt"),
                   "--no-file-summary", "--no-directory-structure", "--no-security-check", "--quiet",
                   "--include", include, str(tree)]
    pack_out = str(out / "pack.txt")
    pack_cmd = lambda jobs, *extra: [comp, "pack", "--root", str(tree), "--level", "2", "--jobs", str(jobs),
                                     "--output", pack_out, *extra]
    r = {"tree": name, "files_listed": len(files), "repomix_command": repomix_cmd}

    r["repomix_s"] = min(run(repomix_cmd, "repomix")[0] for _ in range(args.repeat))
    print(f"[{name}] repomix {r['repomix_s']:.2f} s", file=sys.stderr)

    comp_dir = tree / ".comp"
    for jobs in args.jobs:
        colds, indexes, packs = [], [], []
        for _ in range(args.repeat):
            shutil.rmtree(comp_dir, ignore_errors=True)
            t_index, _ = run([comp, "index", "--root", str(tree), "--jobs", str(jobs)], "comp index")
            r["db_after_index"] = db_bytes(comp, tree)
            t_pack, err = run(pack_cmd(jobs, "--no-refresh"), "comp pack (cold)")
            r["db_after_pack"] = db_bytes(comp, tree)
            s = pack_summary(err)
            assert s["hits"] == 0 and s["written"] == s["files"], s
            r["pack"] = s
            colds.append(t_index + t_pack)
            indexes.append(t_index)
            packs.append(t_pack)
        r[f"cold_j{jobs}_s"] = min(colds)
        r[f"index_j{jobs}_s"] = min(indexes)
        r[f"cold_pack_j{jobs}_s"] = min(packs)
        empties = []
        for _ in range(args.repeat):
            with sqlite3.connect(comp_dir / "graph.db") as db:
                db.execute("DELETE FROM compressed")
            t, err = run(pack_cmd(jobs), "comp pack (empty cache)")
            assert pack_summary(err)["hits"] == 0
            empties.append(t)
        r[f"pack_empty_j{jobs}_s"] = min(empties)
        print(f"[{name}] jobs {jobs}: cold {r[f'cold_j{jobs}_s']:.2f} s (index {r[f'index_j{jobs}_s']:.2f} + pack "
              f"{r[f'cold_pack_j{jobs}_s']:.2f}), pack with an empty cache {r[f'pack_empty_j{jobs}_s']:.2f} s",
              file=sys.stderr)

    warms = []
    for _ in range(args.repeat):
        t, err = run(pack_cmd(1), "comp pack (warm)")
        s = pack_summary(err)
        assert s["misses"] == 0, s
        warms.append(t)
    r["warm_s"] = min(warms)

    victim = tree / files[len(files) // 2]
    original = victim.read_bytes()
    edits = []
    try:
        for i in range(args.repeat):
            victim.write_bytes(original + b"\n" * (i + 1))
            t, err = run(pack_cmd(1), "comp pack (one file edited)")
            s = pack_summary(err)
            assert s["misses"] == 1, s
            edits.append(t)
    finally:
        victim.write_bytes(original)
        run(pack_cmd(1), "comp pack (restore)")
    r["edit_s"] = min(edits)
    r["edited_file"] = str(victim.relative_to(tree))
    print(f"[{name}] warm {r['warm_s']:.2f} s, one file edited {r['edit_s']:.2f} s", file=sys.stderr)

    if args.check_tokens:
        proc = subprocess.run([str(args.bench_bin), str(tree), "--jobs", "2", "--repeat", "1"], check=True,
                              stdout=subprocess.PIPE, text=True)
        total = json.loads(proc.stdout)["total"]
        r["compress_bench_l0"] = total["tokens_l0"]
        r["compress_bench_l2"] = total["tokens_l2"]
        r["compress_bench_files"] = total["files"]
    return r


def fmt_ratio(repomix, comp):
    return f"{repomix / comp:.1f}x" if comp else "n/a"


def table(results, jobs):
    head = ["tree", "files", "L0 tokens", "L2 tokens (pack)", "compress_bench L2", "repomix s"]
    for j in jobs:
        head += [f"cold j{j} s (index + pack)", "vs repomix"]
    for j in jobs:
        head += [f"pack, empty cache j{j} s", "vs repomix"]
    head += ["warm s", "vs repomix", "1 file edited s", "vs repomix", "DB: index → + cache"]
    rows = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]

    def row(r):
        cells = [r["tree"], f"{r['pack']['files']:,}", f"{r['pack']['raw_tokens']:,}", f"{r['pack']['tokens']:,}",
                 f"{r['compress_bench_l2']:,}" if "compress_bench_l2" in r else "-", f"{r['repomix_s']:.2f}"]
        for j in jobs:
            cells += [f"{r[f'cold_j{j}_s']:.2f} ({r[f'index_j{j}_s']:.2f} + {r[f'cold_pack_j{j}_s']:.2f})",
                      fmt_ratio(r["repomix_s"], r[f"cold_j{j}_s"])]
        for j in jobs:
            cells += [f"{r[f'pack_empty_j{j}_s']:.2f}", fmt_ratio(r["repomix_s"], r[f"pack_empty_j{j}_s"])]
        cells += [f"{r['warm_s']:.2f}", fmt_ratio(r["repomix_s"], r["warm_s"]), f"{r['edit_s']:.2f}",
                  fmt_ratio(r["repomix_s"], r["edit_s"]),
                  f"{r['db_after_index'] / 1e6:.1f} MB → +{(r['db_after_pack'] - r['db_after_index']) / 1e6:.1f} MB "
                  f"(+{100 * (r['db_after_pack'] - r['db_after_index']) / r['db_after_index']:.0f}%)"]
        return "| " + " | ".join(cells) + " |"

    rows += [row(r) for r in results]
    if len(results) > 1:
        total = {"tree": "**all**", "pack": {k: sum(r["pack"][k] for r in results) for k in ("files", "raw_tokens",
                                                                                         "tokens")}}
        for k in results[0]:
            if k.endswith("_s") or k.startswith("db_") or k == "compress_bench_l2":
                if all(k in r for r in results):
                    total[k] = sum(r[k] for r in results)
        rows.append(row(total))
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="*")
    parser.add_argument("--comp", type=Path, default=REPO / "build" / "comp")
    parser.add_argument("--bench-bin", type=Path, default=REPO / "build" / "bench" / "compress_bench")
    parser.add_argument("--repomix", type=Path, default=REPO / "bench" / "peers" / "node_modules" / ".bin" / "repomix")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--jobs", default="1,2", help="comma-separated thread counts for the cold runs")
    parser.add_argument("--check-tokens", action="store_true", help="also run compress_bench for its L2 total")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "pack")
    parser.add_argument("--tables-from", type=Path, help="print the table of a saved results.json")
    args = parser.parse_args()
    args.jobs = [int(j) for j in args.jobs.split(",")]
    if args.tables_from:
        saved = json.loads(args.tables_from.read_text())
        print(table(saved["results"], saved["jobs"]))
        return
    if not args.trees:
        parser.error("give at least one TREE")
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for tree in args.trees:
        results.append(bench_tree(tree, args, args.out))
        (args.out / "results.json").write_text(json.dumps({"jobs": args.jobs, "results": results}, indent=2) + "\n")
    print(table(results, args.jobs))


if __name__ == "__main__":
    main()
