#!/usr/bin/env bash
# Installs what ocl_sp needs on Debian/Ubuntu (only what is missing), then
# configures and builds it in build/ (Release). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers
          libcli11-dev doctest-dev pocl-opencl-icd clinfo clang gnuplot-nox python3 python3-numpy
          python3-dev python3-scipy python3-pytest python3-networkx pybind11-dev python3-pybind11
          libopenmpi-dev openmpi-bin help2man pkgconf dpkg-dev file time)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" >/dev/null
cmake --build build -j"$(nproc)"
