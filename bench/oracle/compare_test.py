"""Unit tests of compare.py on a small hand-made oracle and comP edge list.

    cd bench/oracle && python3 -m unittest compare_test
    python3 -m unittest discover -s bench/oracle -p '*_test.py'
"""

import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def T(file, line, name, start=None, end=None, kind="function", local=False, ext=None):
    t = {"file": file, "line": line, "decl_start_line": start or line, "decl_end_line": end or line,
         "name": name, "kind": kind, "local": local}
    if file is None:
        t["ext"] = ext or "lib.d.ts"
    return t


def S(line, col, name, targets, kind="call", file="a.ts"):
    return {"file": file, "line": line, "column": col, "name": name, "kind": kind, "targets": targets}


def E(line, col, name, to=None, to_file=None, to_line=None, to_end=None, to_name=None, status=None, file="a.ts"):
    return {"from": file, "to": to, "kind": "call", "file": file, "line": line, "column": col, "name": name,
            "qualifier": "", "status": status or ("resolved" if to else "unresolved"),
            "candidates": 1 if to else 0, "to_file": to_file, "to_line": to_line,
            "to_end_line": to_end, "to_name": to_name}


ORACLE = [
    S(1, 1, "foo", [T("b.ts", 10, "foo", 10, 12)]),                        # S1 correct
    S(2, 5, "bar", [T("b.ts", 20, "bar", 20, 25, kind="method")]),         # S2 wrong target
    S(3, 9, "log", [T(None, 37915, "log", ext="lib.dom.d.ts")]),           # S3 oracle external
    S(4, 1, "baz", [T("b.ts", 30, "baz")]),                                # S4 comP unresolved
    S(5, 1, "qux", [T("b.ts", 40, "qux")]),                                # S5 no comP edge
    S(6, 3, "foo", [T("b.ts", 10, "foo", 10, 12)]),                        # S6 column differs
    S(7, 1, "zap", []),                                                    # S7 oracle no answer
    S(9, 1, "Foo", [T("b.ts", 50, "Foo", 50, 60, kind="class")], "new"),   # S8 names disagree
    S(10, 1, "make", [T("b.ts", 70, "make", 68, 75)]),                     # S9 to_line in decl range
    S(11, 1, "cb", [T("a.ts", 1, "cb", kind="parameter", local=True)]),    # S10 local target
    S(12, 1, "f", [T("b.ts", 80, "f", 80, 81)]),                           # S11 wrong (same line)
    S(12, 8, "f", [T("b.ts", 80, "f", 80, 81)]),                           # S12 correct
    S(13, 1, "g", [T("b.ts", 90, "g"), T("b.ts", 95, "g")]),               # S13 two comP edges
]

COMP = [
    E(1, 1, "foo", "b.ts::foo", "b.ts", 10, 12, "foo"),
    E(2, 5, "bar", "c.ts::bar", "c.ts", 3, 4, "bar"),
    E(3, 9, "log", "a.ts::log", "a.ts", 50, 52, "log"),
    E(4, 1, "baz", status="unresolved"),
    E(6, 4, "foo", "b.ts::foo", "b.ts", 10, 12, "foo"),
    E(7, 1, "zap", "b.ts::zap", "b.ts", 99, 100, "zap"),
    E(8, 1, "ghost", "b.ts::ghost", "b.ts", 101, 102, "ghost"),
    E(9, 1, "Foo", "b.ts::Bar", "b.ts", 49, 61, "Bar"),
    E(10, 1, "make", "b.ts::make", "b.ts", 69, 69, "make"),
    E(12, 1, "f", "c.ts::f", "c.ts", 5, 6, "f"),
    E(12, 8, "f", "b.ts::f", "b.ts", 80, 81, "f"),
    E(13, 1, "g", "c.ts::g", "c.ts", 7, 8, "g", status="ambiguous"),
    E(13, 1, "g", "b.ts::g", "b.ts", 95, 96, "g", status="ambiguous"),
    {"from": "a.ts", "to": "b.ts", "kind": "import", "file": "a.ts", "line": 1, "column": 1, "name": "b",
     "qualifier": "", "status": "resolved", "candidates": 1, "to_file": "b.ts", "to_line": 1,
     "to_end_line": 200, "to_name": None},
]


