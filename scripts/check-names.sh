#!/usr/bin/env bash
# Fails when a function or variable of src/ with external linkage breaks the naming rule
# (docs/design/style.md, "Names: the file is the prefix"): a name defined in FOLDER/FILE.c is FILE
# or begins with FILE_ (mg_array.c: mg_array_reserve; hang_model.c: hang_model_create), so the
# name says where it lives. Strict: no name is allowed to break it. Exempt by rule: main; the MPI
# entry points of the interposition library (MPI_*, mpi_*, PMPI_*), whose names the MPI standard
# fixes, libc's _exit, which check's own preloaded object defines (src/interpose/check_exit.c),
# and its per-function families generated from src/wire/mpi_functions.def (mg_enter_Send,
# mg_impl_Send, mg_observe_Send, mg_next_Send: named after the MPI function); in the two layers
# linked into the user's program, the names it sees: the concolic runtime's entry points, which
# carry the one reserved prefix mgrt_ (called by generated code), and the public prefix mpiguard_
# (the marking functions of include/mpiguard/concolic.h, which the user calls; the interposition
# library's exported call counter, which the sampler reads by name).
# Reads the objects of a build (nm), so it sees exactly what the compiler exports.
# A second pass reads the types of the headers of src/: a struct, union or enum tag with a body, a
# typedef name (not "typedef struct T T", which names a type defined elsewhere: T is checked where
# its body is, and not at all when that is outside src/, as json_object), and a tag whose body a .c
# file holds and a header of its folder names. A type defined in FILE.h or FILE.c is FILE or begins
# with FILE_, or is named after the header of its folder that declares it for the others (an
# opaque type whose body an internal header holds: struct deadlock_detector, declared in
# deadlock_detector.h, its body in detector_state.h). Strict too.
# A third pass reads every #define and enumerator of src/: one of FILE.h takes FILE_ in capitals
# (MG_FILE_ for a file named mpi_*: MPI_ is the standard's), or FILE_ for a macro in lower case that
# stands for a function; one of a .c file, or a macro its file #undefs, is a helper, unprefixed or
# FILE_, never another file's prefix nor MG_ outside base. Exempt by rule: MPI names (a macro that
# stands for one), the row macros a .def table of src/ expands (MG_FN), each includer defining
# them, a name of a family its file generates by pasting (MG_FN_##name: MG_FN_NONE, MG_FN_COUNT),
# and an include guard, which ends with FILE_H.
# Usage: scripts/check-names.sh BUILD_DIR
set -euo pipefail
export LC_ALL=C
build=${1:?usage: check-names.sh BUILD_DIR}
build=$(cd "$build" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)

