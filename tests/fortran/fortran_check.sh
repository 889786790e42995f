#!/bin/bash
# `mpiguard check` on a Fortran program: the findings its header states (as the C suite's,
# tests/check/run_program.sh, with "!" for " *"), each deadlock with its knot and the Fortran
# file:line of the call, status 82 for a deadlock, 0 for a clean program or leaks alone (notes),
# another non-zero status for other findings, and nothing of the job left. A site is marked
# "line_is": "procedure" exactly when its line is a program, subroutine or function statement of
# the program's file.
# Usage: fortran_check.sh FLAVOR STYLE PROGRAM
. "$(dirname "$0")/../lib.sh"
flavor=$1 style=$2 program=$3
# the program's source: PROGRAM.F90, or fixed form's .f, or free form's .f90
for source_file in "$(dirname "$0")/$program".{F90,f90,f}; do
    [ -f "$source_file" ] && break
done
app="$BUILD/tests/fortran/$flavor/${program}_$style"
report="$TMP/check.json"
np=$(sed -n 's/^! np: //p' "$source_file")
expects=$(sed -n 's/^! expect: //p' "$source_file")
[ -n "$np" ] && [ -n "$expects" ] || fail "$(basename "$source_file") states no np or expectation"
# report_findings.py reads the C suite's header (" * expect: ...") and matches a site's file by
# name: the header in its form, under the program's own name.
mkdir "$TMP/header"
header="$TMP/header/$(basename "$source_file")"
sed -n 's/^! \(np\|expect\): / * \1: /p' "$source_file" >"$header"
"$MPIGUARD" check -v --report "$report" -- $(launcher_for "$flavor") -n "$np" "$app" >"$TMP/stdout" 2>"$TMP/stderr" &
tool=$!
wait_ended $tool 60 || { kill -INT $tool; wait $tool; cat "$TMP/stderr" >&2; fail "mpiguard check did not end within 60 s"; }
wait $tool
status=$?
python3 "$(dirname "$0")/../check/report_findings.py" assert "$report" "$header" ||
    { cat "$TMP/stderr" >&2; fail "$flavor ${program}_$style: findings differ from $(basename "$source_file")'s header"; }
# Every rank's call site, not only the first rank's the suite's matcher reads, is the Fortran line.
python3 - "$report" "$source_file" <<'PY' || fail "a deadlocked rank's call site is not its Fortran line"
import json, os, re, sys
r = json.load(open(sys.argv[1]))
name = os.path.basename(sys.argv[2])
for want in re.findall(r"^! expect: deadlock .* line (\d+)", open(sys.argv[2]).read(), re.M):
    for f in (f for f in r["findings"] if f["kind"] == "deadlock"):
        sites = {s["rank"]: (os.path.basename(s.get("file") or ""), s.get("line")) for s in f["sites"]}
        assert all(sites.get(k) == (name, int(want)) for k in f["ranks"]), sites
PY
python3 - "$report" "$source_file" <<'PY' || fail "a site's line_is says otherwise than its line"
import json, os, re, sys
r = json.load(open(sys.argv[1]))
name = os.path.basename(sys.argv[2])
statements = {n for n, text in enumerate(open(sys.argv[2]), 1)
              if re.match(r"\s*(program|subroutine|function)\s", text, re.I)}
sites = [s for f in r["findings"] for s in f["sites"]
         if os.path.basename(s.get("file") or "") == name]
for s in sites:
    assert (s.get("line_is") == "procedure") == (s["line"] in statements), s
PY
case $expects in
    # clean, and not for want of seeing: no call of the run is one check does not model
    clean) [ $status -eq 0 ] || fail "clean, but mpiguard exited $status"
        python3 -c 'import json, sys; sys.stdout.write(" ".join(json.load(open(sys.argv[1])).get("tool_data", {}).get("unmodelled_calls") or []))' \
            "$report" >"$TMP/unmodelled" && [ ! -s "$TMP/unmodelled" ] ||
            fail "clean, but calls not checked: $(cat "$TMP/unmodelled")" ;;
    deadlock*|stuck_on_terminated*) [ $status -eq 82 ] ||
        fail "a deadlock, but mpiguard exited $status (expected 82)" ;;
    # notes alone (leaks MPI_Finalize cleans up) leave the job's own status
    *_leak\ *) ! grep -qvE '^[a-z]+_leak ' <<<"$expects" && [ $status -eq 0 ] ||
        fail "leaks only, but mpiguard exited $status" ;;
    *) [ $status -ne 0 ] && [ $status -ne 82 ] || fail "findings, but mpiguard exited $status" ;;
esac
token=$(grep -o 'MPIGUARD_JOB_TOKEN[= ][0-9a-f]*' "$TMP/stderr" | head -1 | cut -c20-)
[ -n "$token" ] || fail "no job token in mpiguard's -v output"
sleep 0.3
[ -z "$(token_processes "$token")" ] || fail "processes of the job left: $(token_processes "$token")"
pass "check $flavor ${program}_$style: $expects (status $status)"