class HelpersTest(unittest.TestCase):
    def test_simple_name(self):
        self.assertEqual(compare.simple_name("src/b.ts::Foo.bar#2"), "bar")
        self.assertEqual(compare.simple_name("bar"), "bar")
        self.assertTrue(compare.names_agree("Foo.bar", "bar"))
        self.assertTrue(compare.names_agree(None, "bar"))
        self.assertFalse(compare.names_agree("Bar", "Foo"))

    def test_edge_matches(self):
        t = T("b.ts", 10, "foo", 9, 12)
        self.assertTrue(compare.edge_matches(E(1, 1, "foo", "x", "b.ts", 10, 12, "foo"), t))
        self.assertTrue(compare.edge_matches(E(1, 1, "foo", "x", "./b.ts", 9, 9, None), t))
        self.assertFalse(compare.edge_matches(E(1, 1, "foo", "x", "c.ts", 10, 12, "foo"), t))
        self.assertFalse(compare.edge_matches(E(1, 1, "foo", "x", "b.ts", 13, 20, "foo"), t))
        self.assertFalse(compare.edge_matches(E(1, 1, "foo", "x", "b.ts", 10, 12, "oof"), t))
        self.assertFalse(compare.edge_matches(E(1, 1, "foo", "x", "b.ts", None, None, "foo"), t))
        self.assertFalse(compare.edge_matches(E(1, 1, "foo", "x", None, None, None, "foo"), T(None, 1, "foo")))


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.r = compare.compare(json.loads(json.dumps(ORACLE)), compare.load_comp_list(json.loads(json.dumps(COMP))))

    def test_site_numbers(self):
        s, c = self.r["sites"], self.r["counts"]
        self.assertEqual(c["oracle_sites"], 13)
        self.assertEqual(c["oracle_answered"], 12)
        self.assertEqual(c["oracle_in_project"], 11)
        self.assertEqual(c["oracle_external_only"], 1)
        self.assertEqual(c["oracle_no_answer"], 1)
        self.assertEqual(s["comp_resolved_answered"], 9)
        self.assertEqual(s["correct"], 5)
        self.assertEqual(s["precision"], round(5 / 9, 4))
        self.assertEqual(s["recall"], round(5 / 11, 4))
        self.assertEqual(s["oracle_in_project_nonlocal"], 10)
        self.assertEqual(s["recall_nonlocal"], 0.5)
        self.assertEqual(c["comp_resolved_oracle_no_answer"], 1)
        self.assertEqual(c["comp_resolved_not_enumerated"], 1)
        self.assertEqual(c["column_fallback_pairs"], 1)
        self.assertEqual(c["comp_resolved_multi_target"], 1)
        self.assertEqual(c["comp_call_edges"], 13)  # the import edge is not read

    def test_pairs(self):
        p = self.r["pairs"]
        self.assertEqual((p["comp_pairs"], p["comp_pairs_correct"]), (9, 4))
        self.assertEqual((p["oracle_pairs"], p["oracle_pairs_found"]), (9, 4))

    def test_categories(self):
        fp = {(x["category"], x["name"]): x["count"] for x in self.r["false_positives"]}
        self.assertEqual(fp, {("FP: other in-project target", "bar"): 1,
                              ("FP: oracle says external", "log"): 1,
                              ("FP: other in-project target", "Foo"): 1,
                              ("FP: other in-project target", "f"): 1})
        miss = {(x["category"], x["name"]): x["count"] for x in self.r["misses"]}
        self.assertEqual(miss, {("miss: comP wrong target", "bar"): 1,
                                ("miss: comP unresolved", "baz"): 1,
                                ("miss: no comP edge", "qux"): 1,
                                ("miss: comP wrong target", "Foo"): 1,
                                ("miss: no comP edge", "cb"): 1,
                                ("miss: comP wrong target", "f"): 1})
        self.assertEqual(self.r["comp_status_at_in_project_sites"],
                         {"resolved": 8, "no comP edge": 2, "unresolved": 1})

    def test_same_line_same_name_uses_columns(self):
        # S11 (column 1) must pair with comP's column-1 edge, not steal column 8's.
        ex = [x for x in self.r["misses"] if x["name"] == "f"][0]["example"]
        self.assertIn("a.ts:12:1", ex)
        self.assertIn("c.ts::f", ex)

    def test_cli_markdown_and_json(self):
        with tempfile.TemporaryDirectory() as d:
            o, c = os.path.join(d, "o.jsonl"), os.path.join(d, "c.json")
            with open(o, "w") as f:
                f.write("".join(json.dumps(s) + "\n" for s in ORACLE))
            with open(c, "w") as f:
                json.dump(COMP, f)
            buf = io.StringIO()
            with redirect_stdout(buf):
                compare.main(["--oracle", o, "--comp", c, "--examples", "3"])
            md = buf.getvalue()
            self.assertIn("| call sites | 55.6% | 45.5% | 50.0% | 5 | 9 | 11 |", md)
            self.assertIn("| (caller file, target) pairs | 44.4% | 44.4% |", md)
            buf = io.StringIO()
            with redirect_stdout(buf):
                compare.main(["--oracle", o, "--comp", c, "--json", "--examples", "2"])
            r = json.loads(buf.getvalue())
            self.assertEqual(r["sites"]["correct"], 5)
            self.assertEqual(len(r["misses"]), 2)

    def test_empty_comp(self):
        r = compare.compare(json.loads(json.dumps(ORACLE)), [])
        self.assertEqual(r["sites"]["precision"], None)
        self.assertEqual(r["sites"]["recall"], 0.0)


if __name__ == "__main__":
    unittest.main()
