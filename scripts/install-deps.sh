#!/usr/bin/env bash
# Installs everything mpiguard needs on Debian 12, from Debian's packages only.
# Idempotent: a second run installs nothing and exits 0 quickly.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  gfortran
  openmpi-bin libopenmpi-dev
  mpich libmpich-dev
  libunwind-dev libdw-dev libelf-dev
  libz3-dev z3
  clang-14 llvm-14-dev libclang-rt-14-dev
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
