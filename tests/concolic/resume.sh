#!/bin/bash
# `--resume` continues the search tree (docs/design/concolic.md "--resume"): a campaign stopped after N
# runs and resumed for M runs makes the same runs (process count, focus, outcome, coverage,
# inputs) as one campaign of N + M runs with the same seed, for bounded DFS and the CFG
# strategy. What the code guarantees is that the search state (stack, tried negations, bound,
# rng) is restored exactly (the engine's unit test drives that to the end of a tree); the runs
# stay identical as long as Z3 gives the same model to the same query, which the resumed
# session's fresh solver does for these campaigns (the docs say when it may not). Also: a
# campaign saved by the previous format resumes with a warning, another --strategy restarts the
# tree with a warning, a damaged search state is refused.
#   resume.sh FLAVOR
. "$(dirname "$0")/../lib.sh"
flavor=$1
src=$(cd "$(dirname "$0")/programs" && pwd)
export PATH="$BUILD/bin:$PATH" MPIGUARD_MPI=$flavor
cd "$TMP" || fail "no tmp dir"
mpiguard-cc -o constructs "$src/constructs.c" || fail "build"
campaign() { "$MPIGUARD" concolic --mpi "$flavor" --max-np 2 "$@" -- ./constructs; }
runs() { cut -f1-5,11 "$1/runs.tsv"; } # iteration np focus outcome arms inputs

# Both tuned (the default): a tuned solution is the same from any solver state (before it was,
# the CFG campaign's resumed run 20 took its second input at 0 where the whole campaign took -8,
# both under the same tuned bound).
for strategy in bounded-dfs cfg; do
    expect_status 0 "$strategy: 24 runs" -- campaign --np 1 --iterations 24 --strategy "$strategy" --dir "full-$strategy"
    expect_status 0 "$strategy: 12 runs" -- campaign --np 1 --iterations 12 --strategy "$strategy" --dir "part-$strategy"
    grep -q "^search 1 $strategy$" "part-$strategy/campaign" || fail "$strategy: no search state saved"
    expect_status 0 "$strategy: resumed for 12" -- campaign --resume --iterations 12 --strategy "$strategy" --dir "part-$strategy"
    ! grep -q "restarts" "$TMP/stderr" || { cat "$TMP/stderr" >&2; fail "$strategy: the search tree restarted"; }
    [ "$(wc -l <"part-$strategy/runs.tsv")" -eq 25 ] || fail "$strategy: runs.tsv does not hold 24 runs"
    diff <(runs "full-$strategy") <(runs "part-$strategy") >&2 || fail "$strategy: the resumed campaign made other runs"
    [ "$(grep '^covered' "full-$strategy/campaign")" = "$(grep '^covered' "part-$strategy/campaign")" ] ||
        fail "$strategy: other arms covered"
done

# The previous format (version 1: no search state): resumes from the saved inputs, with a warning.
cp -r part-bounded-dfs v1
sed -i -e '1s/ 2$/ 1/' -e '/^search 1 /,$d' v1/campaign
expect_status 0 "resume a version 1 campaign" -- campaign --resume --iterations 2 --dir v1
expect_stderr "no search state"
grep -q "^iterations 26$" v1/campaign || fail "version 1: iterations do not add up"
grep -q "^mpiguard-concolic-campaign 2$" v1/campaign || fail "version 1: not saved in the new format"
# Another strategy: the tree restarts, with a warning.
expect_status 0 "resume with another strategy" -- campaign --resume --iterations 1 --strategy dfs --dir v1
expect_stderr "restarts"
# A damaged search state, and one from a newer version, are refused.
cp -r part-cfg bad
sed -i 's/^snapshot$/snapshop/' bad/campaign
expect_status 65 "damaged search state" -- campaign --resume --iterations 1 --strategy cfg --dir bad
expect_stderr "damaged search state"
cp -r part-cfg newer
sed -i 's/^search 1 cfg$/search 2 cfg/' newer/campaign
expect_status 65 "newer search state" -- campaign --resume --iterations 1 --strategy cfg --dir newer
expect_stderr "unknown version"
pass "resume continues the search tree with $flavor"
