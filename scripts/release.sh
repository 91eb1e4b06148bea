#!/usr/bin/env bash
# Builds Lull's release archives: a portable x86-64 binary (the baseline every x86-64 CPU
# runs) and an x86-64-v3 one (AVX2, BMI2, FMA: most CPUs from 2015 on), each built with
# `--locked`, stripped (Cargo's `strip = "symbols"`), and packed with README.md,
# CHANGELOG.md, the licences and the SHA-256 sum of the binary into
# dist/lull-<version>-<cpu>-<os>.tar.gz; dist/SHA256SUMS lists the archives' sums.
# Then each binary runs `bench` and the script checks that both print the same signature
# (the search does not depend on the CPU level). Before anything is packed, the first build
# that runs here is checked against the committed report: the script refuses (exit 1) when
# docs/report/data.json records another bench signature (scripts/check_report_bench.sh), as
# the report would describe an engine that does not ship.
#
#   scripts/release.sh                  # dist/ in the repository root
#   OUT=/tmp/dist scripts/release.sh    # elsewhere
#   TARGET=x86_64-unknown-linux-musl scripts/release.sh   # static binaries (musl target
#                                                         # installed with rustup)
#   FEATURES=--no-default-features scripts/release.sh     # the MIT-only build (no Syzygy)
#   PGO=1 scripts/release.sh            # profile-guided builds (scripts/pgo-build.sh; needs
#                                       # llvm-tools and a CPU that runs both levels)
#
# The `tools` feature (the `lull` command itself) is always on: a release is the binary.
#
# The default build contains the GPL-3.0-or-later Syzygy crates, so its archives carry
# COPYING (GPL-3.0) beside LICENSE (MIT, Lull's own code); see README, License.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
TARGET=${TARGET:-x86_64-unknown-linux-gnu}
OUT=${OUT:-dist}
FEATURES=${FEATURES:-}
PGO=${PGO:-0}
BUILD_DIR=${CARGO_TARGET_DIR:-target}
case "$TARGET" in
  *-linux-*) OS=linux; EXE= ;;
  *-apple-*) OS=macos; EXE= ;;
  *-windows-*) OS=windows; EXE=.exe ;;
  *) OS=${TARGET#*-}; EXE= ;;
esac
SUFFIX=
if [ "$FEATURES" = "--no-default-features" ]; then
  SUFFIX=-mit
fi

# The figures measured with the network (docs/releasing.md): the pages of the WDL model and of
# the strength levels name the network build.rs embeds, or they were measured with another.
NET=$(sed -n 's/^const DEFAULT_NET: &str = "\(.*\)";$/\1/p' build.rs)
for page in docs/wdl.md docs/strength-levels.md; do
  if ! grep -q "embedded network \`$NET\`" "$page"; then
    echo "$page does not name the embedded network $NET: measure its figures again" \
      "with it (docs/releasing.md)" >&2
    exit 1
  fi
done

mkdir -p "$OUT"
rm -f "$OUT/SHA256SUMS"
signatures=()
report_checked=
for cpu in x86-64 x86-64-v3; do
  case $cpu in
    x86-64) label=x86_64 ;;
    x86-64-v3) label=x86_64-v3 ;;
  esac
  dir="$BUILD_DIR/release-$cpu"
  echo "== building $cpu ($TARGET) into $dir" >&2
  if [ "$PGO" = 1 ]; then
    # Profile-guided: built twice, profiled by `lull bench` in between (scripts/pgo-build.sh).
    RUSTFLAGS="-C target-cpu=$cpu" CARGO_PROFILE_RELEASE_STRIP=symbols PGO_DIR="$dir-pgo" \
      TARGET="$TARGET" FEATURES="$FEATURES --features tools" scripts/pgo-build.sh
    bin="$dir-pgo/lull$EXE"
  else
    # shellcheck disable=SC2086
    RUSTFLAGS="-C target-cpu=$cpu" CARGO_PROFILE_RELEASE_STRIP=symbols \
      cargo build --release --locked --target "$TARGET" --target-dir "$dir" $FEATURES \
        --features tools
    bin="$dir/$TARGET/release/lull$EXE"
  fi
  # The committed report must be this build's (exit 1 of the check: another signature).
  if [ -z "$report_checked" ]; then
    rc=0
    scripts/check_report_bench.sh "$bin" docs/report/data.json || rc=$?
    case $rc in
      0) report_checked=yes ;;
      1) echo "release refused: docs/report is not the report of this build" >&2; exit 1 ;;
      *) echo "$cpu: cannot check the report's bench signature with this build here" >&2 ;;
    esac
  fi
  name="lull-$VERSION-$label-$OS$SUFFIX"
  stage="$OUT/$name"
  rm -rf "$stage"
  mkdir -p "$stage"
  cp "$bin" "$stage/lull$EXE"
  cp README.md CHANGELOG.md LICENSE "$stage/"
  if [ -z "$SUFFIX" ]; then
    cp COPYING "$stage/"
  fi
  (cd "$stage" && sha256sum "lull$EXE" > SHA256SUMS)
  tar -czf "$OUT/$name.tar.gz" -C "$OUT" "$name"
  (cd "$OUT" && sha256sum "$name.tar.gz" >> SHA256SUMS)
  # The binary runs here when the CPU has the level's instructions.
  if "$stage/lull$EXE" bench > "$OUT/$name.bench.txt" 2>&1; then
    sig=$(tail -n 1 "$OUT/$name.bench.txt")
    echo "$name: bench $sig" >&2
    signatures+=("${sig%% nodes*}")
  else
    echo "$name: cannot run bench on this machine (CPU without $cpu?)" >&2
  fi
  rm -f "$OUT/$name.bench.txt"
done
if [ -z "$report_checked" ]; then
  echo "release refused: no build ran here, so the report's bench signature is unchecked" >&2
  exit 1
fi
if [ "${#signatures[@]}" -ge 2 ] && [ "${signatures[0]}" != "${signatures[1]}" ]; then
  echo "the two builds print different bench signatures: ${signatures[*]}" >&2
  exit 1
fi
echo "archives in $OUT:" >&2
cat "$OUT/SHA256SUMS"
