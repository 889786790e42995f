#!/usr/bin/env bash
# Trees of real detector processes (tbon_stage.h) over the agents' frames: 2 and 3 levels with 2-8
# leaves find the deadlock planted between ranks 0 and P-1 across leaves, and a leaf killed halfway
# through its stream neither hangs the root nor goes unreported: the root names exactly its ranks
# as lost (docs/design/check-detector.md §14); the same with ranks round robin on the leaves (leaf
# l: the ranks r with r % LEAVES == l, any set being a share). Each stage is `mpiguard agent
# stage`, which refuses malformed descriptor lists and shares with exit 64.
# Usage: tbon_tree.sh CHECK_TBON_BENCH
set -euo pipefail
bench=$1
mpiguard=$(dirname "$bench")/../bin/mpiguard
fail() { echo "FAIL: $*" >&2; exit 1; }
for bad in "--inputs 3:5-2 --output 4" "--inputs 3:0-3 --output 4/" "--inputs 3 --output 4" \
    "--inputs 3:0-1+1-3 --output 4" "--inputs 3:2+0 --output 4"; do
    # shellcheck disable=SC2086
    set +e; err=$("$mpiguard" agent stage --ranks 0-3 $bad 2>&1 </dev/null); rc=$?; set -e
    [ "$rc" = 64 ] || fail "agent stage $bad: exit $rc, expected 64 ($err)"
    grep -q "agent stage: " <<<"$err" || fail "agent stage $bad: no message naming the problem: $err"
done
echo "agent stage: malformed --inputs and --output refused (exit 64), shares whose ranks repeat or go down too"
for shape in "2 0" "8 0" "4 2" "8 4"; do
    out=$(timeout 60 "$bench" 2000 $shape 2) || fail "tree '$shape': exit $? ($out)"
    grep -q "deadlock of ranks 0 and 1999; 1 findings DEADLOCK x1" <<<"$out" ||
        fail "tree '$shape' did not find the planted deadlock: $out"
    # Only what the leaves cannot resolve goes up: per iteration, from each stage under the root, the
    # Allreduce's summary and the 4 exchanges across its share's edges; then the 2 final receives
    # (docs/check-measurements-deadlock.md, "A tree of detectors"), of the job's 24002 records.
    read -r leaves middle <<<"$shape"
    up=$((2 * 5 * (middle > 0 ? middle : leaves) + 2))
    grep -q "root: in $up records and summaries" <<<"$out" ||
        fail "tree '$shape': not $up records and summaries at the root: $out"
    echo "leaves and middle stages $shape: deadlock of ranks 0 and 1999, $up frames at the root"
done
for shape in "4 0" "4 2"; do
    out=$(timeout 60 "$bench" 2000 $shape 2 kill) || fail "tree '$shape', leaf 1 killed: exit $? ($out)"
    grep -q "lost 500 ranks (500-999)" <<<"$out" || fail "tree '$shape': the lost ranks are not 500-999: $out"
    echo "leaves and middle stages $shape, leaf 1 killed: lost ranks 500-999 reported"
done
for shape in "4 0" "4 2"; do
    out=$(timeout 60 "$bench" 2000 $shape 2 cyclic) || fail "round-robin tree '$shape': exit $? ($out)"
    grep -q "deadlock of ranks 0 and 1999; 1 findings DEADLOCK x1" <<<"$out" ||
        fail "round-robin tree '$shape' did not find the planted deadlock: $out"
    out=$(timeout 60 "$bench" 2000 $shape 2 kill cyclic) ||
        fail "round-robin tree '$shape', leaf 1 killed: exit $? ($out)"
    grep -q "lost 500 ranks (1-1997)" <<<"$out" ||
        fail "round-robin tree '$shape': the lost ranks are not leaf 1's 1, 5, ... 1997: $out"
    echo "leaves and middle stages $shape, ranks round robin: deadlock of ranks 0 and 1999; leaf 1 killed: its 500 ranks 1-1997 reported lost"
done
