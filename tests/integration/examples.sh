#!/bin/bash
# The bundled examples run healthy to their end without mpiguard, and reject bad options.
# Usage: examples.sh FLAVOR EXAMPLE
. "$(dirname "$0")/../lib.sh"
flavor=$1 example=$2
app="$BUILD/examples/$flavor/$example"
launcher=$(launcher_for "$flavor")
expect_status 0 "$example healthy" -- "$launcher" -n 4 "$app" --seconds 1
grep -q "^$example: 4 ranks, [0-9]* iterations" "$TMP/stdout" || fail "no closing line"
expect_status 2 "$example bad fault" -- "$launcher" -n 2 "$app" --fault melt --fault-rank 0
expect_stderr "unknown fault kind 'melt'"
expect_status 2 "$example fault rank outside" -- "$launcher" -n 2 "$app" --fault sleep --fault-rank 5
expect_stderr "fault-rank"
expect_status 2 "$example bad option" -- "$launcher" -n 2 "$app" --frob
expect_stderr "unknown option '--frob'"
pass "$flavor $example"
