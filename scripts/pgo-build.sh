#!/usr/bin/env bash
# Builds Lull with profile-guided optimisation (PGO): an instrumented release build runs
# `lull bench` (the 50 positions of the search with the network: the work a game does),
# llvm-profdata merges what it recorded, and the release build is compiled again with that
# profile, so that the compiler lays out and inlines the hot paths by what they really do.
# The search is the same (`lull bench` prints the same signature); only the speed changes.
#
#   scripts/pgo-build.sh                     # target/pgo/lull
#   PGO_DIR=/tmp/pgo scripts/pgo-build.sh    # the builds and the binary elsewhere
#   OUT=../lull-pgo scripts/pgo-build.sh     # copy the binary there as well
#   RUSTFLAGS="-C target-cpu=x86-64-v3" scripts/pgo-build.sh   # flags for both builds
#   TARGET=x86_64-unknown-linux-gnu FEATURES=--no-default-features scripts/pgo-build.sh
#
# The profiling run executes the instrumented binary here, so a binary for a CPU level this
# machine lacks cannot be built this way. scripts/release.sh uses this script with PGO=1.
#
# Needs llvm-profdata of the LLVM that rustc uses: `rustup component add llvm-tools`
# (the script looks in the toolchain first, then for `llvm-profdata-<major>` and
# `llvm-profdata` on PATH of the same major version).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${PGO_DIR:-target/pgo}
OUT=${OUT:-}
FLAGS=${RUSTFLAGS:-}
FEATURES=${FEATURES:-}
TARGET=${TARGET:-}
EXE=
case "$TARGET" in *-windows-*) EXE=.exe ;; esac

host=$(rustc -vV | sed -n 's/^host: //p')
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=
for candidate in "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata" \
  "$(command -v "llvm-profdata-$llvm_major" || true)" "$(command -v llvm-profdata || true)"; do
  [ -n "$candidate" ] && [ -x "$candidate" ] || continue
  if "$candidate" --version 2>/dev/null | grep -q "LLVM version $llvm_major\."; then
    profdata=$candidate
    break
  fi
done
if [ -z "$profdata" ]; then
  echo "no llvm-profdata of LLVM $llvm_major (rustc's): rustup component add llvm-tools" >&2
  exit 1
fi

mkdir -p "$BUILD_DIR"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
profiles="$BUILD_DIR/profiles"
rm -rf "$profiles"
mkdir -p "$profiles"

echo "== instrumented build into $BUILD_DIR/gen" >&2
# shellcheck disable=SC2086
RUSTFLAGS="$FLAGS -C profile-generate=$profiles" \
  cargo build --release --locked --target-dir "$BUILD_DIR/gen" \
    ${TARGET:+--target "$TARGET"} $FEATURES
out_of() { echo "$BUILD_DIR/$1/${TARGET:+$TARGET/}release/lull$EXE"; }
# Only the engine's own run is the profile: the build scripts ran instrumented too.
rm -f "$profiles"/*.profraw
echo "== profiling run: lull bench" >&2
LLVM_PROFILE_FILE="$profiles/bench-%p.profraw" "$(out_of gen)" bench >/dev/null
"$profdata" merge -o "$BUILD_DIR/lull.profdata" "$profiles"

echo "== optimised build into $BUILD_DIR/use" >&2
# shellcheck disable=SC2086
RUSTFLAGS="$FLAGS -C profile-use=$BUILD_DIR/lull.profdata" \
  cargo build --release --locked --target-dir "$BUILD_DIR/use" \
    ${TARGET:+--target "$TARGET"} $FEATURES
cp "$(out_of use)" "$BUILD_DIR/lull$EXE"
if [ -n "$OUT" ]; then
  cp "$BUILD_DIR/lull$EXE" "$OUT"
fi
echo "$BUILD_DIR/lull$EXE: bench $("$BUILD_DIR/lull$EXE" bench 2>&1 | tail -n 1)" >&2
