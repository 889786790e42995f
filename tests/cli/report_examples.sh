#!/bin/bash
# Every JSON example in docs/report-schema.md (one per tool) is a valid report: `mpiguard report`
# renders it as text, JSON, DOT and HTML; the text names each finding's kind and first site, the
# HTML page is well formed and shows each finding's class, ranks, file:line and graph
# (html_check.py). Every class of the class table is in docs/check-classes.md's table. Broken reports (the
# hang example with one thing wrong, a directory, a missing file, an empty one) are refused with
# the message the schema's validation gives (docs/report-schema.md, "Validation") and their status.
. "$(dirname "$0")/../lib.sh"
doc="$(dirname "$0")/../../docs/report-schema.md"
python3 - "$doc" "$TMP" <<'PY' || fail "cannot extract the examples"
import json, re, sys
blocks = re.findall(r"```json\n(.*?)```", open(sys.argv[1]).read(), re.S)
assert len(blocks) >= 7, len(blocks)
tools = {json.loads(b)["tool"] for b in blocks}
assert tools == {"run", "hang", "check", "protect", "collectives", "concolic"}, tools
for i, b in enumerate(blocks):
    json.loads(b)
    open(f"{sys.argv[2]}/example{i}.json", "w").write(b)
PY
pages=()
for f in "$TMP"/example*.json; do
    expect_status 0 "render $f" -- "$MPIGUARD" report "$f"
    python3 - "$f" "$TMP/stdout" <<'PY' || fail "text rendering of $f lacks a finding"
import json, sys
r = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
for i, f in enumerate(r["findings"], 1):
    assert f"[{i}] {f['severity']} {f['kind']}: {f['summary']}" in text, text
    for s in f["sites"][:1]:
        assert f"rank {s['rank']}: {s['function']}() at {s['file']}:{s['line']}" in text, text
if not r["findings"]:
    assert "no findings" in text
PY
    expect_status 0 "render $f as dot" -- "$MPIGUARD" report --format dot "$f"
    grep -q "^digraph mpiguard" "$TMP/stdout" || fail "no DOT graph for $f"
    if grep -q '"graph"' "$f"; then grep -q -- "->" "$TMP/stdout" || fail "graph edges missing"; fi
    expect_status 0 "render $f as html" -- "$MPIGUARD" report --format html --output "$f.html" "$f"
    pages+=("$f.html" "$f")
    expect_status 0 "render $f as json" -- "$MPIGUARD" report --format json --output "$TMP/back.json" "$f"
    python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))" "$f" "$TMP/back.json" || fail "json round trip of $f"
done
if command -v dot >/dev/null; then
    "$MPIGUARD" report --format dot "$TMP/example2.json" | dot -Tsvg >"$TMP/g.svg" || fail "dot rejects our DOT"
    grep -q "<svg" "$TMP/g.svg" || fail "no SVG"
fi

python3 "$(dirname "$0")/html_check.py" "${pages[@]}" || fail "html of the examples"
# the checker itself refuses a page with an element left open
sed '0,/<\/table>/s///' "$TMP/example1.json.html" >"$TMP/unclosed.html"
! python3 "$(dirname "$0")/html_check.py" "$TMP/unclosed.html" "$TMP/example1.json" 2>/dev/null || fail "html_check.py accepts an unclosed table"
classes=$(sed -n 's/^    {"\([a-z_]*\)", "[a-z]*", "[a-z]*", "[a-z]*",.*/\1/p' "$(dirname "$0")/../../src/report/report_class.c")
[ "$(wc -l <<<"$classes")" -ge 21 ] || fail "cannot read the class table: $classes"
for c in $classes; do
    grep -q "^| \`$c\` |" "$(dirname "$0")/../../docs/check-classes.md" || fail "class $c is not in docs/check-classes.md"
done

