#!/usr/bin/env python3
"""Document extraction throughput through the real indexer.

For each format, copies its fixtures (written by real producers, see
daemon/tests/docs/make_*.mjs) N times into a fresh folder and runs
`comp index --jobs 1` on it under /usr/bin/time: documents per second,
megabytes per second and peak RSS. Unreadable fixtures (encrypted,
hostile) are left out: this measures extraction.

usage: bench/docs_bench.py [--comp build/comp] [--copies 200]
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "daemon", "tests", "docs", "fixtures")
FORMATS = {
    "docx": ["report.docx"],
    "pptx": ["slides.pptx"],
    "xlsx": ["sheets.xlsx", "sheets_inline.xlsx"],
    "pdf": ["three_pages.pdf", "empty_page.pdf"],
    "parquet": ["orders.parquet", "flat.parquet", "wasm.parquet"],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--comp", default=os.path.join(HERE, "..", "build", "comp"))
    parser.add_argument("--copies", type=int, default=200)
    args = parser.parse_args()
    comp = os.path.abspath(args.comp)
    print("| format | documents | MB | wall s | documents/s | MB/s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for fmt, names in FORMATS.items():
        work = tempfile.mkdtemp(prefix=f"docs-bench-{fmt}-")
        total = 0
        count = 0
        for i in range(args.copies):
            for name in names:
                source = os.path.join(FIXTURES, name)
                stem, ext = os.path.splitext(name)
                target = os.path.join(work, f"d{i // 100}", f"{stem}_{i}{ext}")
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(source, target)
                total += os.path.getsize(source)
                count += 1
        result = subprocess.run(["/usr/bin/time", "-v", comp, "index", "--root", work, "--jobs", "1"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(result.stderr)
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", result.stderr)
        seconds = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3)))
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr).group(1))
        parsed = re.search(r"(\d+) parsed", result.stdout)
        print(f"| {fmt} | {count} ({parsed.group(1) if parsed else '?'} indexed) | {total / 1e6:.1f} | {seconds:.2f} | "
              f"{count / seconds:.0f} | {total / 1e6 / seconds:.1f} | {rss / 1024:.0f} |")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
