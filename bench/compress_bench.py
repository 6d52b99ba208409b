#!/usr/bin/env python3
"""comP's compression levels 0/1/2 beside `repomix --compress`, same files, same tokenizer.

    bench/compress_bench.py [--bin PATH] [--repomix PATH] [--jobs N] [--repeat N] [--out DIR] TREE...

For each TREE, in one run:
  1. `compress_bench TREE --print-files`: the files comP indexes that have a
     language (walk::walk + lang::detect).
  2. repomix on the same tree, with --include globs for exactly the file
     extensions of that list (plain style, no file summary, no directory
     structure, no security check, so that it drops no file for its content),
     timed with the wall clock (and its CPU time, children included).
  3. Its plain output is split at the file headers
     ("================\\nFile: PATH\\n================\\n") into one file per
     path under OUT/<tree>/repomix-files/.
  4. `compress_bench TREE --list COMMON --peer OUT/<tree>/repomix-files`: comP's
     levels over the files both sides had, repomix's per-file output judged by
     the same tokenizer (comp::tokens::count, o200k_base), the same
     syntax-error count and the same signature check. repomix's whole output
     file is also counted (`compress_bench --count`).
Timings: each side runs --repeat times (default 3), the fastest wall time is
kept (compress_bench repeats its timed phases inside one process).
Prints a Markdown table; writes OUT/<tree>/{comp.json,per-file.jsonl,repomix.txt}
and OUT/results.json. Run one tree at a time (the timings are single runs).
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_BIN = Path(os.environ.get("COMP_COMPRESS_BENCH", REPO / "build" / "bench" / "compress_bench"))
DEFAULT_REPOMIX = REPO / "bench" / "peers" / "node_modules" / ".bin" / "repomix"
HEADER = re.compile(r"^================\nFile: (.+)\n================\n", re.M)
END = "\n================================================================\nEnd of Codebase\n"


def run_timed(cmd, cwd=None):
    """Runs cmd; returns (returncode, wall seconds, CPU seconds of the child tree, stderr)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.returncode, wall, cpu, proc.stdout, proc.stderr


def include_patterns(paths):
    """Globs that select the comP file list by extension (or exact path for names without one)."""
    patterns = set()
    for p in paths:
        name = p.rsplit("/", 1)[-1]
        dot = name.rfind(".")
        if dot > 0:
            patterns.add("**/*" + name[dot:])
        elif dot == 0:  # .bashrc and the like
            patterns.add("**/" + name)
        else:  # shebang-detected script
            patterns.add(p)
    return sorted(patterns)


def split_plain(text):
    """repomix plain output -> {path: content} (content as repomix wrote it, trailing blank lines dropped)."""
    files = {}
    end = text.rfind(END)
    body = text if end < 0 else text[:end]
    matches = list(HEADER.finditer(body))
    for i, m in enumerate(matches):
        stop = matches[i + 1].start() if i + 1 < len(matches) else len(body)
        files[m.group(1)] = body[m.end():stop].rstrip("\n")
    return files


def ratio(a, b):
    return a / b if b else 0.0


def share(kept, total):
    return f"{100 * kept / total:.2f}%" if total else "n/a"


def repomix_startup(args, out_root):
    """Wall seconds of repomix on a one-file tree: its fixed cost (Node start, WASM grammar load)."""
    tiny = out_root / "tiny-tree"
    shutil.rmtree(tiny, ignore_errors=True)
    tiny.mkdir(parents=True)
    (tiny / "a.py").write_text("def f(x):\n    return x + 1\n")
    cmd = [str(args.repomix), "--compress", "--style", "plain", "--output", str(out_root / "tiny.txt"),
           "--no-file-summary", "--no-directory-structure", "--no-security-check", "--quiet", str(tiny)]
    walls = [run_timed(cmd, cwd=out_root)[1] for _ in range(max(3, args.repeat))]
    return min(walls)


