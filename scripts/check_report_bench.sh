#!/bin/sh
# Checks that the committed report describes this build: the bench signature recorded in
# docs/report/data.json (`bench_signature`, written by `lull report`) must be the one the
# binary prints (`lull bench`, last line). scripts/release.sh runs it before packing; exit 1
# when they differ (regenerate the report: docs/report/README.md, Regenerate), 2 when the
# binary or the file cannot be read.
#
#   scripts/check_report_bench.sh [LULL] [DATA_JSON]
#
# LULL defaults to target/release/lull, DATA_JSON to docs/report/data.json.
set -eu
LULL=${1:-target/release/lull}
DATA=${2:-docs/report/data.json}
if [ ! -r "$DATA" ]; then
  echo "cannot read $DATA" >&2
  exit 2
fi
signature=$("$LULL" bench 2>/dev/null | tail -n 1) || true
built=${signature%% nodes*}
case $built in
  ''|*[!0-9]*) echo "$LULL bench printed no signature" >&2; exit 2 ;;
esac
# data.json is written by serde_json's pretty printer: a top-level key is indented by two.
recorded=$(sed -n 's/^  "bench_signature": \([0-9][0-9]*\),\{0,1\}$/\1/p' "$DATA")
if [ -z "$recorded" ]; then
  echo "$DATA records no bench signature: the report predates the build that would ship;" \
    "regenerate it (docs/report/README.md, Regenerate)" >&2
  exit 1
fi
if [ "$recorded" != "$built" ]; then
  echo "$DATA was measured by a build with bench $recorded, but $LULL prints $built:" \
    "regenerate the report (docs/report/README.md, Regenerate) before a release" >&2
  exit 1
fi
echo "$DATA: bench $recorded, the binary's" >&2
