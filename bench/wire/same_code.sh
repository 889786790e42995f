#!/bin/bash
# Whether a change of the source layout changed the interposition library's code: compares every
# function of lib/libmpiguard-<flavor>.so in two builds instruction by instruction (addresses and
# RIP offsets left out), and prints per flavour how many are identical, which differ and which
# exist in one build only. docs/architecture.md, "The wire layer", cites its output.
#   bench/wire/same_code.sh BUILD_BEFORE BUILD_AFTER
set -eu
before=$1 after=$2
python3 - "$before" "$after" <<'PY'
import re, subprocess, sys

def functions(path):
    out = subprocess.check_output(["objdump", "-d", "--no-show-raw-insn", path], text=True)
    body, name = {}, None
    for line in out.split("\n"):
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            name = m.group(1)
            body[name] = []
        elif name and line.strip():
            ins = line.split("\t", 1)[-1]
            ins = re.sub(r"[0-9a-f]{4,} <([^>+]*)(\+0x[0-9a-f]+)?>", r"<\1>", ins)
            ins = re.sub(r"0x[0-9a-f]+\(%rip\)", "RIP", ins)
            body[name].append(re.sub(r"#.*", "", ins).strip())
    return body

for flavor in ("openmpi", "mpich"):
    a, b = (functions(f"{d}/lib/libmpiguard-{flavor}.so") for d in sys.argv[1:3])
    common = [f for f in a if f in b]
    differ = sorted(f for f in common if a[f] != b[f])
    print(f"{flavor}: {len(common) - len(differ)} of {len(common)} common functions identical")
    print(f"  differ: {' '.join(differ) or '-'}")
    print(f"  before only: {' '.join(sorted(set(a) - set(b))) or '-'}")
    print(f"  after only: {' '.join(sorted(set(b) - set(a))) or '-'}")
PY
