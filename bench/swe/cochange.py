#!/usr/bin/env python3
"""What do the files that changed together in git history add to comP's packs?

usage: bench/swe/cochange.py COMP [--cache DIR] [--datasets dev,polybench-dev]
                             [--mirror-root DIR] [--kit DIR] [--history 300,1000,3000]
                             [--largest 30] [--seeds 1,2,3] [--partners 1,3,5] [--jobs 2]
       bench/swe/cochange.py COMP --live [--cache DIR] [--datasets ...] [--mirror-root DIR] [--max-tokens N]
       bench/swe/cochange.py COMP --recency [--cache DIR] [--datasets ...] [--mirror-root DIR]
       bench/swe/cochange.py COMP --messages [--cache DIR] [--datasets ...] [--mirror-root DIR] [--largest 30]
       bench/swe/cochange.py COMP --evidence [--cache DIR] [--datasets ...] [--mirror-root DIR] [--largest 30]

`--live` scores comP itself: each task's tree gets a .git whose HEAD is the
base commit (`git init`, the mirror's objects borrowed through alternates),
`comp index` reads its history, and the pack (`changed_with` files) is
compared with the pack without history; then the .git is removed and the
tree indexed again. `--recency` re-ranks comP's 150 candidates (its
evidence dump) with a boost for the files the history changed recently or
often, a grid of weights; `--messages` with BM25 over the messages of the
commits that changed each file. `--evidence` chooses the pack's two history
partners (3,000 commits, the three strongest files' partners, none in the
ranking's first 20 or sent already) by their co-change weight times a
boost for comP's own evidence for them (their score among its 150
candidates), a grid of boosts, offline. Without those, a grid of settings
offline:

A fix often changes files that nothing in the code links: a component and its
generated JavaScript twin and preview, a Java class and its config class, a
source file and the page that documents it, two translations. Those pairs
show in version control: files that changed in the same commits before. The
kit cannot show what such evidence would do in `comp query` (its trees come
from `git archive`, without .git), so this script asks offline, per task:

- comP's answer on the task's indexed tree (`comp query --no-refresh --json`:
  `ranking`, the top 20, and `pivot_files`, the 8,000-token pack);
- the history before the fix (`git log BASE_COMMIT` in the task's mirror:
  the last `--history` commits, each with the files it changed; commits that
  change more than `--largest` files, merges and mass renames, are left out);
- the co-change partners of comP's `--seeds` strongest ranked files: every
  file changed in the same commits, each commit weighing 1 / (its files - 1),
  kept only when it exists in the tree at the base commit and is no test
  (the kit's polyglot rule, which also filters the gold files).

It prints, per setting, on how many tasks every gold file is sent when the
`--partners` best partners not yet in the pack are added to it (pointers,
as comP's graph neighbours are), and how many files that adds; and Acc@5 when
the best partner of the strongest file takes the ranking's fifth place
(gains and losses named). Needs the kit's mirrors ($SWE_MIRROR_ROOT, the
kit's sources.find_mirror) and the trees indexed (`comp index`). git runs
with argument lists, never a shell; a base commit must be 40 hex digits.
Standard library only.
"""
import argparse
import collections
import concurrent.futures
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from cached_tasks import cached_tasks

HEX40 = re.compile(r"^[0-9a-f]{40}$")
HERE = os.path.dirname(os.path.abspath(__file__))


def comp_result(comp, tree, task_file, max_tokens=None):
    """`comp query --json --no-refresh` on the indexed tree, parsed."""
    budget = ["--max-tokens", str(max_tokens)] if max_tokens else []
    proc = subprocess.run([comp, "query", "--root", tree, "--task-file", task_file, "--json", "--no-refresh"] + budget,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[:200])
    return json.loads(proc.stdout)


def comp_answer(comp, tree, task_file, max_tokens=None):
    """comP's ranking and its pack, as paths."""
    result = comp_result(comp, tree, task_file, max_tokens)
    return [r["path"] for r in result["ranking"]], [p["path"] for p in result["pivot_files"]]