# broken NAME PYTHON: the hang example (example1.json) changed by PYTHON on r, as $TMP/NAME.json.
broken() {
    python3 - "$TMP/example1.json" "$TMP/$1.json" "$2" <<'PY' || fail "cannot write $1"
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(r) if not isinstance(r, str) else r)
PY
}
# refused STATUS MESSAGE FILE: `mpiguard report FILE` exits STATUS and says MESSAGE (fixed string).
refused() {
    expect_status "$1" "render $3" -- "$MPIGUARD" report "$3"
    grep -qF -- "mpiguard: error: $2" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "message for $3: expected '$2'"; }
    [ ! -s "$TMP/stdout" ] || fail "$3 rendered something"
}
grep -q '"tool": "hang"' "$TMP/example1.json" || fail "example1 is not the hang example"
broken tool 'r["tool"] = "frobnicate"'
refused 65 "'$TMP/tool.json': tool is \"frobnicate\" (expected one of run|hang|check|collectives|protect|concolic)" "$TMP/tool.json"
broken kind 'r["findings"][0]["kind"] = "haang"'
refused 65 "'$TMP/kind.json': findings[0].kind is \"haang\" (expected one of hang|deadlock|" "$TMP/kind.json"
broken summary 'del r["findings"][0]["summary"]'
refused 65 "'$TMP/summary.json': findings[0].summary is missing (expected a string)" "$TMP/summary.json"
broken version 'del r["version"]'
refused 65 "'$TMP/version.json': version is missing (expected a string)" "$TMP/version.json"
broken line 'r["findings"][0]["sites"][0]["line"] = "97"'
refused 65 "'$TMP/line.json': findings[0].sites[0].line is a string (expected an integer)" "$TMP/line.json"
broken file 'del r["findings"][0]["sites"][0]["file"]'
refused 65 "'$TMP/file.json': findings[0].sites[0].file is missing (expected null or a string)" "$TMP/file.json"
broken rank 'r["findings"][0]["ranks"].append(2.5)'
refused 65 "'$TMP/rank.json': findings[0].ranks[1] is a number (expected an integer)" "$TMP/rank.json"
broken edge 'r["findings"][0]["graph"]["edges"][1]["to"] = None'
refused 65 "'$TMP/edge.json': findings[0].graph.edges[1].to is null (expected a string)" "$TMP/edge.json"
broken outcome 'r["job"]["outcome"] = "done"'
refused 65 "'$TMP/outcome.json': job.outcome is \"done\" (expected one of completed|failed|stopped|interrupted|released)" "$TMP/outcome.json"
broken job 'r["job"] = [1]'
refused 65 "'$TMP/job.json': job is an array (expected an object)" "$TMP/job.json"
broken observation 'r["observation"] = [{"rank": 0, "observed": True, "cause": "blind", "detail": None, "sampler": "shm"}]'
refused 65 "'$TMP/observation.json': observation[0].cause is \"blind\" (expected one of observed|preload_replaced|" "$TMP/observation.json"
broken observed 'r["observation"] = [{"rank": 0, "observed": "yes", "cause": "observed", "detail": None, "sampler": "shm"}]'
refused 65 "'$TMP/observed.json': observation[0].observed is a string (expected true or false)" "$TMP/observed.json"
broken unmodelled 'r["tool_data"] = {"unmodelled_calls": ["MPI_Comm_idup", 3]}'
refused 65 "'$TMP/unmodelled.json': tool_data.unmodelled_calls[1] is an integer (expected a string)" "$TMP/unmodelled.json"
broken schema 'r["schema"] = "mpiguard-report/2"'
refused 65 "'$TMP/schema.json' has schema 'mpiguard-report/2'; this mpiguard reads 'mpiguard-report/1'" "$TMP/schema.json"
broken array 'r = [r]'
refused 65 "'$TMP/array.json' is JSON but not an mpiguard report (not an object)" "$TMP/array.json"
broken truncated 'r = json.dumps(r)[:-20]'
refused 65 "'$TMP/truncated.json' is not valid JSON" "$TMP/truncated.json"
: >"$TMP/empty.json"
refused 65 "'$TMP/empty.json' is empty: no report in it" "$TMP/empty.json"
mkdir "$TMP/dir.json"
refused 66 "'$TMP/dir.json' is a directory, not a report" "$TMP/dir.json"
refused 66 "cannot read report '$TMP/none.json': No such file or directory" "$TMP/none.json"
pass "report examples of docs/report-schema.md; broken reports refused"
