#!/usr/bin/env python3
"""How soon does a comP daemon follow a commit that changes no file?

usage: bench/swe/follow_commit.py COMP [OTHER_COMP] [--cache DIR] [--mirror-root DIR]
                                  [--repo mui/material-ui] [--commits 5] [--wait 15]
                                  [--below DIR | --worktree]

Takes one of the kit's cached trees of --repo (the first, by base commit),
gives it a .git at that commit (the mirror's objects borrowed, as
cochange.py --live does), indexes it, and starts `COMP mcp` on it. Then, --commits
times, `git commit --allow-empty` (HEAD moves, no file changes) and polls
the index (`.comp/graph.db`, read-only) until its history_head is the new
HEAD, at most --wait seconds. Prints each time and the median, per binary
(OTHER_COMP runs after COMP on the same tree). Afterwards the .git is
removed and the tree indexed again. --below DIR: the daemon's root is that
folder of the tree (git's directory is above it); --worktree: the daemon
runs on a linked worktree of the tree (`git worktree add --detach`, removed
afterwards), whose git directory is in the tree's .git/worktrees/, and the
commits are made there. git runs with argument lists, never a shell.
Standard library only.
"""
import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

from cached_tasks import cached_tasks
import cochange

HERE = os.path.dirname(os.path.abspath(__file__))


def head_in_index(tree):
    db = sqlite3.connect(f"file:{os.path.join(tree, '.comp', 'graph.db')}?mode=ro", uri=True)
    try:
        return db.execute("SELECT head FROM history_head").fetchone()[0]
    finally:
        db.close()


def follow(comp, tree, commits, wait):
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
    cochange.comp_index(comp, tree)
    daemon = subprocess.Popen([comp, "mcp", "--root", tree, "--log-level", "error"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)
    try:
        time.sleep(wait / 2)  # its first whole walk
        times = []
        for i in range(commits):
            subprocess.run(["git", "-C", tree, "commit", "-q", "--allow-empty", "-m", f"bench {i}"], check=True, env=env)
            started = time.monotonic()
            head = subprocess.run(["git", "-C", tree, "rev-parse", "HEAD"], capture_output=True, text=True,
                                  check=True).stdout.strip()
            while head_in_index(tree) != head and time.monotonic() - started < wait:
                time.sleep(0.01)
            times.append(time.monotonic() - started)
            time.sleep(1)
        return times
    finally:
        daemon.stdin.close()
        daemon.wait(timeout=60)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("comp", nargs="+")
    ap.add_argument("--cache", default=os.environ.get("COMP_SWE_CACHE", os.path.expanduser("~/.cache/comp-swe")))
    ap.add_argument("--mirror-root", default=os.environ.get("SWE_MIRROR_ROOT"))
    ap.add_argument("--kit", default=os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench-swe")))
    ap.add_argument("--dataset", default="polybench-dev")
    ap.add_argument("--repo", default="mui/material-ui")
    ap.add_argument("--commits", type=int, default=5)
    ap.add_argument("--wait", type=float, default=15, help="seconds before a commit counts as not followed")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--below", help="the daemon's root: this folder of the tree")
    where.add_argument("--worktree", action="store_true", help="the daemon's root: a linked worktree of the tree")
    args = ap.parse_args()
    sys.path.insert(0, args.kit)
    import sources  # the kit's: find_mirror

    task, _, tree = next(t for t in cached_tasks(args.cache, args.dataset) if t[0]["repo"] == args.repo)
    git_dir = sources.find_mirror(task["repo"], task["base_commit"], args.mirror_root)
    with cochange.history_given(args.comp[0], tree, git_dir, task["base_commit"]):
        root, shown = tree, args.repo
        if args.below:
            root, shown = os.path.join(tree, args.below), f"{args.repo}, root {args.below}/"
            if not os.path.isdir(root):
                sys.exit(f"follow_commit.py: no folder {args.below} in {tree}")
        if args.worktree:
            root, shown = tree.rstrip("/") + ".worktree", f"{args.repo}, a linked worktree"
            subprocess.run(["git", "-C", tree, "worktree", "add", "-q", "--detach", "--", root, "HEAD"], check=True)
        try:
            for comp in args.comp:
                times = follow(comp, root, args.commits, args.wait)
                followed = sum(t < args.wait for t in times)
                print(f"{comp}: {shown}, commit -> history current: {', '.join(f'{t:.2f}' for t in times)} s; "
                      f"median {statistics.median(times):.2f} s; followed within {args.wait:g} s: "
                      f"{followed}/{len(times)}", flush=True)
        finally:
            if args.worktree:
                subprocess.run(["git", "-C", tree, "worktree", "remove", "--force", "--", root], check=True)
            elif args.below:
                shutil.rmtree(os.path.join(root, ".comp"), ignore_errors=True)


if __name__ == "__main__":
    main()