def comp_dump(comp, tree, task_file):
    """comP's answer (`comp query --json --no-refresh`, parsed) and the 150
    files its pack considers, best first, with their scores (its evidence
    dump, COMP_PIPELINE_FEATURES)."""
    with tempfile.TemporaryDirectory() as scratch:
        dumped = os.path.join(scratch, "features.tsv")
        proc = subprocess.run([comp, "query", "--root", tree, "--task-file", task_file, "--json", "--no-refresh"],
                              capture_output=True, text=True, env=dict(os.environ, COMP_PIPELINE_FEATURES=dumped))
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[:200])
        if not os.path.exists(dumped):
            return json.loads(proc.stdout), []
        with open(dumped) as lines:
            return json.loads(proc.stdout), [(cells[0], float(cells[1])) for cells in (line.split("\t") for line in lines)]


def comp_candidates(comp, tree, task_file):
    """The 150 files comP's pack considers, best first, with their scores
    (none when the query failed)."""
    try:
        return comp_dump(comp, tree, task_file)[1]
    except RuntimeError:
        return []


def history(git_dir, commit, count):
    """[set of files changed] for the last `count` commits reachable from
    `commit`, newest first (merges have no file list here: --no-merges)."""
    if not HEX40.match(commit):
        raise ValueError(f"not a commit id: {commit!r}")
    out = subprocess.run(["git", "--git-dir", git_dir, "log", "--no-merges", "--no-renames", "--format=%x00",
                          "--name-only", "-n", str(count), commit, "--"],
                         capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    return [set(filter(None, block.split("\n"))) for block in out.split("\0")[1:]]


def partners(commits, seeds, largest, keep):
    """[(file, weight)] of the files changed with any of `seeds`, heaviest
    first; of equal weights, by path (comP's order: Store::changed_with)."""
    weight = collections.Counter()
    for files in commits:
        if len(files) < 2 or len(files) > largest:
            continue
        hit = [s for s in seeds if s in files]
        if not hit:
            continue
        for f in files:
            if f not in seeds and keep(f):
                weight[f] += len(hit) / (len(files) - 1)
    return sorted(weight.items(), key=lambda item: (-item[1], item[0]))


def give_history(tree, git_dir, commit):
    """A .git in `tree` whose HEAD is `commit`, borrowing the mirror's
    objects (no copy, no checkout: the tree is that commit already)."""
    if not HEX40.match(commit):
        raise ValueError(f"not a commit id: {commit!r}")
    dot_git = os.path.join(tree, ".git")
    if os.path.exists(dot_git):
        raise RuntimeError(f"{dot_git} exists already")
    subprocess.run(["git", "init", "-q", "--", tree], check=True)
    with open(os.path.join(dot_git, "objects", "info", "alternates"), "w") as alternates:
        alternates.write(os.path.join(os.path.abspath(git_dir), "objects") + "\n")
    subprocess.run(["git", "-C", tree, "update-ref", "--no-deref", "HEAD", commit], check=True)


def comp_index(comp, tree):
    subprocess.run([comp, "index", "--root", tree], check=True, capture_output=True)


@contextlib.contextmanager
def history_given(comp, tree, git_dir, commit):
    """`tree` with a .git at `commit` (give_history) while inside; then the
    .git is removed and the tree indexed again with `comp`, so the kit's
    cached tree is as it was."""
    give_history(tree, git_dir, commit)
    try:
        yield
    finally:
        shutil.rmtree(os.path.join(tree, ".git"))
        comp_index(comp, tree)


def live(args, sources):
    """comP's packs on each tree without, then with, its history (.git)."""
    for dataset in args.datasets.split(","):
        rows = []
        for task, task_file, tree in cached_tasks(args.cache, dataset):
            git_dir = sources.find_mirror(task["repo"], task["base_commit"], args.mirror_root)
            comp_index(args.comp, tree)
            ranking, before = comp_answer(args.comp, tree, task_file, args.max_tokens)
            with history_given(args.comp, tree, git_dir, task["base_commit"]):
                comp_index(args.comp, tree)
                result = comp_result(args.comp, tree, task_file, args.max_tokens)
            after = [p["path"] for p in result["pivot_files"]]
            partners = [p["path"] for p in result["pivot_files"] if p.get("changed_with")]
            same_ranking = [r["path"] for r in result["ranking"]] == ranking
            gold = task["gold_files"]
            rows.append((task["instance_id"], all(g in before for g in gold), all(g in after for g in gold),
                         len(partners), len(set(partners) & set(gold)), same_ranking,
                         bool(set(gold) & set(ranking[:5])), bool(set(gold) & set(after[:5])),
                         len(set(gold) & set(before)), len(set(gold) & set(after)), len(gold)))
            print(f"{task['instance_id']:40} every gold file sent: {rows[-1][1]} -> {rows[-1][2]}, "
                  f"changed_with sent {len(partners)} (gold {rows[-1][4]}), ranking same {same_ranking}",
                  flush=True)
        n = len(rows)
        print(f"## {dataset} ({n} tasks): every gold file sent {sum(r[1] for r in rows)} -> {sum(r[2] for r in rows)} "
              f"(gained: {', '.join(r[0] for r in rows if r[2] and not r[1]) or '-'}; "
              f"lost: {', '.join(r[0] for r in rows if r[1] and not r[2]) or '-'}); "
              f"gold files sent {sum(r[8] for r in rows)} -> {sum(r[9] for r in rows)} of {sum(r[10] for r in rows)}; "
              f"files sent for changed_with {sum(r[3] for r in rows)}, of them gold {sum(r[4] for r in rows)}; "
              f"rankings unchanged {sum(r[5] for r in rows)}/{n}; Acc@5 in the pack's order "
              f"{sum(r[7] for r in rows) / n:.3f} (ranking {sum(r[6] for r in rows) / n:.3f})")


def rerank(args, sources, evidence):
    """Per task of each dataset, in parallel: (dataset, gold files, instance
    id, comP's candidates, evidence(task, its mirror))."""
    def one(job):
        dataset, (task, task_file, tree) = job
        candidates = comp_candidates(args.comp, tree, task_file)
        git_dir = sources.find_mirror(task["repo"], task["base_commit"], args.mirror_root)
        return dataset, set(task["gold_files"]), task["instance_id"], candidates, evidence(task, git_dir)

    jobs = [(d, t) for d in args.datasets.split(",") for t in cached_tasks(args.cache, d)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return list(pool.map(one, jobs))


def hits(answers, dataset, order, k):
    """The tasks of `dataset` with a gold file among the first k of
    order(candidates, evidence)."""
    return {iid for d, gold, iid, candidates, evidence in answers if d == dataset and
            gold & set(order(candidates, evidence)[:k])}


def comp_order(candidates, evidence):
    return [p for p, _ in candidates]


def rescored(candidates, score):
    """The candidates' paths by score(path, comP's score), best first."""
    return [p for _, p in sorted((-score(p, s), p) for p, s in candidates)]


def grid_cells(answers, order):
    """Per dataset: Acc@1 and Acc@5 of `order`, beside comP's own, and the
    tasks gained and lost at 5."""
    cells = []
    for d in dict.fromkeys(a[0] for a in answers):
        n = sum(1 for a in answers if a[0] == d)
        at5, base5 = hits(answers, d, order, 5), hits(answers, d, comp_order, 5)
        cells.append(f"{len(hits(answers, d, order, 1)) / n:.3f} (was {len(hits(answers, d, comp_order, 1)) / n:.3f}) "
                     f"| {len(at5) / n:.3f} +{len(at5 - base5)} -{len(base5 - at5)}")
    return " | ".join(cells)


def recency(args, sources):
    """Would a file's recent changes rank it better? comP's 150 candidates
    (its evidence dump: path and score) re-scored by score * (1 + w *
    exp(-commits since the file last changed / half-life)), or by its
    number of changes in the last 3,000 commits, Acc@1 and Acc@5 per set."""
    import math

    def evidence(task, git_dir):
        last, changes = {}, collections.Counter()
        for age, files in enumerate(history(git_dir, task["base_commit"], 3000)):
            for f in files:
                last.setdefault(f, age)
                changes[f] += 1
        return last, changes

    answers = rerank(args, sources, evidence)
    datasets = args.datasets.split(",")
    print("| boost | half-life / scale | w | " + " | ".join(f"{d} Acc@1 | {d} Acc@5 (+/-)" for d in datasets) + " |")
    print("| --- | ---: | ---: |" + " ---: | --- |" * len(datasets))
    for kind in ("recent", "changes"):
        for half in (10, 30, 100, 300, 1000):
            for w in (0.05, 0.1, 0.2, 0.4):
                if kind == "recent":
                    order = lambda c, e: rescored(c, lambda p, s: s * (1 + w * math.exp(-e[0].get(p, 10**9) / half)))
                else:
                    order = lambda c, e: rescored(c, lambda p, s: s * (1 + w * math.log1p(e[1][p]) / math.log1p(half)))
                print(f"| {kind} | {half} | {w} | " + grid_cells(answers, order) + " |")


def messages(args, sources):
    """Would the words of the commits that changed a file say what it is
    about? Each file's document: the messages (subject and body) of the last
    3,000 commits that changed it (commits of more than --largest files left
    out); BM25 of the task's title, or its first 3,000 characters, over
    them. Printed: Acc@5 of that ranking alone, and comP's 150 candidates
    re-scored by score * (1 + w * the file's BM25 / the best candidate's)."""
    import math

    stop = set("the a an and or of to in is it that this for on with as be are was were by at from not no but if when "
               "can should would could will we you they them our your their there here have has had do does did so such "
               "than then these those which what who how why all any some more most other into out up down over under "
               "about via also just only very use using used new add support fix allow make get set".split())

    def words(text):
        out = []
        for word in re.findall(r"[A-Za-z][A-Za-z0-9]+", text):
            for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", word):
                if len(part) > 2 and part.lower() not in stop:
                    out.append(part.lower())
        return out

    def bm25(docs, query):
        n = len(docs) or 1
        df = collections.Counter(w for terms in docs.values() for w in set(terms))
        average = sum(len(terms) for terms in docs.values()) / n or 1
        scores = {}
        for path, terms in docs.items():
            tf = collections.Counter(terms)
            score = sum(math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5)) * tf[w] * 2.2 /
                        (tf[w] + 1.2 * (0.25 + 0.75 * len(terms) / average)) for w in set(query) if w in tf)
            if score > 0:
                scores[path] = score
        return scores

    def evidence(task, git_dir):
        if not HEX40.match(task["base_commit"]):
            raise ValueError(f"not a commit id: {task['base_commit']!r}")
        out = subprocess.run(["git", "--git-dir", git_dir, "log", "--no-merges", "--no-renames",
                              "--format=%x00%s%n%b%x01", "--name-only", "-n", "3000", task["base_commit"], "--"],
                             capture_output=True, check=True).stdout.decode("utf-8", "replace")
        docs = collections.defaultdict(list)
        for block in out.split("\0")[1:]:
            message, _, names = block.partition("\x01")
            files = [f for f in names.split("\n") if f.strip()]
            if 0 < len(files) <= args.largest:
                terms = words(message)
                for f in files:
                    docs[f].extend(terms)
        statement = task["problem_statement"]
        return {"title": bm25(docs, words(statement.split("\n", 1)[0])), "task": bm25(docs, words(statement[:3000]))}

    answers = rerank(args, sources, evidence)
    datasets = args.datasets.split(",")
    for d in datasets:
        n = sum(1 for a in answers if a[0] == d)
        alone = {q: len(hits(answers, d, lambda c, e: sorted(e[q], key=lambda p: -e[q][p]), 5)) for q in ("title", "task")}
        print(f"{d}: comP Acc@5 {len(hits(answers, d, comp_order, 5)) / n:.3f}; the messages alone, Acc@5 "
              f"{alone['title'] / n:.3f} (title), {alone['task'] / n:.3f} (task)")
    print("| query | w | " + " | ".join(f"{d} Acc@1 | {d} Acc@5 (+/-)" for d in datasets) + " |")
    print("| --- | ---: |" + " ---: | --- |" * len(datasets))
    for q in ("title", "task"):
        for w in (0.05, 0.1, 0.2, 0.3, 0.5):
            def order(candidates, scores):
                best = max((scores[q].get(p, 0) for p, _ in candidates), default=0) or 1
                return rescored(candidates, lambda p, s: s * (1 + w * scores[q].get(p, 0) / best))
            print(f"| {q} | {w} | " + grid_cells(answers, order) + " |")


