#!/usr/bin/env python3
"""Symbol recall of comp against universal-ctags, and their speeds.

For every function, class and method ctags finds in a file that comp indexed,
comp must hold a symbol of the same name in that file whose line range
contains ctags' line. Also reports single-core extraction speed of both
(ctags on the tree's language; `comp index --jobs 1` cold), as a ratio.

  python3 bench/symbol_recall.py --comp build/comp --language python /work/bench-data-local/sympy

Needs the tree indexed by comp, or indexes it (cold, --jobs 1) itself.
"""
import argparse
import collections
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

# ctags language names and, per language, which ctags kinds are functions,
# classes and methods.
CTAGS = {
    "python": ("Python", {"function": "function", "class": "class", "member": "method"}),
    "typescript": ("TypeScript", {"function": "function", "class": "class", "method": "method",
                                  "interface": "class", "enum": "class"}),
    "javascript": ("JavaScript", {"function": "function", "class": "class", "method": "method",
                                  "generator": "function"}),
    "go": ("Go", {"func": "function", "struct": "class", "interface": "class", "methodSpec": "method"}),
    "rust": ("Rust", {"function": "function", "method": "method", "struct": "class", "interface": "class",
                      "enum": "class"}),
    "java": ("Java", {"method": "method", "class": "class", "interface": "class", "enum": "class"}),
    "c": ("C", {"function": "function", "struct": "class"}),
    "cpp": ("C++", {"function": "function", "class": "class", "struct": "class"}),
}
EXTENSIONS = {"python": (".py",), "typescript": (".ts", ".tsx"), "javascript": (".js", ".jsx", ".mjs", ".cjs"),
              "go": (".go",), "rust": (".rs",), "java": (".java",), "c": (".c", ".h"),
              "cpp": (".cc", ".cpp", ".hpp", ".hh", ".cxx")}


def ctags_tags(tree, language):
    name, _ = CTAGS[language]
    start = time.perf_counter()
    out = subprocess.run(["ctags", "--quiet=yes", "--options=NONE", "--output-format=json", "--fields=+nKzSe",
                          "--sort=no", "--links=no", "--map-TypeScript=+.tsx",
                          "--exclude=.git", "--exclude=node_modules", "--exclude=.comp", "--exclude=.codegraph",
                          f"--languages={name}", "-R", "-f", "-", "."],
                         cwd=tree, capture_output=True, check=True).stdout
    wall = time.perf_counter() - start
    tags = []
    for line in out.splitlines():
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:
            continue
        if tag.get("_type") == "tag":
            tags.append(tag)
    return tags, wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", default="build/comp")
    parser.add_argument("--language", required=True, choices=sorted(CTAGS))
    parser.add_argument("--misses", type=int, default=15, help="print this many missed symbols")
    parser.add_argument("tree")
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)

    shutil.rmtree(os.path.join(tree, ".comp"), ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([os.path.abspath(args.comp), "index", "--root", tree, "--jobs", "1", "--json"],
                   check=True, capture_output=True)
    comp_wall = time.perf_counter() - start

    db = sqlite3.connect(os.path.join(tree, ".comp", "graph.db"))
    indexed = {row[0]: row[1] for row in db.execute("SELECT path, size FROM files WHERE skip_reason = ''")}
    symbols = collections.defaultdict(list)
    for path, name, line, end_line in db.execute("SELECT file_path, name, line, end_line FROM nodes"):
        symbols[(path, name)].append((line, end_line))

    tags, ctags_wall = ctags_tags(tree, args.language)
    _, kinds = CTAGS[args.language]
    found = collections.Counter()
    total = collections.Counter()
    misses = []
    outside = 0
    for tag in tags:
        category = kinds.get(tag.get("kind"))
        if not category:
            continue
        # ctags' own names for anonymous functions and classes are not symbols.
        if tag["name"].startswith(("AnonymousFunction", "AnonymousClass", "__anon")) or "anonymous" in tag.get("extras", ""):
            continue
        # ctags' JavaScript parser reports object literals (`var user = {...}`,
        # even inside functions) as classes: only `class` declarations count.
        if args.language == "javascript" and category == "class" and "class" not in tag.get("pattern", "class"):
            continue
        path = tag["path"][2:] if tag["path"].startswith("./") else tag["path"]
        if path not in indexed:
            outside += 1
            continue
        total[category] += 1
        line = tag.get("line", 0)
        if any(start <= line <= end for start, end in symbols.get((path, tag["name"]), ())):
            found[category] += 1
        else:
            misses.append(f"{path}:{line} {tag.get('kind')} {tag['name']}")

    language_bytes = sum(size for path, size in indexed.items() if path.endswith(EXTENSIONS[args.language]))
    all_found, all_total = sum(found.values()), sum(total.values())
    print(f"{os.path.basename(tree)} ({args.language}): recall vs ctags "
          f"{all_found}/{all_total} = {100.0 * all_found / max(all_total, 1):.2f}%")
    for category in sorted(total):
        print(f"  {category:9s} {found[category]:7d}/{total[category]:<7d} {100.0 * found[category] / total[category]:6.2f}%")
    print(f"  ctags tags in files comp does not index (ignored/skipped): {outside}")
    print(f"speed, one core: ctags {language_bytes / 1e6 / ctags_wall:.1f} MB/s ({ctags_wall:.2f} s);"
          f" comp index --jobs 1 {sum(indexed.values()) / 1e6 / comp_wall:.1f} MB/s ({comp_wall:.2f} s, all files);"
          f" comp/ctags time ratio {comp_wall / ctags_wall:.2f}x")
    for miss in misses[: args.misses]:
        print("  missed:", miss)


if __name__ == "__main__":
    main()
