#!/usr/bin/env bash
# The install tree and the Debian package, from the existing build:
#   bash tests/install/run.sh BUILD_DIR SOURCE_DIR      (ctest: install.tree)
# Installs into a temporary prefix and, from outside the source tree, runs the
# binary, builds and runs examples/cpp against the installed package with
# find_package and with pkg-config, checks that the man page documents every
# option the help lists and that the completion offers every subcommand and the
# values of --device/--algo/--format, then builds the .deb with cpack and checks
# its contents and Depends, and runs the ocl_sp it unpacks to. Fails (never
# skips) when a tool is missing: help2man, pkg-config, dpkg-deb, cpack.
set -uo pipefail
BUILD=$(cd "${1:?usage: run.sh BUILD_DIR SOURCE_DIR}" && pwd)
SRC=$(cd "${2:?usage: run.sh BUILD_DIR SOURCE_DIR}" && pwd)
T=$(mktemp -d /tmp/ocl_sp_install.XXXXXX)
trap 'rm -rf "$T"' EXIT
export OCL_SP_CACHE_DIR="$T/cache"
unset OCL_SP_DEVICE
P=$T/prefix
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
expect() {  # expect NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then ok "$name"; else fail "$name"; fi
}
for tool in cmake cpack pkg-config dpkg-deb readelf c++; do
  command -v $tool >/dev/null || { echo "FAIL: $tool missing (scripts/setup.sh installs it)"; exit 1; }
done

cd "$T"  # outside the source tree from here on
cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "cmake --install"; }
for f in bin/ocl_sp lib/libocl_sp.so lib/libocl_sp.so.0 include/ocl_sp/ocl_sp.hpp \
         include/ocl_sp/graph.hpp lib/cmake/ocl_sp/ocl_spConfig.cmake \
         lib/cmake/ocl_sp/ocl_spConfigVersion.cmake lib/cmake/ocl_sp/ocl_spTargets.cmake \
         lib/pkgconfig/ocl_sp.pc share/man/man1/ocl_sp.1 share/bash-completion/completions/ocl_sp; do
  expect "installed $f" test -e "$P/$f"
done
expect "SONAME libocl_sp.so.0" bash -c "readelf -d '$P/lib/libocl_sp.so' | grep -q 'SONAME.*\[libocl_sp.so.0\]'"
# Nothing of the source or build tree is needed at run time (kernels embedded).
BIN=$P/bin/ocl_sp
"$BIN" --version >"$T/version" 2>&1
for line in "ocl_sp [0-9]+\.[0-9]+\.[0-9]+" "revision: " "build type: " "OpenCL target: 1\.2" \
            "features: openmp=[0-9]+ mpi=(yes|no) python=(yes|no)"; do
  expect "--version: $line" grep -Eq "^$line" "$T/version"
done
expect "installed ocl_sp solves on PoCL (verified)" \
  bash -c "'$BIN' --device pocl --n 60 --verify >'$T/solve' 2>&1 && grep -q 'verify .*ok' '$T/solve'"

# examples/cpp against the installed package: CMake package, then pkg-config.
EXPECTED=("d(0,3) = 3, path: 0 1 2 3" "d(0,4) unreachable: 1"
          "row 0: d(.,3) = 0" "row 1: d(.,3) = 3"
          "reach(0) = 4, closeness(3) = 0.375, betweenness(1) = 0.166667"
          "session: d(0,3) = 3, parent of 3: 2" "session: solver reused: 1"
          "error: edge 0 -> 7 (weight 1) has a vertex outside [0, 3)"
          "negative cycle of length -1: 0 1 2")
check_example() {  # check_example NAME BINARY
  local name=$1 out=$T/$1.out line
  if ! LD_LIBRARY_PATH=$P/lib OCL_SP_DEVICE=pocl "$2" >"$out" 2>&1; then
    fail "$name runs"; cat "$out"; return
  fi
  for line in "${EXPECTED[@]}"; do expect "$name: $line" grep -qxF "$line" "$out"; done
  expect "$name: fw on opencl with the context apart" grep -Eq '^fw on opencl .*context .*programs' "$out"
}
cp -r "$SRC/examples/cpp" "$T/example"
if cmake -S "$T/example" -B "$T/example-build" -DCMAKE_PREFIX_PATH="$P" >"$T/cfg.log" 2>&1 &&
   cmake --build "$T/example-build" >"$T/build.log" 2>&1; then
  ok "example builds with find_package(ocl_sp CONFIG)"
  check_example find_package "$T/example-build/ocl_sp_example"
else
  fail "example builds with find_package(ocl_sp CONFIG)"; cat "$T/cfg.log" "$T/build.log" | tail -20
