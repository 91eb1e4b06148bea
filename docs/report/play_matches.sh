#!/bin/sh
# Plays the matches that `lull report` reads: each quiescence variant (engine A) against the
# default settings (engine B), the same binary, 30 ms per move of which Move Overhead keeps 5
# (25 ms of search), Hash 16, one thread, game pairs (each opening played with both colours)
# from an EPD opening book. The time margin is large (1 s) so that a late move on a loaded
# machine is the scheduler's, not the engine's. Appends to docs/report/matches/<variant>.pgn
# and says in docs/report/matches/played_by.yaml which build played (its bench signature),
# which the report quotes beside the Elo. Games of another build are not mixed in: delete
# the folder's *.pgn and played_by.yaml first for a fresh run.
#
# Needs a match runner: fastchess (https://github.com/Disservin/fastchess) or cutechess-cli
# (https://github.com/cutechess/cutechess), found on PATH or named by FASTCHESS=... or
# CUTECHESS=...; and an opening book in EPD, one position a line: BOOK=... (the published
# report used UHO_4060_v4.epd, from UHO_4060_v4.zip of official-stockfish/books).
#
#   BOOK=UHO_4060_v4.epd EVAL=hce sh docs/report/play_matches.sh [LULL] [PAIRS] [VARIANT...]
#
# LULL defaults to target/release/lull, PAIRS to 50, the variants to all seven. EVAL=hce (the
# default) plays both engines with the hand-crafted evaluation (Use NNUE=false) into
# docs/report/matches; EVAL=nnue with the network (Use NNUE=true) into docs/report/matches/nnue,
# the report's NNUE column. BUILD=... names the build in played_by.yaml (default: the
# commit checked out, if any).
set -e
LULL=${1:-target/release/lull}
PAIRS=${2:-50}
[ $# -ge 2 ] && shift 2 || shift $#
EVAL=${EVAL:-hce}
case $EVAL in
  hce) OUT=${OUT:-docs/report/matches}; USE_NNUE=false
       EVALUATION="hand-crafted evaluation (Use NNUE=false)" ;;
  nnue) OUT=${OUT:-docs/report/matches/nnue}; USE_NNUE=true
        EVALUATION="the network embedded in that build (Use NNUE=true)" ;;
  *) echo "EVAL must be hce or nnue, not $EVAL" >&2; exit 2 ;;
esac
VARIANTS=${*:-qsearch-off see-off delta-off tt-off nullmove-on checks-1 checks-2}
if [ -z "$BOOK" ] || [ ! -r "$BOOK" ]; then
  echo "set BOOK to a readable EPD opening book (e.g. UHO_4060_v4.epd)" >&2
  exit 2
fi
# The runner: the one named, else fastchess, else cutechess-cli from PATH. Both take the
# same options but for where the PGN goes.
if [ -n "$FASTCHESS" ]; then
  RUNNER=$FASTCHESS; KIND=fastchess
elif [ -n "$CUTECHESS" ]; then
  RUNNER=$CUTECHESS; KIND=cutechess-cli
elif command -v fastchess >/dev/null 2>&1; then
  RUNNER=fastchess; KIND=fastchess
elif command -v cutechess-cli >/dev/null 2>&1; then
  RUNNER=cutechess-cli; KIND=cutechess-cli
else
  echo "no match runner: install fastchess or cutechess-cli (or set FASTCHESS or CUTECHESS)" >&2
  exit 2
fi
if ! command -v "$RUNNER" >/dev/null 2>&1; then
  echo "$RUNNER not found: set FASTCHESS or CUTECHESS to the runner's path" >&2
  exit 2
fi
# The build that plays, by its bench signature (what `lull bench` ends with).
SIGNATURE=$("$LULL" bench 2>/dev/null | tail -n 1) || true
BENCH=${SIGNATURE%% nodes*}
case $BENCH in
  ''|*[!0-9]*) echo "$LULL bench printed no signature: is $LULL a Lull binary?" >&2; exit 2 ;;
esac
BUILD=${BUILD:-$(git rev-parse --short HEAD 2>/dev/null || echo unnamed)}
mkdir -p "$OUT"
RECORD=$OUT/played_by.yaml
if [ -f "$RECORD" ]; then
  PLAYED=$(sed -n 's/^bench: *\([0-9]*\).*/\1/p' "$RECORD")
  if [ "$PLAYED" != "$BENCH" ] && ls "$OUT"/*.pgn >/dev/null 2>&1; then
    echo "$OUT holds games of the build with bench ${PLAYED:-(not recorded)}; $LULL prints" \
      "$BENCH. Delete $OUT/*.pgn and $RECORD for a fresh run." >&2
    exit 2
  fi
fi
{
  echo "# Which build played the games of this folder; lull report quotes it beside their Elo."
  echo "build: $BUILD"
  echo "bench: $BENCH"
  echo "evaluation: $EVALUATION"
  echo "runner: $KIND"
} > "$RECORD"
# Keeps the repository lean: drops the score/depth/time comment of every move (a comment
# may run over a line end), keeps the comment that says how the game ended.
slim() {
  sed -E -i -e ':a' -e 'N' -e '$!ba' \
    -e 's/[ \n]?\{ ?[-+]?M?[0-9.]+\/[0-9]+[ \n][0-9.]+s ?\}//g' \
    -e 's/\{ ?[-+]?M?[0-9.]+\/[0-9]+[ \n][0-9.]+s,[ \n]/{ /g' "$1"
}
for v in $VARIANTS; do
  case $v in
    qsearch-off) opt="option.QSearch=false" ;;
    see-off) opt="option.QSearchSEE=-10000" ;;
    delta-off) opt="option.QSearchDelta=0" ;;
    tt-off) opt="option.QSearchTT=false" ;;
    nullmove-on) opt="option.QSearchNullMove=1" ;;
    checks-1) opt="option.QSearchChecks=1" ;;
    checks-2) opt="option.QSearchChecks=2" ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  # fastchess names the file with file= and keeps its state in a file of its own (by
  # default config.json in the working directory): a temporary one here.
  state=
  if [ "$KIND" = fastchess ]; then
    state=$(mktemp)
    set -- -pgnout "file=$OUT/$v.pgn" -config "outname=$state"
  else
    set -- -pgnout "$OUT/$v.pgn"
  fi
  nice -n 10 "$RUNNER" \
    -engine "name=$v" "cmd=$LULL" "$opt" -engine name=default "cmd=$LULL" \
    -each proto=uci st=0.03 timemargin=1000 option.Hash=16 option.Threads=1 \
      "option.Move Overhead=5" "option.Use NNUE=$USE_NNUE" \
    -openings "file=$BOOK" format=epd order=random -repeat -games 2 -rounds "$PAIRS" \
    -srand 16 -event "lull report: $v vs default" -concurrency 1 "$@"
  [ -z "$state" ] || rm -f "$state"
  slim "$OUT/$v.pgn"
done
