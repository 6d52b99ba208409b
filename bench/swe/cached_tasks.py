"""The tasks of a bench-swe dataset as the kit's make_tasks.py/run.py cached them.

Under CACHE (`$COMP_SWE_CACHE`): `tasks/DATASET/<instance id>.json` (beside
the kit's `index.json`) and each task's tree at
`trees/<owner>+<name>/<base commit>`.
"""
import json
import os


def cached_tasks(cache, dataset, ids=()):
    """(task, task file, tree) for each task of `dataset`, by file name; only
    those in `ids` when it is not empty (by instance id or file stem)."""
    task_dir = os.path.join(cache, "tasks", dataset)
    out = []
    for name in sorted(os.listdir(task_dir)):
        if not name.endswith(".json") or name == "index.json":
            continue
        path = os.path.join(task_dir, name)
        task = json.load(open(path))
        if ids and name[: -len(".json")] not in ids and task["instance_id"] not in ids:
            continue
        tree = os.path.join(cache, "trees", task["repo"].replace("/", "+"), task["base_commit"])
        out.append((task, path, tree))
    return out