fi
export PKG_CONFIG_PATH=$P/lib/pkgconfig
expect "pkg-config --modversion ocl_sp" bash -c "[ \"\$(pkg-config --modversion ocl_sp)\" = 0.1.0 ]"
# shellcheck disable=SC2046
if c++ -std=c++17 "$T/example/main.cpp" $(pkg-config --cflags --libs ocl_sp) -o "$T/example-pc" \
     >"$T/pc.log" 2>&1; then
  ok "example builds with pkg-config"
  check_example pkg-config "$T/example-pc"
else
  fail "example builds with pkg-config"; tail -20 "$T/pc.log"
fi

# Man page: every option of the help of ocl_sp and of each subcommand is in it.
MAN=$T/man.txt
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$P/share/man/man1/ocl_sp.1" >"$MAN"
expect "man page: NAME line" grep -q '^ocl_sp \\\?- all-pairs shortest paths' "$MAN"
expect "man page: the help's examples verbatim" grep -q '^  ocl_sp devices  *list OpenCL' "$MAN"
subs=$("$BIN" --help | awk '/^Subcommands:/{on=1; next} on && /^  [a-z]/{print $1}')
expect "help lists the subcommands devices, bench, sweep" \
  bash -c "[ \"$(echo $subs)\" = 'devices bench sweep' ]"
missing=""
for cmd in "" $subs; do
  for opt in $("$BIN" $cmd --help | grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]//' | sort -u); do
    grep -qF -- "$opt" "$MAN" || missing+=" ${cmd:-ocl_sp}:$opt"
  done
  [ -z "$cmd" ] || grep -q "^\.SH \"\?SUBCOMMAND ${cmd^^}" "$MAN" || missing+=" section:$cmd"
done
expect "man page documents every option of every help (missing:${missing:- none})" test -z "$missing"

# Completion: subcommands, options of the command and of a subcommand, values.
complete_words() {  # complete_words WORD...: COMPREPLY for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1));
           _ocl_sp; ((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
    _ "$P/share/bash-completion/completions/ocl_sp" "$BIN" "${@}"
}
has_all() {  # has_all "REPLY" WORD...
  local r=" $1 " w
  shift
  for w in "$@"; do [[ $r == *" $w "* ]] || return 1; done
}
expect "completion: subcommands" has_all "$(complete_words '')" $subs
expect "completion: options" has_all "$(complete_words --al)" --algo
expect "completion: every option of the help" has_all "$(complete_words --)" \
  $("$BIN" --help | grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]//' | sort -u)
expect "completion: bench options" has_all "$(complete_words bench --)" --sizes --algos --devices
expect "completion: --device values" has_all "$(complete_words --device '')" nvidia amd pocl cpu gpu
expect "completion: --algo values" has_all "$(complete_words --algo '')" fw squaring fw-naive
expect "completion: --format values" has_all "$(complete_words --format '')" auto bin gr mtx edges
expect "completion: --output-format values" has_all "$(complete_words --output-format '')" bin npy csv
expect "completion: no subcommand after one" test -z "$(complete_words devices '')"

# The Debian package: contents, Depends, and the ocl_sp it unpacks to.
if cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1; then
  ok "cpack -G DEB"
  DEB=$(ls "$T"/deb/ocl-sp_*.deb 2>/dev/null | head -1)
  expect "package file ocl-sp_<version>_<arch>.deb" test -n "$DEB"
  dpkg-deb -c "$DEB" >"$T/deb.list" 2>&1
  for f in ./usr/bin/ocl_sp ./usr/lib/libocl_sp.so.0.1.0 ./usr/include/ocl_sp/ocl_sp.hpp \
           ./usr/lib/cmake/ocl_sp/ocl_spConfig.cmake ./usr/lib/pkgconfig/ocl_sp.pc \
           ./usr/share/man/man1/ocl_sp.1 ./usr/share/bash-completion/completions/ocl_sp; do
    expect "deb contains $f" grep -q " $f\( \|$\)" "$T/deb.list"
  done
  deps=$(dpkg-deb -f "$DEB" Depends)
  echo "     Depends: $deps"
  expect "Depends: OpenCL ICD loader" bash -c "[[ '$deps' == *ocl-icd-libopencl1* ]]"
  expect "Depends: libgomp1" bash -c "[[ '$deps' == *libgomp1* ]]"
  expect "Depends: libc6 (from shlibdeps)" bash -c "[[ '$deps' == *libc6* ]]"
  dpkg-deb -x "$DEB" "$T/root"
  expect "the packaged ocl_sp runs" bash -c "'$T/root/usr/bin/ocl_sp' --device pocl --n 20 >/dev/null 2>&1"
else
  fail "cpack -G DEB"; tail -20 "$T/cpack.log"
fi

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