def bench_tree(tree, args, out_root):
    tree = Path(tree).resolve()
    name = tree.name
    out = out_root / name
    out.mkdir(parents=True, exist_ok=True)
    binary = str(args.bin)

    comp_files = subprocess.run([binary, str(tree), "--print-files"], check=True, stdout=subprocess.PIPE,
                                text=True).stdout.split("\n")
    comp_files = [p for p in comp_files if p]

    repomix_out = out / "repomix.txt"
    include = ",".join(include_patterns(comp_files))
    repomix_cmd = [str(args.repomix), "--compress", "--style", "plain", "--output", str(repomix_out),
                   "--no-file-summary", "--no-directory-structure", "--no-security-check", "--quiet",
                   "--include", include, str(tree)]
    print(f"[{name}] repomix: {' '.join(repomix_cmd[:-3])} --include '{include}' {tree}", file=sys.stderr)
    runs = []
    for _ in range(args.repeat):
        rc, wall, cpu, _, err = run_timed(repomix_cmd, cwd=out)
        if rc != 0:
            sys.exit(f"repomix failed on {tree} ({rc}): {err[-2000:]}")
        runs.append((wall, cpu))
    repomix_wall, repomix_cpu = min(runs)

    sections = split_plain(repomix_out.read_text(encoding="utf-8", errors="replace"))
    peer_dir = out / "repomix-files"
    shutil.rmtree(peer_dir, ignore_errors=True)
    for path, content in sections.items():
        target = peer_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    repomix_total_tokens = int(subprocess.run([binary, "--count", str(repomix_out)], check=True,
                                              stdout=subprocess.PIPE, text=True).stdout.split("\t")[0])

    common = sorted(set(comp_files) & set(sections))
    (out / "common.txt").write_text("".join(p + "\n" for p in common))
    print(f"[{name}] files: comP {len(comp_files)}, repomix {len(sections)}, both {len(common)}; "
          f"repomix {repomix_wall:.2f} s", file=sys.stderr)

    comp_cmd = [binary, str(tree), "--jobs", str(args.jobs), "--repeat", str(args.repeat), "--list", str(out / "common.txt"),
                "--peer", str(peer_dir), "--per-file", str(out / "per-file.jsonl")]
    proc = subprocess.run(comp_cmd, check=True, stdout=subprocess.PIPE, text=True)
    comp = json.loads(proc.stdout)
    (out / "comp.json").write_text(json.dumps(comp, indent=2) + "\n")

    only_comp = sorted(set(comp_files) - set(sections))
    only_repomix = sorted(set(sections) - set(comp_files))
    return {
        "tree": name,
        "path": str(tree),
        "files_comp": len(comp_files),
        "files_repomix": len(sections),
        "files_common": len(common),
        "only_comp_examples": only_comp[:10],
        "only_repomix_examples": only_repomix[:10],
        "repomix_command": repomix_cmd,
        "repomix_wall_s": repomix_wall,
        "repomix_runs": runs,
        "repomix_cpu_s": repomix_cpu,
        "repomix_output_tokens": repomix_total_tokens,
        "comp_command": comp_cmd,
        "comp": comp,
    }