def evidence_partners(args, sources):
    """Would the history's partners be better chosen with comP's evidence
    for them? Per task, offline: comP's ranking, pack and 150 candidates
    (with their scores), and the partners of the ranking's first three in
    the last 3,000 commits; the two partners sent are the best by weight *
    (1 + w * score / the best candidate's score), none in the ranking's
    first 20 or in the pack, for a grid of w (0: today's choice); or only
    candidates first ('candidates first'). Printed per set: how many packs
    then hold every gold file, and how many of the partners are gold."""

    def one(job):
        task, task_file, tree = job
        result, candidates = comp_dump(args.comp, tree, task_file)
        scores = dict(candidates)
        ranking = [r["path"] for r in result["ranking"]]
        pack = [p["path"] for p in result["pivot_files"]]
        git_dir = sources.find_mirror(task["repo"], task["base_commit"], args.mirror_root)
        keep = lambda f: not sources.is_test_path_polyglot(f) and os.path.isfile(os.path.join(tree, f))
        found = partners(history(git_dir, task["base_commit"], 3000), ranking[:3], args.largest, keep)
        found = [(f, w) for f, w in found if f not in ranking[:20] and f not in pack]
        return task, pack, scores, found

    for dataset in args.datasets.split(","):
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            answers = list(pool.map(one, cached_tasks(args.cache, dataset)))
        n = len(answers)
        every = sum(all(g in pack for g in task["gold_files"]) for task, pack, _, _ in answers)
        print(f"## {dataset}: {n} tasks; without history every gold file sent in {every}/{n}")
        print("| choice | every gold file sent | gained | partners gold / sent | partners among the candidates |")
        print("| --- | ---: | --- | ---: | ---: |")
        settings = [(f"w = {w}", w, False) for w in (0, 0.25, 0.5, 1, 2, 4, 8)] + [("candidates first", 0, True)]
        base = None
        for name, w, first in settings:
            complete, golden, sent, among = set(), 0, 0, 0
            for task, pack, scores, found in answers:
                top = max(scores.values(), default=0) or 1
                ordered = sorted(found, key=lambda fw: (-(fw[0] in scores) if first else 0,
                                                        -fw[1] * (1 + w * max(scores.get(fw[0], 0), 0) / top)))
                extra = [f for f, _ in ordered[:2]]
                gold = set(task["gold_files"])
                sent += len(extra)
                golden += len(gold & set(extra))
                among += sum(f in scores for f in extra)
                if all(g in pack or g in extra for g in gold):
                    complete.add(task["instance_id"])
            base = complete if base is None else base
            print(f"| {name} | {len(complete)}/{n} | +{', '.join(sorted(complete - base)) or '-'} "
                  f"-{', '.join(sorted(base - complete)) or '-'} | {golden} / {sent} | {among} |")
        print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--datasets", default="dev,polybench-dev")
    ap.add_argument("--mirror-root", default=os.environ.get("SWE_MIRROR_ROOT"))
    ap.add_argument("--kit", default=os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench-swe")),
                    help="the bench-swe kit (for its mirror lookup and test rule)")
    ap.add_argument("--history", default="300,1000,3000", help="commits before the base commit")
    ap.add_argument("--largest", type=int, default=30, help="leave out commits that change more files")
    ap.add_argument("--seeds", default="1,2,3", help="comP's strongest ranked files whose partners count")
    ap.add_argument("--partners", default="1,3,5", help="partners added to the pack")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--live", action="store_true",
                    help="instead: give each tree a .git at its base commit (the mirror's objects borrowed), "
                         "index it, and score comP's own packs with the history it keeps; then take the .git away "
                         "and index again")
    ap.add_argument("--max-tokens", type=int, help="with --live: the packs' budget (comp query's default: 8,000)")
    ap.add_argument("--recency", action="store_true",
                    help="instead: re-rank comP's 150 candidates with a boost for files changed recently or often")
    ap.add_argument("--messages", action="store_true",
                    help="instead: re-rank comP's 150 candidates with BM25 over the messages of the commits that "
                         "changed each file")
    ap.add_argument("--evidence", action="store_true",
                    help="instead: choose the history's two partners with comP's evidence for them (a grid)")
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import sources  # the kit's: find_mirror, is_test_path_polyglot

    if args.live:
        return live(args, sources)
    if args.recency:
        return recency(args, sources)
    if args.messages:
        return messages(args, sources)
    if args.evidence:
        return evidence_partners(args, sources)
    histories = [int(h) for h in args.history.split(",")]
    seed_counts = [int(s) for s in args.seeds.split(",")]
    partner_counts = [int(p) for p in args.partners.split(",")]

    def one(job):
        task, task_file, tree = job
        ranking, pack = comp_answer(args.comp, tree, task_file)
        git_dir = sources.find_mirror(task["repo"], task["base_commit"], args.mirror_root)
        commits = history(git_dir, task["base_commit"], max(histories))
        keep = lambda f: not sources.is_test_path_polyglot(f) and os.path.isfile(os.path.join(tree, f))
        found = {}
        for h in histories:
            for s in seed_counts:
                found[h, s] = partners(commits[:h], ranking[:s], args.largest, keep)
        return task, ranking, pack, found

    for dataset in args.datasets.split(","):
        jobs = cached_tasks(args.cache, dataset)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            answers = list(pool.map(one, jobs))
        n = len(answers)
        every = sum(all(g in pack for g in task["gold_files"]) for task, _, pack, _ in answers)
        at5 = {task["instance_id"] for task, ranking, _, _ in answers if set(task["gold_files"]) & set(ranking[:5])}
        print(f"## {dataset}: {n} tasks; comP sends every gold file in {every}/{n}, Acc@5 {len(at5) / n:.3f}")
        print("| history | seeds | partners added | every gold file sent | tasks gained | files added (sum) "
              "| partner is gold (of those added) | Acc@5, best partner of the first at 5 | gained / lost at 5 |")
        print("| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |")
        for h in histories:
            for s in seed_counts:
                for p in partner_counts:
                    complete, gained, added, golden = 0, [], 0, 0
                    for task, ranking, pack, found in answers:
                        gold = set(task["gold_files"])
                        extra = [f for f, _ in found[h, s] if f not in pack][:p]
                        added += len(extra)
                        golden += len(gold & set(extra))
                        if all(g in pack or g in extra for g in gold):
                            complete += 1
                            if not all(g in pack for g in gold):
                                gained.append(task["instance_id"])
                    line = f"| {h} | {s} | {p} | {complete}/{n} | {', '.join(gained) or '-'} | {added} | {golden} |"
                    if s == 1 and p == partner_counts[0]:
                        hits, won, lost = 0, [], []
                        for task, ranking, pack, found in answers:
                            gold = set(task["gold_files"])
                            best = next((f for f, _ in found[h, s] if f not in ranking[:4]), None)
                            top5 = ranking[:4] + ([best] if best else ranking[4:5])
                            hit = bool(gold & set(top5))
                            hits += hit
                            if hit and task["instance_id"] not in at5:
                                won.append(task["instance_id"])
                            if not hit and task["instance_id"] in at5:
                                lost.append(task["instance_id"])
                        line += f" {hits / n:.3f} | +{len(won)} {', '.join(won)} / -{len(lost)} {', '.join(lost)} |"
                    else:
                        line += " | |"
                    print(line)
        print()


if __name__ == "__main__":
    main()
