#!/usr/bin/env bash
# Installs everything mpiguard needs on Debian 12, from Debian's packages only.
# Idempotent: a second run installs nothing and exits 0 quickly.
set -euo pipefail

# install-deps.sh --source PACKAGE DIR: the upstream sources of a Debian source package (its
# .orig tarball, as Debian ships it) unpacked in DIR, for a benchmark that builds a real code
# from source (bench/concolic/hpl.sh: HPL from hpcc). apt reads the source index into DIR/.apt,
# from this machine's own Debian sources turned to deb-src, so the system's apt setup is left as
# it is. Idempotent: an unpacked tree in DIR is kept.
if [ "${1:-}" = --source ]; then
  pkg=$2 dir=$3
  ls -d "$dir/$pkg"-*/ >/dev/null 2>&1 && exit 0
  apt=$dir/.apt
  mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" >"$apt/parts/$(basename "$f")"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$f" ] && sed -n 's/^deb /deb-src /p' "$f" >"$apt/parts/$(basename "$f" .list).list"
  done
  aptopts=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$apt/parts"
           -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
  apt-get "${aptopts[@]}" update -qq
  (cd "$dir" && apt-get "${aptopts[@]}" -qq --tar-only source "$pkg")
  tar xf "$dir/${pkg}"_*.orig.tar.* -C "$dir"
  exit 0
fi

packages=(
  build-essential cmake pkg-config
  gfortran
  openmpi-bin libopenmpi-dev
  mpich libmpich-dev
  libunwind-dev libdw-dev libelf-dev
  libz3-dev z3
  clang-14 llvm-14-dev libclang-rt-14-dev clang-format-14
  slurm-wlm slurm-client munge
  graphviz
  libjson-c-dev
  procps psmisc python3 rsync bc
  libpetsc-real3.18-dev libpetsc3.18-dev-examples autoconf
  lammps lammps-examples hpcc quantum-espresso
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
