"""The findings of a `mpiguard check` report against a suite program's expectation.

report_findings.py summary REPORT          one line: each finding as "kind ranks A,B knot C line L"
report_findings.py assert REPORT PROGRAM.c the checker captured every one of the program's `np:`
                                           ranks (a clean result from calls never seen proves
                                           nothing) and the findings are exactly the program's
                                           `expect:` lines (tests/check/run_program.sh describes
                                           the syntax), each with the site roles of its kind
                                           (a leak's or a live request's one site is its
                                           creation; request_started_twice and group_freed
                                           name the call, then the object's creation); exit 1
                                           with the difference on stderr otherwise
"""
import json
import os
import re
import sys

# Findings about an object whose one site is where it was made (role "creation"), and those that
# name the call at fault first and the object's creation after it.
MADE_AT_SITE = {"communicator_leak", "window_leak", "group_leak", "datatype_leak", "op_leak",
                "info_leak", "errhandler_leak", "request_not_completed", "request_not_freed"}
MADE_AFTER_CALL = {"request_started_twice", "group_freed"}
EXPECT = re.compile(r"^ \* expect: (\w+)(?: ranks ([\d,]+))?(?: knot ([\d,]+))?(?: line ([\d,]+))?"
                    r"(?: made (\d+))?\s*$")


def ranks(text):
    return [int(r) for r in text.split(",")] if text else None


def expectations(source):
    wants = []
    for line in open(source):
        m = EXPECT.match(line.rstrip("\n"))
        if m and m.group(1) != "clean":
            wants.append({"kind": m.group(1), "ranks": ranks(m.group(2)),
                          "knot": ranks(m.group(3)),
                          "line": ranks(m.group(4)),
                          "made": int(m.group(5)) if m.group(5) else None})
        elif line.startswith(" * expect:") and not m:
            sys.exit("unreadable expectation in %s: %s" % (source, line.strip()))
    return wants


def site_line(finding, rank, role=None):
    """The first site of rank (of that role, if given)."""
    for s in finding.get("sites", []):
        if s.get("rank") == rank and role in (None, s.get("role", "call")):
            return s.get("line"), s.get("file")
    return None, None


def creation_roles_right(finding):
    """Whether the finding's sites carry the roles its kind gives them."""
    roles = [s.get("role", "call") for s in finding.get("sites", [])]
    if finding["kind"] in MADE_AT_SITE:
        return roles == ["creation"]
    if finding["kind"] in MADE_AFTER_CALL:
        made = [s for s in finding["sites"][1:] if s.get("role") == "creation"]
        return roles[:1] == ["call"] and len(made) == 1 and made[0].get("line", 0) > 0
    return "creation" not in roles


def describe(f):
    text = "%s ranks %s" % (f["kind"], ",".join(map(str, f.get("ranks", []))))
    knot = f.get("evidence", {}).get("knot")
    if knot:
        text += " knot " + ",".join(map(str, knot))
    if f.get("ranks"):
        line, _ = site_line(f, f["ranks"][0])
        text += " line %s" % line
    return text


def matches(want, f, source):
    if f["kind"] != want["kind"] or sorted(f.get("ranks", [])) != sorted(want["ranks"] or []):
        return False
    if not creation_roles_right(f):
        return False
    if want["knot"] is not None and sorted(f.get("evidence", {}).get("knot", [])) != sorted(want["knot"]):
        return False
    if want["line"] is not None and len(want["line"]) > 1:
        # one line per rank, in the order of `ranks`
        for rank, wanted in zip(want["ranks"], want["line"]):
            line, path = site_line(f, rank)
            if line != wanted or not path or os.path.basename(path) != os.path.basename(source):
                return False
    elif want["line"] is not None:
        # The first caller of a mismatched collective is whichever rank's record the detector saw
        # first (docs/check.md): the expected line may be any rank's of the finding.
        candidates = want["ranks"] if f["kind"] == "collective_mismatch" else want["ranks"][:1]
        for rank in candidates:
            line, path = site_line(f, rank)
            if line == want["line"][0]:
                break
        if line != want["line"][0] or not path or \
                os.path.basename(path) != os.path.basename(source):
            return False
    if want["made"] is not None:
        line, path = site_line(f, want["ranks"][0], "creation")
        if line != want["made"] or not path or os.path.basename(path) != os.path.basename(source):
            return False
    return True


def main():
    report = json.load(open(sys.argv[2]))
    findings = report.get("findings", [])
    if sys.argv[1] == "summary":
        print("; ".join(describe(f) for f in findings) or "clean")
        return 0
    source = sys.argv[3]
    np = int(re.search(r"^ \* np: (\d+)$", open(source).read(), re.M).group(1))
    captured = report.get("tool_data", {}).get("ranks_captured")
    if captured != np:
        print("the checker captured %s of %d ranks" % (captured, np), file=sys.stderr)
        return 1
    unmatched = list(findings)
    missing = []
    for want in expectations(source):
        hit = next((f for f in unmatched if matches(want, f, source)), None)
        if hit is None:
            missing.append(want)
        else:
            unmatched.remove(hit)
    for want in missing:
        print("missing: %s ranks %s knot %s line %s made %s" % (
            want["kind"], want["ranks"], want["knot"], want["line"], want["made"]), file=sys.stderr)
    for f in unmatched:
        print("unexpected: " + describe(f), file=sys.stderr)
    # gcc's line table gives every C call its own line: none is the procedure's (line_is)
    procedure_lines = [s for f in findings for s in f.get("sites", [])
                       if source.endswith(".c") and "line_is" in s]
    for s in procedure_lines:
        print("a C call at its procedure's line: %s" % s, file=sys.stderr)
    return 1 if missing or unmatched or procedure_lines else 0


if __name__ == "__main__":
    sys.exit(main())
