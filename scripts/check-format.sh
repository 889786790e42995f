#!/usr/bin/env bash
# Fails when a C source or header of src/ differs from what .clang-format makes of it
# (docs/design/style.md, "Formatting"). fortran_entry.c is left out: its macros generate the
# Fortran entry points and read better aligned by hand. Test programs are left out too: their
# expectations name source lines.
# Usage: scripts/check-format.sh [repository root]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
tool=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$tool" ]; then
    echo "check-format: clang-format-14 is not installed (scripts/install-deps.sh installs it)" >&2
    exit 1
fi
bad=()
while IFS= read -r f; do
    "$tool" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files 'src/*.c' 'src/*.h' | grep -v '^src/interpose/fortran_entry\.c$')
if [ ${#bad[@]} -gt 0 ]; then
    echo "check-format: not as .clang-format lays it out (run $tool -i on them):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
