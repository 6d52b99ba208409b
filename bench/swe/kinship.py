#!/usr/bin/env python3
"""Would a file's folder or its tests rank it better? Two re-rankings of
comP's 150 candidates, offline.

usage: bench/swe/kinship.py COMP [--cache DIR] [--datasets dev,polybench-dev] [--jobs 2]

comP's candidates for each task (its evidence dump, COMP_PIPELINE_FEATURES:
path and score, best first) are re-scored two ways, each a grid of weights,
and Acc@1 and Acc@5 printed per set beside comP's own (tasks gained and lost
at 5):

- folders: a file gains from the other candidates in its folder, among the
  first N: score * (1 + w * their scores / the best score) ("sum"), or
  score * (1 + w * log(1 + their number)) ("count");
- tests: a test file among the candidates (the kit's polyglot test rule)
  points at its subject, the file of the tree with the test's name without
  its test marker (FooTest.java, foo.test.ts, test_foo.py, foo_test.py,
  TestFoo.java: Foo / foo), not a test, with the longest common folder
  prefix; the subject gains w * the test's score ("add") or score * (1 + w
  * the test's score / the best score) ("mult"), and enters the candidates
  when it was not among them.

Reads the kit's cached tasks and trees ($COMP_SWE_CACHE); no mirror needed.
Standard library only.
"""
import argparse
import collections
import math
import os
import re
import sys

from cached_tasks import cached_tasks
from cochange import comp_candidates, grid_cells, rescored

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = (".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".py", ".java")
TEST_NAME = [re.compile(p) for p in (r"^(.*?)[._-](?:test|spec|tests)$", r"^test_(.*)$", r"^(.*)_test$",
                                      r"^(.*?)Tests?$", r"^Test(.+)$", r"^(.*)IT$")]


def subject_stem(path):
    """The stem a test file's name points at (lower case), or None."""
    name = os.path.splitext(os.path.basename(path))[0]
    for pattern in TEST_NAME:
        match = pattern.match(name)
        if match and match.group(1):
            return match.group(1).lower()
    return None


def source_stems(tree, is_test):
    """{lower-case stem: [paths]} of the tree's source files that are no tests."""
    stems = collections.defaultdict(list)
    for folder, subfolders, names in os.walk(tree):
        subfolders[:] = [d for d in subfolders if d not in (".comp", ".git", "node_modules")]
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), tree)
            if name.endswith(SOURCE) and not is_test(rel):
                stems[name.split(".", 1)[0].lower()].append(rel)
    return stems


def shared_folders(a, b):
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--datasets", default="dev,polybench-dev")
    ap.add_argument("--kit", default=os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench-swe")))
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import sources  # the kit's: is_test_path_polyglot

    answers = []  # (dataset, gold, instance id, candidates, subjects: {path: best test score})
    for dataset in args.datasets.split(","):
        for task, task_file, tree in cached_tasks(args.cache, dataset):
            candidates = comp_candidates(args.comp, tree, task_file)
            stems = source_stems(tree, sources.is_test_path_polyglot)
            subjects = collections.defaultdict(float)
            for path, score in candidates:
                stem = subject_stem(path) if sources.is_test_path_polyglot(path) else None
                if stem in stems:
                    subject = max(stems[stem], key=lambda p: shared_folders(p, path))
                    subjects[subject] = max(subjects[subject], score)
            answers.append((dataset, set(task["gold_files"]), task["instance_id"], candidates, subjects))
    datasets = args.datasets.split(",")
    header = "| " + " | ".join(f"{d} Acc@1 | {d} Acc@5 (+/-)" for d in datasets) + " |"
    print("## folders\n| variant | first N | w " + header)
    print("| --- | ---: | ---: |" + " ---: | --- |" * len(datasets))
    for first in (10, 20, 50, 150):
        for w in (0.1, 0.2, 0.4, 0.8):
            for variant in ("sum", "count"):
                def order(candidates, _, first=first, w=w, variant=variant):
                    folder = collections.defaultdict(list)
                    for path, score in candidates[:first]:
                        folder[os.path.dirname(path)].append((path, score))
                    best = candidates[0][1] if candidates else 1

                    def score(path, s):
                        others = [x for x in folder.get(os.path.dirname(path), []) if x[0] != path]
                        if variant == "sum":
                            return s * (1 + w * sum(x[1] for x in others) / best)
                        return s * (1 + w * math.log1p(len(others)))
                    return rescored(candidates, score)
                print(f"| {variant} | {first} | {w} | " + grid_cells(answers, order) + " |", flush=True)
    bridged = sum(1 for _, gold, _, _, subjects in answers if gold & set(subjects))
    print(f"\n## tests: a gold file is a subject in {bridged} of {len(answers)} tasks; "
          f"{sum(len(a[4]) for a in answers)} subjects in all\n| mode | w " + header)
    print("| --- | ---: |" + " ---: | --- |" * len(datasets))
    for mode in ("add", "mult"):
        for w in (0.1, 0.25, 0.5, 1.0, 2.0):
            def order(candidates, subjects, w=w, mode=mode):
                known = {p for p, _ in candidates}
                every = candidates + [(p, 0.0) for p in subjects if p not in known]
                best = candidates[0][1] if candidates else 1
                if mode == "add":
                    return rescored(every, lambda p, s: s + w * subjects.get(p, 0))
                return rescored(every, lambda p, s: s * (1 + w * subjects.get(p, 0) / best))
            print(f"| {mode} | {w} | " + grid_cells(answers, order) + " |", flush=True)


if __name__ == "__main__":
    main()
