"""html_check.py PAGE REPORT [PAGE REPORT ...]: each PAGE is well-formed HTML (every element closed
in order, no script, nothing fetched) and shows each finding of its REPORT: its class, its ranks,
each site's file:line, and an inline SVG for each graph."""
import json
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "input", "link"}
SVG_EMPTY = {"path", "ellipse", "rect", "polygon"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.text, self.svgs = [], [], 0

    def handle_starttag(self, tag, attrs):
        assert tag != "script", "a script"
        for name, value in attrs:
            assert name not in ("src", "href") or value.startswith("#"), (tag, name, value)
        self.svgs += tag == "svg"
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        assert tag in VOID or tag in SVG_EMPTY, f"<{tag}/>"

    def handle_endtag(self, tag):
        assert self.stack, f"</{tag}> with nothing open at {self.getpos()}"
        opened, where = self.stack.pop()
        assert opened == tag, f"</{tag}> at {self.getpos()} closes <{opened}> of {where}"

    def handle_data(self, data):
        self.text.append(data)


def ranks_text(ranks):
    """The rank list as mg_ranks_format writes it: 0-2,5."""
    out, run = [], []
    for r in sorted(set(ranks)):
        if run and r == run[-1] + 1:
            run.append(r)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [r]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


def check(page_path, report_path):
    page, report = open(page_path).read(), json.load(open(report_path))
    assert page.startswith("<!DOCTYPE html>"), page[:40]
    c = Checker()
    c.feed(page)
    c.close()
    assert not c.stack, f"left open: {c.stack}"
    text = "".join(c.text)
    for f in report["findings"]:
        assert f["kind"] in text and f["summary"] in text, f["kind"]
        if f["ranks"]:
            assert "ranks: " + ranks_text(f["ranks"]) in text, (f["kind"], f["ranks"])
        for s in f["sites"]:
            if s["file"]:
                assert f"{s['file']}:{s['line']}" in text, s
    assert c.svgs == sum("graph" in f for f in report["findings"]), c.svgs


for i in range(1, len(sys.argv), 2):
    try:
        check(sys.argv[i], sys.argv[i + 1])
    except AssertionError as e:
        sys.exit(f"{sys.argv[i]}: {e}")
