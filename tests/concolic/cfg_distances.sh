#!/bin/bash
# The static control-flow graph mpiguard-cc writes (APP.mpiguard-cfg) on a real program,
# tests/concolic/programs/cfg_small.c, against distances worked out by hand; a CFG campaign on
# it reaching every arm; a damaged graph refused; a missing one tolerated (docs/design/concolic.md
# "CFG-directed search").
#   cfg_distances.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o small "$src/cfg_small.c" || fail "build"
[ -s small.mpiguard-cfg ] || fail "no graph next to the branch table"
id=$(sed -n 's/^# mpiguard-branches 1 build_id=//p' small.mpiguard-branches.tsv)
[ "$(sed -n 1,3p small.mpiguard-cfg)" = "mpiguard-cfg 1
build_id $id
nodes 13 branches 4 edges 16 targets 8" ] || { head -3 small.mpiguard-cfg >&2; fail "graph header"; }

# The nodes clang -O0 + mem2reg gives this source (main is emitted before clamp): n0 main's
# entry ends with b0 (x > 0); its true block is split at the call to clamp, n1 | n2; n3 joins;
# n4 is the loop test b1 (x < 5), n5 its body; n6 tests b2 (x == 7), n7 prints, n8 returns.
# clamp: n9 tests b3 (v > 10), n10 and n11 are its arms, n12 returns to n2. Hence: 0F (n3)
# reaches b1 in 1 and b2 in 2; 0T (n1) reaches b3 by the call edge in 1 and b1 in 6
# (n1 n9 n10 n12 n2 n3 n4); 1T (n5) loops back to b1 in 1; 1F lands on b2's node (0); b2's arms
# only return; b3's arms reach b1 in 4 through the return edge. Nothing leads back to main's
# entry (b0's column) and clamp is entered only from n1.
cat >expected <<'TABLE'
# edges from each branch arm (row) to each branch's block (column); - unreachable
# arm b0 b1 b2 b3
0F - 1 2 -
0T - 6 7 1
1F - - 0 -
1T - 1 2 -
2F - - - -
2T - - - -
3F - 4 5 -
3T - 4 5 -
TABLE
expect_status 0 "--distances" -- "$MPIGUARD" concolic --distances -- ./small
diff expected "$TMP/stdout" >&2 || fail "distances differ from the hand-computed table"
[ ! -e mpiguard-concolic ] || fail "--distances made a campaign directory"

# A CFG campaign with the graph, tuned: every arm (x == 7 and x > 10 included). The way back to
# x > 0 tunes to x = 1 (run 2) again; re-tuned past it (x = 2), its loop exit leads to x = 5 and
# x = 7 (without the re-tuning the repeat was skipped and x == 7 stayed uncovered).
expect_status 0 "cfg campaign" -- "$MPIGUARD" concolic --mpi "$flavor" --np 1 --max-np 1 \
    --iterations 12 --strategy cfg --dir c -- ./small
grep -q "coverage: 8 of 8 branch arms" "$TMP/stdout" || { cat "$TMP/stdout" >&2; fail "arms left uncovered"; }
grep -qE "^cost: .* [1-9][0-9]* re-tuned past runs already made" "$TMP/stdout" || fail "no solution re-tuned"
! grep -q "control-flow graph" "$TMP/stderr" || fail "the graph was not used"

# A damaged graph is refused (65); a program without one (built before) runs with a warning.
sed -i 's/^e 0 1$/e 0 99/' small.mpiguard-cfg
expect_status 65 "damaged graph" -- "$MPIGUARD" concolic --mpi "$flavor" --np 1 --iterations 1 \
    --strategy cfg --dir d -- ./small
expect_stderr "small.mpiguard-cfg"
rm small.mpiguard-cfg
expect_status 0 "no graph" -- "$MPIGUARD" concolic --mpi "$flavor" --np 1 --iterations 2 \
    --strategy cfg --dir e -- ./small
expect_stderr "no control-flow graph"
pass "CFG distances of cfg_small.c as computed by hand, campaign covers every arm, with $flavor"
