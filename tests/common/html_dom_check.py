#!/usr/bin/env python3
"""Checks a report page's DOM as the browser left it (chromium --dump-dom) against the
JSON report of the same run: the page's script ran and reported no error, every workload
section has a headline table and (when charts are expected) an inline SVG, and every CI
cell holds the JSON row's interval, at full precision in its data attributes and rounded
in its text. Prints one line per problem; exit 1 when there is any.
Usage: html_dom_check.py DOM.html REPORT.json [--charts]"""
import html.parser
import json
import re
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.js_ran = False
        self.errors = []          # texts of #js-errors items
        self.sections = []        # [{"id", "tables", "svgs"}]
        self.ci_cells = []        # [(row attrs, cell attrs, text)]
        self._stack = []
        self._row = None
        self._ci = None
        self._in_errors = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html" and a.get("data-js") == "ran":
            self.js_ran = True
        if tag == "ul" and a.get("id") == "js-errors":
            self._in_errors = True
        if self._in_errors and tag == "li":
            self.errors.append("")
        if tag == "section" and "workload" in a.get("class", "").split():
            self.sections.append({"id": a.get("id"), "tables": 0, "svgs": 0})
        if self.sections and tag == "table" and "headline" in a.get("class", "").split():
            self.sections[-1]["tables"] += 1
        if self.sections and tag == "svg":
            self.sections[-1]["svgs"] += 1
        if tag == "tr" and "data-metric" in a:
            self._row = a
        if tag == "td" and "ci" in a.get("class", "").split() and self._row is not None:
            self._ci = [self._row, a, ""]

    def handle_endtag(self, tag):
        if tag == "ul":
            self._in_errors = False
        if tag == "td" and self._ci is not None:
            self.ci_cells.append(tuple(self._ci))
            self._ci = None
        if tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._ci is not None:
            self._ci[2] += data
        if self._in_errors and self.errors:
            self.errors[-1] += data


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    dom, report = sys.argv[1], sys.argv[2]
    want_charts = "--charts" in sys.argv[3:]
    page = Page()
    with open(dom, encoding="utf-8") as f:
        page.feed(f.read())
    with open(report, encoding="utf-8") as f:
        rows = json.load(f)["rows"]
    problems = []
    if not page.js_ran:
        problems.append("the page's script did not run (no data-js=ran)")
    problems += ["script error in the page: " + e for e in page.errors]
    workloads = {r["workload"] for r in rows}
    if len(page.sections) < len(workloads):
        problems.append("%d workload sections for %d workloads" % (len(page.sections), len(workloads)))
    for s in page.sections:
        if s["tables"] < 1:
            problems.append("section %s has no headline table" % s["id"])
        if want_charts and s["svgs"] < 1:
            problems.append("section %s has no SVG chart" % s["id"])
    by_key = {(r["workload"], r["metric"], str(r["cores"] if r["cores"] is not None else -1),
               r["variant"], r["clock"], r["kernel_line"]): r for r in rows}
    checked = 0
    for row, cell, text in page.ci_cells:
        key = (row["data-workload"], row["data-metric"], row["data-cores"], row["data-variant"],
               row["data-clock"], row["data-line"])
        r = by_key.get(key)
        if r is None:
            problems.append("CI cell of %s has no JSON row" % (key,))
            continue
        low, high = r["ci95_low_pct"], r["ci95_high_pct"]
        if low is None:
            if "data-low" in cell or text.strip() != "-":
                problems.append("%s: CI %r where the JSON has none" % (key, text))
            continue
        if not close(float(cell["data-low"]), low, 1e-12) or not close(float(cell["data-high"]), high, 1e-12):
            problems.append("%s: CI data [%s, %s], JSON [%r, %r]" % (key, cell["data-low"], cell["data-high"], low, high))
        # "[+4.12%, +5.02%]" to 2 decimals, or above +100% the ratios "[193.5x, 193.6x]"
        # to 4 significant digits (x = 1 + pct / 100)
        ratios = re.findall(r"(-?[0-9]+(?:\.[0-9]+)?)x", text)
        if ratios:
            shown = [float(x) for x in ratios]
            ok = len(shown) == 2 and all(abs(v - (1 + w / 100)) <= 5e-4 * max(1, abs(1 + w / 100))
                                         for v, w in zip(shown, (low, high)))
        else:
            shown = [float(x) for x in re.findall(r"[-+]?[0-9]+\.[0-9]+", text)]
            ok = len(shown) == 2 and abs(shown[0] - low) <= 0.0051 and abs(shown[1] - high) <= 0.0051
        if not ok:
            problems.append("%s: CI text %r, JSON [%r, %r]" % (key, text, low, high))
        checked += 1
    if checked == 0:
        problems.append("no CI cell with an interval to check")
    for p in problems:
        print("FAIL: " + p)
    print("# %d sections, %d CI cells checked against the JSON report" % (len(page.sections), checked))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