def table(results):
    rows = ["| tree | files (comP / repomix / both) | L0 tokens | L1/L0 | L2/L0 | repomix/L0 | L2/repomix "
            "| comP s | repomix s | speed ratio | L2 fallbacks | new syntax errors (L2 / repomix) "
            "| signatures kept: L2 / repomix (re-parsed) | names kept: L2 / repomix (as words) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        t = r["comp"]["total"]
        peer = t.get("peer", {})
        comp_s = r["comp"]["timing"]["whole_tree_l2_wall_s"]
        rows.append(
            f"| {r['tree']} | {r['files_comp']:,} / {r['files_repomix']:,} / {r['files_common']:,} "
            f"| {t['tokens_l0']:,} | {t['ratio_l1']:.3f} | {t['ratio_l2']:.3f} "
            f"| {peer.get('ratio_to_l0', 0):.3f} | {peer.get('l2_to_peer', 0):.3f} "
            f"| {comp_s:.2f} | {r['repomix_wall_s']:.2f} | {ratio(r['repomix_wall_s'], comp_s):.1f}x "
            f"| {t['l2_fallbacks']} / {t['files']:,} | {t['new_syntax_errors_l2']} / {peer.get('new_syntax_errors', 0):,} "
            f"| {share(t['signatures_kept_l2'], t['signatures_total'])} "
            f"({t['signatures_kept_l2']:,}/{t['signatures_total']:,}) / "
            f"{share(peer.get('signatures_kept', 0), peer.get('signatures_total', 0))} "
            f"| {share(t['signatures_named_l2'], t['signatures_total'])} / "
            f"{share(peer.get('signatures_named', 0), peer.get('signatures_total', 0))} |")
    if len(results) > 1:
        keys = ["tokens_l0", "tokens_l1", "tokens_l2", "signatures_total", "signatures_kept_l2",
                "signatures_named_l2", "files",
                "l2_fallbacks", "new_syntax_errors_l2"]
        s = {k: sum(r["comp"]["total"][k] for r in results) for k in keys}
        peer_tokens = sum(r["comp"]["total"].get("peer", {}).get("tokens", 0) for r in results)
        peer_l0 = sum(r["comp"]["total"].get("peer", {}).get("tokens_l0_same_files", 0) for r in results)
        peer_l2 = sum(r["comp"]["total"].get("peer", {}).get("tokens_l2_same_files", 0) for r in results)
        peer_kept = sum(r["comp"]["total"].get("peer", {}).get("signatures_kept", 0) for r in results)
        peer_total = sum(r["comp"]["total"].get("peer", {}).get("signatures_total", 0) for r in results)
        peer_named = sum(r["comp"]["total"].get("peer", {}).get("signatures_named", 0) for r in results)
        peer_err = sum(r["comp"]["total"].get("peer", {}).get("new_syntax_errors", 0) for r in results)
        comp_s = sum(r["comp"]["timing"]["whole_tree_l2_wall_s"] for r in results)
        rep_s = sum(r["repomix_wall_s"] for r in results)
        rows.append(
            f"| **all** | {sum(r['files_comp'] for r in results):,} / {sum(r['files_repomix'] for r in results):,} / "
            f"{sum(r['files_common'] for r in results):,} | {s['tokens_l0']:,} "
            f"| {ratio(s['tokens_l1'], s['tokens_l0']):.3f} | {ratio(s['tokens_l2'], s['tokens_l0']):.3f} "
            f"| {ratio(peer_tokens, peer_l0):.3f} | {ratio(peer_l2, peer_tokens):.3f} "
            f"| {comp_s:.2f} | {rep_s:.2f} | {ratio(rep_s, comp_s):.1f}x "
            f"| {s['l2_fallbacks']} / {s['files']:,} | {s['new_syntax_errors_l2']} / {peer_err:,} "
            f"| {100 * ratio(s['signatures_kept_l2'], s['signatures_total']):.2f}% "
            f"({s['signatures_kept_l2']:,}/{s['signatures_total']:,}) / {100 * ratio(peer_kept, peer_total):.2f}% "
            f"| {100 * ratio(s['signatures_named_l2'], s['signatures_total']):.2f}% / "
            f"{100 * ratio(peer_named, peer_total):.2f}% |")
    return "\n".join(rows)


def language_table(results):
    rows = ["| tree | language | files | L0 tokens | L1/L0 | L2/L0 | repomix/L0 | L2/repomix | L2 MB/s (1 thread) "
            "| L2 fallbacks | signatures kept (L2 / repomix) |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        for lang, t in r["comp"]["languages"].items():
            peer = t.get("peer", {})
            rows.append(
                f"| {r['tree']} | {lang} | {t['files']:,} | {t['tokens_l0']:,} | {t['ratio_l1']:.3f} "
                f"| {t['ratio_l2']:.3f} | {peer.get('ratio_to_l0', 0):.3f} | {peer.get('l2_to_peer', 0):.3f} "
                f"| {t['l2_mb_per_s']:.2f} | {t['l2_fallbacks']} "
                f"| {share(t['signatures_kept_l2'], t['signatures_total'])} / "
                f"{share(peer.get('signatures_kept', 0), peer.get('signatures_total', 0))} |")
    return "\n".join(rows)


def detail_table(results):
    rows = ["| tree | MB | comP L2 wall s (walk+read+compress) | comP L2 CPU s | comP MB/s "
            "| L2 without verify s | tree-sitter parse only s | L1 s | repomix wall s "
            "| repomix CPU s | repomix output tokens (whole file) | repomix per-file tokens "
            "| comP L2 tokens | files where L2 > repomix |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        t = r["comp"]["total"]
        timing = r["comp"]["timing"]
        per_file = Path(r["per_file"])
        worse = 0
        if per_file.exists():
            for line in per_file.read_text().splitlines():
                f = json.loads(line)
                if "peer_tokens" in f and f["tokens_l2"] > f["peer_tokens"]:
                    worse += 1
        rows.append(
            f"| {r['tree']} | {t['bytes'] / 1e6:.2f} | {timing['whole_tree_l2_wall_s']:.2f} "
            f"| {timing['whole_tree_l2_cpu_s']:.2f} | {timing['whole_tree_l2_mb_per_s']:.1f} "
            f"| {timing['level2_no_verify']['wall_s']:.2f} | {timing['parse_only']['wall_s']:.2f} "
            f"| {timing['level1']['wall_s']:.2f} | {r['repomix_wall_s']:.2f} | {r['repomix_cpu_s']:.2f} | {r['repomix_output_tokens']:,} "
            f"| {t.get('peer', {}).get('tokens', 0):,} | {t['tokens_l2']:,} | {worse} |")
    return "\n".join(rows)


TEST_PATH = re.compile(r"(^|/)(tests?|__tests__|testing|testdata|test_data|fixtures?)(/|$)|[._-](spec|test)s?\.|(^|/)test_[^/]*$|(^|/)tests?\.[a-z]+$|_test\.[a-z]+$")


def where_report(results):
    """Where level 2 keeps more than repomix: test files vs the rest, and the files with the largest excess."""
    rows = ["| tree | L2/repomix, test files (tokens) | L2/repomix, other files (tokens) | largest excess (L2 - repomix tokens) |",
            "| --- | ---: | ---: | --- |"]
    for r in results:
        per_file = Path(r["per_file"])
        if not per_file.exists():
            continue
        files = [json.loads(line) for line in per_file.read_text().splitlines()]
        files = [f for f in files if "peer_tokens" in f]
        split = {True: [0, 0], False: [0, 0]}
        for f in files:
            bucket = split[bool(TEST_PATH.search(f["path"]))]
            bucket[0] += f["tokens_l2"]
            bucket[1] += f["peer_tokens"]
        files.sort(key=lambda f: f["peer_tokens"] - f["tokens_l2"])
        top = ", ".join(f"`{f['path']}` (+{f['tokens_l2'] - f['peer_tokens']:,})" for f in files[:3]
                        if f["tokens_l2"] > f["peer_tokens"])
        t, o = split[True], split[False]
        rows.append(f"| {r['tree']} | {ratio(t[0], t[1]):.2f} ({t[0]:,} / {t[1]:,}) "
                    f"| {ratio(o[0], o[1]):.2f} ({o[0]:,} / {o[1]:,}) | {top} |")
    return "\n".join(rows)


def print_tables(meta, results):
    print(f"repomix {meta['repomix_version']}; compress_bench --jobs {meta['jobs']}; fastest of {meta.get('repeat', 1)} runs "
          f"per side; tokens: o200k_base (comp::tokens::count) on both sides; repomix tokens = its per-file output "
          f"(headers excluded); repomix on a one-file tree: {meta['repomix_startup_s']:.2f} s\n")
    print(table(results))
    print()
    print(language_table(results))
    print()
    print(detail_table(results))
    print()
    print(where_report(results))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="*")
    parser.add_argument("--tables-from", type=Path, help="print the tables of an earlier OUT/results.json")
    parser.add_argument("--bin", type=Path, default=DEFAULT_BIN, help="compress_bench binary")
    parser.add_argument("--repomix", type=Path, default=DEFAULT_REPOMIX, help="repomix binary (bench/peers)")
    parser.add_argument("--jobs", type=int, default=1, help="compress_bench threads (default 1)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs of each side; the fastest wall time is kept (default 3)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "compress")
    args = parser.parse_args()
    if args.tables_from:
        saved = json.loads(args.tables_from.read_text())
        print_tables(saved, saved["results"])
        return
    if not args.trees:
        parser.error("no TREE")
    if not args.bin.exists():
        sys.exit(f"no {args.bin}: build it (ninja -C build compress_bench) or pass --bin")
    if not args.repomix.exists():
        sys.exit(f"no {args.repomix}: (cd bench/peers && npm ci)")
    version = subprocess.run([str(args.repomix), "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    args.out.mkdir(parents=True, exist_ok=True)
    startup = repomix_startup(args, args.out)

    results = []
    for tree in args.trees:
        r = bench_tree(tree, args, args.out)
        r["per_file"] = str(args.out / r["tree"] / "per-file.jsonl")
        results.append(r)
    meta = {"repomix_version": version, "jobs": args.jobs, "repeat": args.repeat, "repomix_startup_s": startup}
    (args.out / "results.json").write_text(json.dumps({**meta, "results": results}, indent=2) + "\n")
    print_tables(meta, results)


if __name__ == "__main__":
    main()
