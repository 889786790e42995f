#!/bin/bash
# --help lists only what a user sets: no option marked MG_OPTIONS_HIDDEN in src/cli appears in the help
# of mpiguard or of any tool it lists (nor the internal `agent` tool in mpiguard's list), and every
# hidden option still parses (it is accepted before --help, where an unknown option exits 64).
. "$(dirname "$0")/../lib.sh"
src="$(dirname "$0")/../../src/cli"
# One line per hidden option: FILE NAME TYPE VALUE (a value the option accepts; - for a flag).
python3 - "$src" >"$TMP/hidden" <<'PY' || fail "cannot read the option tables"
import glob, re, sys, os
pat = re.compile(r'\{"([a-z-]+)", (?:0|\'.\'), MG_OPTIONS_([A-Z]+) \| MG_OPTIONS_HIDDEN, [^,]+, (NULL|"[^"]*")')
for path in sorted(glob.glob(sys.argv[1] + "/*.c")):
    for name, kind, metavar in pat.findall(open(path).read()):
        value = {"FLAG": "-", "INT": "1", "DOUBLE": "1", "STRING": "x", "LIST": "x"}.get(kind)
        if kind == "CHOICE":
            value = metavar.strip('"').split("|")[0]
        print(os.path.basename(path), name, kind, value)
PY
[ "$(wc -l <"$TMP/hidden")" -ge 5 ] || fail "found only $(wc -l <"$TMP/hidden") hidden options"

expect_status 0 "mpiguard --help" -- "$MPIGUARD" --help
tools=$(awk '/^tools:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }' "$TMP/stdout")
for want in run hang check protect collectives concolic report demo version; do
    grep -qx "$want" <<<"$tools" || fail "mpiguard --help does not list $want"
done
! grep -qx agent <<<"$tools" || fail "mpiguard --help lists the internal agent tool"
cp "$TMP/stdout" "$TMP/help-all"
for tool in $tools; do
    [ "$tool" = version ] && continue
    expect_status 0 "mpiguard $tool --help" -- "$MPIGUARD" "$tool" --help
    grep -q "^usage: mpiguard $tool" "$TMP/stdout" || fail "no usage line in $tool --help"
    cat "$TMP/stdout" >>"$TMP/help-all"
done
while read -r file name kind value; do
    ! grep -qE -- "--$name\b" "$TMP/help-all" || fail "hidden option --$name appears in a help text"
    case $file in
        protect_setup.c) owners="protect run" ;;
        cmd_*.c) owners=${file#cmd_}; owners=${owners%.c} ;;
        *) fail "hidden option --$name in $file: no tool known for it" ;;
    esac
    for tool in $owners; do
        args=("--$name")
        [ "$value" = - ] || args+=("$value")
        expect_status 0 "mpiguard $tool --$name parses" -- "$MPIGUARD" "$tool" "${args[@]}" --help
    done
done <"$TMP/hidden"
expect_status 64 "an unknown option" -- "$MPIGUARD" check --no-such-option --help
grep -q "unknown option '--no-such-option'" "$TMP/stderr" || fail "unknown option message"
pass "help texts list no hidden option; each hidden option parses"
