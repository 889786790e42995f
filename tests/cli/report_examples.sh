#!/bin/bash
# Every JSON example in docs/report-schema.md is a valid report: `mpiguard report` renders it as
# text, JSON and DOT, and the text names each finding's kind and first site.
. "$(dirname "$0")/../lib.sh"
doc="$(dirname "$0")/../../docs/report-schema.md"
python3 - "$doc" "$TMP" <<'PY' || fail "cannot extract the examples"
import json, re, sys
blocks = re.findall(r"```json\n(.*?)```", open(sys.argv[1]).read(), re.S)
assert len(blocks) >= 4, len(blocks)
for i, b in enumerate(blocks):
    json.loads(b)
    open(f"{sys.argv[2]}/example{i}.json", "w").write(b)
PY
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
    expect_status 0 "render $f as json" -- "$MPIGUARD" report --format json --output "$TMP/back.json" "$f"
    python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))" "$f" "$TMP/back.json" || fail "json round trip of $f"
done
if command -v dot >/dev/null; then
    "$MPIGUARD" report --format dot "$TMP/example2.json" | dot -Tsvg >"$TMP/g.svg" || fail "dot rejects our DOT"
    grep -q "<svg" "$TMP/g.svg" || fail "no SVG"
fi
pass "report examples of docs/report-schema.md"
