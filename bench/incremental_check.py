#!/usr/bin/env python3
"""Random import edits on a copy of a real tree: the incrementally kept index equals one built from scratch.

The property test in daemon/src/resolve/resolver_test.cc does this on small generated trees;
this does it on a real repository, with the edits agents make most: an import line dropped,
or one added (copied from a sibling file, so that it usually resolves), and now and then a
file renamed.

  1. copy TREE (without .comp/ and .git/) and index the copy;
  2. --edits times: pick a file of the language, drop one of its import lines, insert one
     taken from a file of the same folder, or (one time in six) rename it, then
     `comp index` (an incremental run);
  3. copy the edited tree again and index that copy from nothing;
  4. compare every reference's resolution (file, node, kind, name, qualifier, alias, line,
     column, status, target, target path, candidates) between the two indexes.

Prints the counts and the first differing rows; exits 1 when they differ. Asserts nothing
about time.

usage: bench/incremental_check.py --comp BIN [--edits 30] [--seed 1] [--ext .py] TREE [TREE...]
"""
import argparse
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_edit import main_language  # noqa: E402

IMPORT_LINE = re.compile(r"^(import |export \* from |export \{|from \S+ import |use |(const|let|var) [\w{}, ]+ = require\()")
REFS = ("SELECT file_path, from_node, kind, name, qualifier, alias, line, \"column\", status, "
        "coalesce(target, ''), coalesce(target_path, ''), candidates FROM refs")


def source_files(root, ext):
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        out += [os.path.join(folder, f) for f in files if f.endswith(ext)]
    return sorted(out)


def import_lines(path):
    with open(path, errors="replace") as f:
        return [line if line.endswith("\n") else line + "\n" for line in f if IMPORT_LINE.match(line)]


def edit_once(rng, files):
    path = rng.choice(files)
    if rng.randrange(6) == 0:  # renamed: one file gone, one new, the imports of it left behind
        stem, ext = os.path.splitext(path)
        moved = stem + "_moved" + ext
        os.rename(path, moved)
        files[files.index(path)] = moved
        return True
    with open(path, errors="replace") as f:
        lines = f.readlines()
    own = [i for i, line in enumerate(lines) if IMPORT_LINE.match(line)]
    if own and rng.randrange(3) == 0:
        del lines[rng.choice(own)]
    else:
        siblings = [g for g in files if os.path.dirname(g) == os.path.dirname(path)] or files
        candidates = import_lines(rng.choice(siblings))
        if not candidates:
            return False
        lines.insert(own[0] if own else 0, rng.choice(candidates))
    with open(path, "w") as f:
        f.write("".join(lines))
    return True


def check(comp, source, edits, seed, ext):
    work = tempfile.mkdtemp(prefix="comp-incremental-")
    try:
        tree = os.path.join(work, "incremental")
        shutil.copytree(source, tree, symlinks=True, ignore=shutil.ignore_patterns(".comp", ".git"))
        ext = ext or main_language(tree)
        subprocess.run([comp, "index", "--root", tree], check=True, capture_output=True)
        rng = random.Random(seed)
        files = source_files(tree, ext)
        done = tries = 0
        while done < edits and files and tries < 20 * edits:  # a tree with few import lines ends early
            tries += 1
            if edit_once(rng, files):
                done += 1
                subprocess.run([comp, "index", "--root", tree], check=True, capture_output=True)
        scratch = os.path.join(work, "scratch")
        shutil.copytree(tree, scratch, symlinks=True, ignore=shutil.ignore_patterns(".comp"))
        subprocess.run([comp, "index", "--root", scratch], check=True, capture_output=True)
        a = set(sqlite3.connect(os.path.join(tree, ".comp", "graph.db")).execute(REFS).fetchall())
        b = set(sqlite3.connect(os.path.join(scratch, ".comp", "graph.db")).execute(REFS).fetchall())
        print(f"{source} ({ext}, {done} edits, seed {seed}): {len(a)} references; "
              f"incremental only {len(a - b)}, from scratch only {len(b - a)}")
        for row in sorted(a - b)[:5]:
            print("  incremental:", row)
        for row in sorted(b - a)[:5]:
            print("  scratch:    ", row)
        return a == b
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", required=True)
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ext", help="the files to edit (default: the tree's main language)")
    parser.add_argument("trees", nargs="+")
    args = parser.parse_args()
    same = [check(os.path.abspath(args.comp), t, args.edits, args.seed, args.ext) for t in args.trees]
    sys.exit(0 if all(same) else 1)


if __name__ == "__main__":
    main()
