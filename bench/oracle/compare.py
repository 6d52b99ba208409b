#!/usr/bin/env python3
"""Precision and recall of comP's call edges against a call-site oracle.

    python3 bench/oracle/compare.py --oracle OUT.jsonl --comp COMP_EDGES.json \\
        [--json] [--examples N]

OUT.jsonl comes from ts_calls.mjs or py_calls.py (one call site a line);
COMP_EDGES.json from `comp edges --root ROOT --kind call --json` (a JSON
array of edges; only kind "call" is read).

Definitions (call-site granularity):
- An oracle site is *answered* when it has at least one target, and
  *in-project* when at least one target has a non-null file.
- comP *resolved* a site when it emits a call edge with a non-null "to" at
  the site's (file, line, column); a comP site whose column matches no oracle
  site is paired with an unpaired oracle site of the same (file, line, name).
- A resolved comP edge is *correct* when it matches an oracle target: same
  file, and the oracle target's name line lies within [to_line, to_end_line]
  or comP's to_line lies within [decl_start_line, decl_end_line], and the
  names agree when comP's to_name is known. A site is correct when one of
  its resolved edges is.
- precision = correct sites / comP-resolved sites that the oracle enumerated
  and answered (in-project or external); resolved sites that the oracle did
  not enumerate or did not answer are counted apart.
- recall = correct sites / in-project oracle sites. "recall (non-local)"
  leaves out sites whose in-project targets are all parameters or names bound
  inside a function (comP has no node for those).

Second table, distinct pairs: comP's pairs are (caller file, "to" node) over
resolved edges at answered sites, correct when one of its edges is; the
oracle's are (caller file, the set of in-project targets of a site) over
in-project sites, found when one of those sites has a correct edge.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys


def norm_path(p):
    if p is None:
        return None
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p


def simple_name(n: str) -> str:
    n = re.sub(r"#\d+$", "", n)
    for sep in ("::", "."):
        if sep in n:
            n = n.rsplit(sep, 1)[1]
    return n


def names_agree(comp_name, oracle_name) -> bool:
    if not comp_name or not oracle_name:
        return True
    return comp_name == oracle_name or simple_name(comp_name) == simple_name(oracle_name)


def edge_matches(e: dict, t: dict) -> bool:
    if t.get("file") is None or norm_path(e.get("to_file")) != t["file"]:
        return False
    tl = e.get("to_line")
    if tl is None:
        return False
    te = e.get("to_end_line") or tl
    tline = t.get("line")
    ds = t.get("decl_start_line") or tline
    de = t.get("decl_end_line") or ds
    inside = (tline is not None and tl <= tline <= te) or (ds is not None and ds <= tl <= de)
    return inside and names_agree(e.get("to_name"), t.get("name"))


def load_oracle(path: str) -> list[dict]:
    sites = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError as e:
                raise SystemExit(f"{path}:{n}: bad JSON: {e}")
            r["file"] = norm_path(r["file"])
            for t in r.get("targets") or []:
                t["file"] = norm_path(t.get("file"))
            r["targets"] = r.get("targets") or []
            sites.append(r)
    return sites


def load_comp(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, dict) and "edges" in data:
        data = data["edges"]
    return load_comp_list(data)


def load_comp_list(data: list[dict]) -> list[dict]:
    edges = [e for e in data if e.get("kind", "call") == "call"]
    for e in edges:
        e["file"] = norm_path(e.get("file"))
        e["to_file"] = norm_path(e.get("to_file"))
    return edges


def target_str(t: dict) -> str:
    if t.get("file") is None:
        where = "<unresolved import>" if t.get("unresolved_import") else f"<external {t.get('ext') or '?'}>"
        return f"{where} {t.get('name', '')}".strip()
    return f"{t['file']}:{t['line']} {t.get('name', '')} ({t.get('kind', '?')})"


def comp_str(edges: list[dict]) -> str:
    out = []
    for e in edges:
        if e.get("to"):
            out.append(f"{e['to']} @{e.get('to_file')}:{e.get('to_line')}-{e.get('to_end_line')}")
        else:
            out.append(f"<{e.get('status', '?')}, {e.get('candidates', 0)} candidates>")
    return "; ".join(out[:3]) + (f" (+{len(out) - 3})" if len(out) > 3 else "")


def by_category(kinds: collections.Counter) -> dict:
    cats = collections.Counter()
    for (cat, _name), n in kinds.items():
        cats[cat] += n
    return dict(cats.most_common())


def ratio(a: int, b: int):
    return round(a / b, 4) if b else None


def compare(oracle: list[dict], comp_edges: list[dict]) -> dict:
    # comP sites: (file, line, column) -> edges
    comp_sites: dict[tuple, list[dict]] = collections.defaultdict(list)
    for e in comp_edges:
        comp_sites[(e["file"], e.get("line"), e.get("column"))].append(e)
    by_line_name: dict[tuple, list[tuple]] = collections.defaultdict(list)
    for key, es in comp_sites.items():
        by_line_name[(key[0], key[1], es[0].get("name"))].append(key)
    for keys in by_line_name.values():
        keys.sort(key=lambda k: (k[2] is None, k[2] or 0))

    oracle_keys = {(s["file"], s["line"], s["column"]) for s in oracle}
    used: set[tuple] = set()
    pairing: list[tuple[dict, tuple | None]] = []
    fallback = 0
    # exact column first, for every site, so that the fallback cannot steal
    for s in oracle:
        k = (s["file"], s["line"], s["column"])
        if k in comp_sites and k not in used:
            used.add(k)
            pairing.append((s, k))
        else:
            pairing.append((s, None))
    for i, (s, k) in enumerate(pairing):
        if k is not None:
            continue
        for ck in by_line_name.get((s["file"], s["line"], s["name"]), []):
            if ck not in used and ck not in oracle_keys:
                used.add(ck)
                pairing[i] = (s, ck)
                fallback += 1
                break

    st = collections.Counter()
    fp_kinds = collections.Counter()
    fp_example: dict[tuple, str] = {}
    miss_kinds = collections.Counter()
    miss_example: dict[tuple, str] = {}
    comp_status_at_in_project = collections.Counter()
    recall_by_kind = collections.defaultdict(lambda: [0, 0])
    comp_pairs: dict[tuple, bool] = {}
    oracle_pairs: dict[tuple, bool] = {}

    for s, ck in pairing:
        targets = s["targets"]
        answered = bool(targets)
        in_proj = [t for t in targets if t.get("file") is not None]
        st["oracle_sites"] += 1
        if answered:
            st["oracle_answered"] += 1
            if in_proj:
                st["oracle_in_project"] += 1
            else:
                st["oracle_external_only"] += 1
                if all(t.get("unresolved_import") for t in targets):
                    st["oracle_unresolved_import_only"] += 1
        else:
            st["oracle_no_answer"] += 1
        edges = comp_sites.get(ck, []) if ck else []
        resolved = [e for e in edges if e.get("to")]
        good = [e for e in resolved if any(edge_matches(e, t) for t in in_proj)]
        correct = bool(good)
        nonlocal_site = any(not t.get("local") for t in in_proj)
        if ck:
            st["comp_sites_paired"] += 1
        if resolved:
            st["comp_resolved_paired"] += 1
            if len({e["to"] for e in resolved}) > 1:
                st["comp_resolved_multi_target"] += 1
            if answered:
                st["precision_den"] += 1
                if correct:
                    st["correct"] += 1
                else:
                    cat = "FP: oracle says external" if not in_proj else "FP: other in-project target"
                    key = (cat, s["name"])
                    fp_kinds[key] += 1
                    fp_example.setdefault(key, f"{s['file']}:{s['line']}:{s['column']} | comP {comp_str(resolved)} | "
                                               f"oracle {'; '.join(target_str(t) for t in targets[:2])}")
                for e in resolved:
                    pk = (s["file"], e["to"])
                    comp_pairs[pk] = comp_pairs.get(pk, False) or any(edge_matches(e, t) for t in in_proj)
            else:
                st["comp_resolved_oracle_no_answer"] += 1
        if in_proj:
            status = "no comP edge" if not edges else (
                "resolved" if resolved else "/".join(sorted({e.get("status", "?") for e in edges})))
            comp_status_at_in_project[status] += 1
            kind = in_proj[0].get("kind", "?")
            recall_by_kind[kind][1] += 1
            if correct:
                recall_by_kind[kind][0] += 1
            if nonlocal_site:
                st["oracle_in_project_nonlocal"] += 1
                if correct:
                    st["correct_nonlocal"] += 1
            pk = (s["file"], tuple(sorted((t["file"], t["line"]) for t in in_proj)))
            oracle_pairs[pk] = oracle_pairs.get(pk, False) or correct
            if not correct:
                cat = {"no comP edge": "miss: no comP edge", "resolved": "miss: comP wrong target"}.get(
                    status, f"miss: comP {status}")
                key = (cat, s["name"])
                miss_kinds[key] += 1
                miss_example.setdefault(key, f"{s['file']}:{s['line']}:{s['column']} | comP {comp_str(edges) or '-'} | "
                                             f"oracle {'; '.join(target_str(t) for t in in_proj[:2])}")

    # comP sites that no oracle site paired with
    for ck, es in comp_sites.items():
        if ck in used:
            continue
        st["comp_sites_unpaired"] += 1
        if any(e.get("to") for e in es):
            st["comp_resolved_not_enumerated"] += 1

    st["comp_call_edges"] = len(comp_edges)
    st["comp_sites"] = len(comp_sites)
    st["comp_resolved_sites"] = sum(1 for es in comp_sites.values() if any(e.get("to") for e in es))
    st["column_fallback_pairs"] = fallback
    status_all = collections.Counter(e.get("status", "?") for e in comp_edges)

    result = {
        "sites": {
            "precision": ratio(st["correct"], st["precision_den"]),
            "recall": ratio(st["correct"], st["oracle_in_project"]),
            "recall_nonlocal": ratio(st["correct_nonlocal"], st["oracle_in_project_nonlocal"]),
            "correct": st["correct"],
            "comp_resolved_answered": st["precision_den"],
            "oracle_in_project": st["oracle_in_project"],
            "oracle_in_project_nonlocal": st["oracle_in_project_nonlocal"],
        },
        "pairs": {
            "precision": ratio(sum(comp_pairs.values()), len(comp_pairs)),
            "recall": ratio(sum(oracle_pairs.values()), len(oracle_pairs)),
            "comp_pairs": len(comp_pairs),
            "comp_pairs_correct": sum(comp_pairs.values()),
            "oracle_pairs": len(oracle_pairs),
            "oracle_pairs_found": sum(oracle_pairs.values()),
        },
        "counts": dict(sorted(st.items())),
        "comp_status_all_call_edges": dict(status_all.most_common()),
        "comp_status_at_in_project_sites": dict(comp_status_at_in_project.most_common()),
        "recall_by_target_kind": {k: {"found": v[0], "sites": v[1], "recall": ratio(*v)}
                                  for k, v in sorted(recall_by_kind.items(), key=lambda kv: -kv[1][1])},
        "false_positive_categories": by_category(fp_kinds),
        "miss_categories": by_category(miss_kinds),
        "false_positives": [{"category": k[0], "name": k[1], "count": n, "example": fp_example[k]}
                            for k, n in fp_kinds.most_common()],
        "misses": [{"category": k[0], "name": k[1], "count": n, "example": miss_example[k]}
                   for k, n in miss_kinds.most_common()],
    }
    return result


def pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def markdown(r: dict, examples: int) -> str:
    s, p, c = r["sites"], r["pairs"], r["counts"]
    out = []
    out.append("| granularity | precision | recall | recall (non-local) | correct | comP resolved (answered) | oracle in-project |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    out.append(f"| call sites | {pct(s['precision'])} | {pct(s['recall'])} | {pct(s['recall_nonlocal'])} | "
               f"{s['correct']:,} | {s['comp_resolved_answered']:,} | {s['oracle_in_project']:,} |")
    out.append("")
    out.append("| granularity | precision | recall | comP pairs (correct) | oracle pairs (found) |")
    out.append("| --- | ---: | ---: | ---: | ---: |")
    out.append(f"| (caller file, target) pairs | {pct(p['precision'])} | {pct(p['recall'])} | "
               f"{p['comp_pairs']:,} ({p['comp_pairs_correct']:,}) | {p['oracle_pairs']:,} ({p['oracle_pairs_found']:,}) |")
    out.append("")
    out.append(f"Oracle: {c.get('oracle_sites', 0):,} call sites, {c.get('oracle_answered', 0):,} answered "
               f"({c.get('oracle_in_project', 0):,} in-project, {c.get('oracle_external_only', 0):,} external only, "
               f"of which {c.get('oracle_unresolved_import_only', 0):,} unresolved imports), "
               f"{c.get('oracle_no_answer', 0):,} without answer.")
    out.append(f"comP: {c.get('comp_call_edges', 0):,} call edges at {c.get('comp_sites', 0):,} sites "
               f"({c.get('comp_resolved_sites', 0):,} resolved); {c.get('comp_sites_paired', 0):,} sites paired with the oracle "
               f"({c.get('column_fallback_pairs', 0):,} by (file, line, name)); resolved sites the oracle did not "
               f"enumerate: {c.get('comp_resolved_not_enumerated', 0):,}; resolved where the oracle gave no answer: "
               f"{c.get('comp_resolved_oracle_no_answer', 0):,}; resolved to more than one node: "
               f"{c.get('comp_resolved_multi_target', 0):,}.")
    out.append("")
    out.append("comP at the oracle's in-project sites: " +
               ", ".join(f"{k} {v:,}" for k, v in r["comp_status_at_in_project_sites"].items()))
    out.append("")
    out.append("Recall by the oracle target's kind: " +
               ", ".join(f"{k} {pct(v['recall'])} of {v['sites']:,}" for k, v in r["recall_by_target_kind"].items()))
    for title, cats in (("False positives", r["false_positive_categories"]), ("Misses", r["miss_categories"])):
        if cats:
            out.append("")
            out.append(f"{title} by category: " + ", ".join(f"{k} {v:,}" for k, v in cats.items()))
    if examples > 0:
        for title, rows in (("False positives", r["false_positives"]), ("Misses", r["misses"])):
            out.append("")
            if not rows:
                out.append(f"{title}: none.")
                continue
            out.append(f"{title} (top {examples} by category and name):")
            out.append("")
            out.append("| count | category | name | example: site \\| comP \\| oracle |")
            out.append("| ---: | --- | --- | --- |")
            for row in rows[:examples]:
                ex = row["example"].replace("|", "\\|")
                out.append(f"| {row['count']:,} | {row['category']} | `{row['name']}` | {ex} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="comP call edges vs a call-site oracle")
    ap.add_argument("--oracle", required=True, help="ts_calls.mjs / py_calls.py output (JSON lines)")
    ap.add_argument("--comp", required=True, help="`comp edges --kind call --json` output")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--examples", type=int, default=20, help="rows of false positives and misses (default 20)")
    args = ap.parse_args(argv)
    r = compare(load_oracle(args.oracle), load_comp(args.comp))
    if args.json:
        r["false_positives"] = r["false_positives"][: max(args.examples, 0)]
        r["misses"] = r["misses"][: max(args.examples, 0)]
        json.dump(r, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(markdown(r, args.examples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