# Each object of src/: "src/FOLDER/FILE.c SYMBOL" for every defined global symbol (nm -A: "OBJECT:
# ADDRESS TYPE NAME"). The objects of one source built for several targets (the interposition
# library per MPI) give the same lines, kept once.
found=$(find "$build/src" -path '*/CMakeFiles/*.dir/*' -name '*.c.o' -print0 |
    xargs -0 -r nm --defined-only -g -A 2>/dev/null |
    awk -v build="$build/" 'NF == 3 {
        obj = $1; sub(/:[^:]*$/, "", obj); sub(build, "", obj)
        sub(/\/CMakeFiles\/[^\/]+\.dir\//, "/", obj); sub(/\.o$/, "", obj)
        print obj, $3
    }' | sort -u)
[ -n "$found" ] || { echo "check-names: no objects under $build/src: build first" >&2; exit 66; }

breaking=$(printf '%s\n' "$found" | awk '{
    n = split($1, p, "/"); file = p[n]; sub(/\.c$/, "", file)
    name = $2
    if (name == "main" || name == "_exit" || name ~ /^(P?MPI|p?mpi)_/) next
    if (p[2] == "interpose" && name ~ /^mg_(enter|impl|observe|next)_[A-Z]/) next
    if (p[2] == "concolic_rt" && name ~ /^mgrt_/) next
    if ((p[2] == "concolic_rt" || p[2] == "interpose") && name ~ /^mpiguard_/) next
    if (name == file || index(name, file "_") == 1) next
    print file ".c", name
}' | sort -u)

types=$(cd "$root" && git ls-files 'src/*.h' 'src/*.c')
types_breaking=$(cd "$root" && printf '%s\n' "$types" | python3 -c '
import os, re, sys

paths = sys.stdin.read().split()
literal = r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|\x27(?:\\.|[^\x27\\\n])*\x27"
text = {}
for p in paths:
    s = re.sub(literal, " ", open(p, encoding="utf-8").read(), flags=re.S)
    text[p] = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", s, flags=re.M)
headers = [p for p in paths if p.endswith(".h")]


def stem(p):
    return os.path.basename(p)[:-2]


def named(n, p):
    return n == stem(p) or n.startswith(stem(p) + "_")


def declares(h, n):
    return re.search(r"\b(?:struct|union|enum)\s+" + n + r"\b", text[h])


def tags(s):
    return re.findall(r"\b(?:struct|union|enum)\s+([A-Za-z_]\w*)\s*\{", s)


def typedefs(s):
    """The names of s typedefs: the last word of each declarator, or (*NAME)."""
    for m in re.finditer(r"\btypedef\b", s):
        depth, i = 0, m.end()
        while i < len(s) and (s[i] != ";" or depth):
            depth += (s[i] in "{(") - (s[i] in "})")
            i += 1
        decl = s[m.end():i]
        alias = re.fullmatch(r"\s*(?:struct|union|enum)\s+(\w+)\s+(\w+)\s*", decl)
        if alias and alias.group(1) == alias.group(2):
            continue
        decl = decl[decl.rfind("}") + 1:]
        pointer = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", decl)
        if pointer:
            yield pointer.group(1)
            continue
        decl = re.sub(r"\(.*", "", re.sub(r"\[[^\]]*\]", "", decl), flags=re.S)
        for d in decl.split(","):
            w = re.findall(r"[A-Za-z_]\w*", d)
            if w:
                yield w[-1]


def owned(n, p):
    folder = os.path.dirname(p)
    return named(n, p) or any(os.path.dirname(h) == folder and named(n, h) and declares(h, n)
                              for h in headers)


for p in paths:
    folder = [h for h in headers if os.path.dirname(h) == os.path.dirname(p)]
    found = tags(text[p]) if p.endswith(".h") else [
        n for n in tags(text[p]) if any(declares(h, n) for h in folder)]
    bad = [n for n in found if not owned(n, p)]
    if p.endswith(".h"):
        bad += [n for n in typedefs(text[p]) if not named(n, p)]
    for n in sorted(set(bad)):
        print(p, n)
')

macros_breaking=$(cd "$root" && git ls-files 'src/*.h' 'src/*.c' 'src/*.def' | python3 -c '
import os, re, sys

paths = sys.stdin.read().split()
literal = r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|\x27(?:\\.|[^\x27\\\n])*\x27"
text = {p: re.sub(literal, " ", open(p, encoding="utf-8").read(), flags=re.S) for p in paths}
rows = {n for p in paths if p.endswith(".def")
        for n in re.findall(r"^[ \t]*([A-Za-z_]\w*)\s*\(", text[p], flags=re.M)}


def prefix(p):
    """The capitals prefix of p: MPI_ belongs to the MPI standard, so mpi_x.h takes MG_MPI_X."""
    s = os.path.basename(p).rsplit(".", 1)[0].upper()
    return "MG_" + s if s.startswith("MPI_") else s


def own(n, p):
    low = os.path.basename(p)[:-2]
    return n in (prefix(p), low) or n.startswith((prefix(p) + "_", low + "_"))


prefixes = {prefix(p) for p in paths if not p.endswith(".def")}
for p in paths:
    if p.endswith(".def"):
        continue
    s, stem = text[p], os.path.basename(p)[:-2].upper()
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", s, flags=re.M)
    names = [w for body in re.findall(r"\benum\b\s*\w*\s*\{([^}]*)\}", code)
             for w in re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)", body)]
    undone = set(re.findall(r"^[ \t]*#[ \t]*undef[ \t]+(\w+)", s, flags=re.M))
    pasted = tuple(re.findall(r"\b([A-Za-z_]\w*_)\s*##", s))
    guard = re.match(r"\s*#\s*ifndef\s+(\w+)\s*#\s*define\s+(\w+)", s)
    for n in re.findall(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", s, flags=re.M):
        if n in rows or re.match(r"(P?MPI|p?mpi)_", n):
            continue
        if guard and guard.group(1) == n == guard.group(2) and n.endswith(stem + "_H"):
            continue
        names.append(n)
    for n in sorted(set(names)):
        if own(n, p) or (pasted and n.startswith(pasted)):
            continue
        if p.endswith(".h") and n not in undone:
            print(p, n)
        elif any(n.startswith(x + "_") for x in prefixes) or (
                n.startswith("MG_") and not p.startswith(("src/base/", "src/common/"))):
            print(p, n)
')

if [ -n "$breaking" ] || [ -n "$types_breaking" ] ||
    [ -n "$macros_breaking" ]; then
    if [ -n "$breaking" ]; then
        echo "check-names: these names do not begin with their file's name (FILE_):"
        printf '%s\n' "$breaking" | sed 's/^/  /'
    fi
    if [ -n "$types_breaking" ]; then
        echo "check-names: these types do not begin with their file's name (FILE_):"
        printf '%s\n' "$types_breaking" | sed 's/^/  /'
    fi
    if [ -n "$macros_breaking" ]; then
        echo "check-names: these macros and enumerators do not take their file's prefix (FILE_):"
        printf '%s\n' "$macros_breaking" | sed 's/^/  /'
    fi
    exit 1
fi
echo "check-names: $(printf '%s\n' "$found" | wc -l) names, and the types, macros and enumerators" \
    "of $(printf '%s\n' "$types" | wc -l) files of src/, every one named after its file"
