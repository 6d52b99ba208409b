#!/usr/bin/env python3
"""Load on one workspace: several `comp serve` processes at once, each with
many requests in flight, while files are edited, created, renamed and
deleted. Afterwards: every request answered exactly once, no error answers,
every process alive, and `comp check` (SQLite integrity_check + FTS5 checks)
says ok.

usage: bench/daemon_load.py [--comp build/comp] [--daemons 3] [--requests 300]
                            [--in-flight 8] [--edits 100] TREE
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", default=os.path.join(os.path.dirname(__file__), "..", "build", "comp"))
    parser.add_argument("--daemons", type=int, default=3)
    parser.add_argument("--requests", type=int, default=300, help="per daemon")
    parser.add_argument("--in-flight", type=int, default=8, help="requests outstanding per daemon")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("tree")
    args = parser.parse_args()
    comp = os.path.abspath(args.comp)
    work = tempfile.mkdtemp(prefix="daemon-load-")
    root = os.path.join(work, os.path.basename(os.path.normpath(args.tree)))
    shutil.copytree(args.tree, root, symlinks=True, ignore=shutil.ignore_patterns(".comp"))
    subprocess.run([comp, "index", "--root", root], check=True, capture_output=True)
    symbols = json.loads(subprocess.run([comp, "symbols", "--root", root, "--kind", "function", "--json"],
                                        check=True, capture_output=True, text=True).stdout)
    rng = random.Random(11)
    names = [s["name"] for s in rng.sample(symbols, min(50, len(symbols)))]
    files = sorted({s["file"] for s in symbols})

    def make_request(i):
        kind = i % 5
        name = names[i % len(names)]
        if kind == 0:
            return "run_pipeline", {"task": f"{name} returns the wrong value when called twice", "max_tokens": 4000}
        if kind == 1:
            return "search", {"query": name}
        if kind == 2:
            return "get_symbol", {"name": name}
        if kind == 3:
            return "get_file", {"path": files[i % len(files)], "level": 2}
        return "index_status", {}

    results = []
    lock = threading.Lock()

    def drive(index):
        proc = subprocess.Popen([comp, "serve", "--root", root, "--log-level", "warn"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        answers, sent_at, latencies = {}, {}, {}
        errors = []
        window = threading.Semaphore(args.in_flight)

        def reader():
            buffer = b""
            while True:
                chunk = os.read(proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if "id" not in message:
                        continue  # index_progress
                    answers[message["id"]] = answers.get(message["id"], 0) + 1
                    latencies[message["id"]] = time.perf_counter() - sent_at[message["id"]]
                    if "error" in message:
                        errors.append(message)
                    window.release()

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        proc.stdin.write(b'{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}\n')
        sent_at["init"] = time.perf_counter()
        window.acquire()
        kinds = {}
        for i in range(args.requests):
            window.acquire()
            method, params = make_request(i + index)
            request_id = f"{index}-{i}"
            kinds[request_id] = method
            sent_at[request_id] = time.perf_counter()
            proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
                              + "\n").encode())
        deadline = time.time() + 300
        while len(answers) < args.requests + 1 and time.time() < deadline:
            time.sleep(0.05)
        alive = proc.poll() is None
        proc.stdin.close()
        exit_code = proc.wait(timeout=60)
        thread.join(timeout=10)
        by_kind = {}
        for request_id, method in kinds.items():
            if request_id in latencies:
                by_kind.setdefault(method, []).append(latencies[request_id] * 1000)
        with lock:
            results.append({"daemon": index, "answered": sum(1 for k in kinds if answers.get(k) == 1),
                            "duplicates": sum(1 for k in kinds if answers.get(k, 0) > 1),
                            "missing": sum(1 for k in kinds if k not in answers), "errors": errors,
                            "alive_until_eof": alive, "exit_code": exit_code, "by_kind": by_kind})

    def edit():
        folder = os.path.join(root, "zz_load")
        os.makedirs(folder, exist_ok=True)
        present = []
        for i in range(args.edits):
            action = rng.random()
            if action < 0.4 or not present:
                path = os.path.join(folder, f"m{i}.py")
                with open(path, "w") as out:
                    out.write(f"def load_{i}(x):\n    return x + {i}\n")
                present.append(path)
            elif action < 0.7:
                with open(rng.choice(present), "a") as out:
                    out.write(f"\ndef extra_{i}():\n    return {i}\n")
            elif action < 0.85:
                old = present.pop(rng.randrange(len(present)))
                new = os.path.join(folder, f"r{i}.py")
                os.rename(old, new)
                present.append(new)
            else:
                os.remove(present.pop(rng.randrange(len(present))))
            time.sleep(0.05)

    started = time.perf_counter()
    threads = [threading.Thread(target=drive, args=(i,)) for i in range(args.daemons)]
    threads.append(threading.Thread(target=edit))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    check = subprocess.run([comp, "check", "--root", root], capture_output=True, text=True)
    ok = True
    total = sum(r["answered"] for r in results)
    for r in sorted(results, key=lambda r: r["daemon"]):
        line = (f"daemon {r['daemon']}: {r['answered']} answered once, {r['missing']} missing, {r['duplicates']} "
                f"duplicated, {len(r['errors'])} errors, alive until EOF: {r['alive_until_eof']}, exit {r['exit_code']}")
        print(line)
        for error in r["errors"][:3]:
            print("   ", json.dumps(error)[:300])
        ok = ok and r["missing"] == 0 and r["duplicates"] == 0 and not r["errors"] and r["alive_until_eof"] \
            and r["exit_code"] == 0
    merged = {}
    for r in results:
        for kind, values in r["by_kind"].items():
            merged.setdefault(kind, []).extend(values)
    for kind, values in sorted(merged.items()):
        values.sort()
        print(f"  {kind}: n={len(values)} p50 {statistics.median(values):.1f} ms, "
              f"p95 {values[int(len(values) * 0.95) - 1]:.1f} ms")
    print(f"{args.daemons} daemons x {args.requests} requests ({args.in_flight} in flight each) with {args.edits} "
          f"file edits: {total} answers in {elapsed:.1f} s; comp check: {check.stdout.strip()} (exit {check.returncode})")
    ok = ok and check.returncode == 0
    shutil.rmtree(work, ignore_errors=True)
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
