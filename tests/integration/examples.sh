#!/bin/bash
# The bundled examples run healthy to their end without mpiguard, print --tick lines, and reject
# bad options.
# Usage: examples.sh FLAVOR EXAMPLE
. "$(dirname "$0")/../lib.sh"
flavor=$1 example=$2
app="$BUILD/examples/$flavor/$example"
launcher=$(launcher_for "$flavor")
expect_status 0 "$example healthy" -- "$launcher" -n 4 "$app" --seconds 1
grep -q "^$example: 4 ranks, [0-9]* iterations" "$TMP/stdout" || fail "no closing line"
# --tick: rank 0 alone prints its iterations so far, at most once per half second here (a late
# iteration under load takes several due lines at once), with rising clock and count.
expect_status 0 "$example ticking" -- "$launcher" -n 4 "$app" --seconds 2 --tick 0.5
python3 - "$TMP/stdout" "$example" <<'PY' || fail "tick lines"
import sys
lines = open(sys.argv[1]).read().splitlines()
ticks = [l.split() for l in lines if l.startswith(sys.argv[2] + ": tick ")]
assert 2 <= len(ticks) <= 6, lines  # due at 0.5, 1.0, 1.5, 2.0 s (and after, until the stop)
t = [float(x[2]) for x in ticks]
n = [int(x[3]) for x in ticks]
assert all(b > a for a, b in zip(t, t[1:])), t
assert all(b > a for a, b in zip(n, n[1:])) and n[0] > 0, n
PY
expect_status 2 "$example bad fault" -- "$launcher" -n 2 "$app" --fault melt --fault-rank 0
expect_stderr "unknown fault kind 'melt'"
expect_status 2 "$example fault rank outside" -- "$launcher" -n 2 "$app" --fault sleep --fault-rank 5
expect_stderr "fault-rank"
expect_status 2 "$example bad option" -- "$launcher" -n 2 "$app" --frob
expect_stderr "unknown option '--frob'"
pass "$flavor $example"
