#!/bin/sh
# Plays the matches that `lull report` reads: each quiescence variant (engine A) against the
# default settings (engine B), the same binary, 30 ms per move of which Move Overhead keeps 5
# (25 ms of search), Hash 16, one thread, game pairs (each opening played with both colours)
# from an EPD opening book. The time margin is large (1 s) so that a late move on a loaded
# machine is the scheduler's, not the engine's. Appends to docs/report/matches/<variant>.pgn
# (delete the files first for a fresh run).
#
# Needs cutechess-cli (https://github.com/cutechess/cutechess; CUTECHESS=... names another
# path) and an opening book in EPD, one position a line: BOOK=... (the published report used
# UHO_4060_v4.epd of official-stockfish/books, 33185e1).
#
#   BOOK=UHO_4060_v4.epd sh docs/report/play_matches.sh [LULL] [PAIRS] [VARIANT...]
#
# LULL defaults to target/release/lull, PAIRS to 50, the variants to all seven. EVAL=hce (the
# default) plays both engines with the hand-crafted evaluation (Use NNUE=false) into
# docs/report/matches; EVAL=nnue with the network (Use NNUE=true) into docs/report/matches/nnue,
# the report's NNUE column.
set -e
LULL=${1:-target/release/lull}
PAIRS=${2:-50}
[ $# -ge 2 ] && shift 2 || shift $#
CUTECHESS=${CUTECHESS:-cutechess-cli}
EVAL=${EVAL:-hce}
case $EVAL in
  hce) OUT=${OUT:-docs/report/matches}; USE_NNUE=false ;;
  nnue) OUT=${OUT:-docs/report/matches/nnue}; USE_NNUE=true ;;
  *) echo "EVAL must be hce or nnue, not $EVAL" >&2; exit 2 ;;
esac
VARIANTS=${*:-qsearch-off see-off delta-off tt-off nullmove-on checks-1 checks-2}
if [ -z "$BOOK" ] || [ ! -r "$BOOK" ]; then
  echo "set BOOK to a readable EPD opening book (e.g. UHO_4060_v4.epd)" >&2
  exit 2
fi
if ! command -v "$CUTECHESS" >/dev/null 2>&1; then
  echo "$CUTECHESS not found: install cutechess-cli or set CUTECHESS" >&2
  exit 2
fi
mkdir -p "$OUT"
# Keeps the repository lean: drops the score/depth/time comment of every move, keeps the
# comment that says how the game ended.
slim() {
  sed -E -i 's/ \{ ?[-+]?M?[0-9.]+\/[0-9]+ [0-9.]+s ?\}//g' "$1"
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
  nice -n 10 "$CUTECHESS" \
    -engine "name=$v" "cmd=$LULL" "$opt" -engine name=default "cmd=$LULL" \
    -each proto=uci st=0.03 timemargin=1000 option.Hash=16 option.Threads=1 \
      "option.Move Overhead=5" "option.Use NNUE=$USE_NNUE" \
    -openings "file=$BOOK" format=epd order=random -repeat -games 2 -rounds "$PAIRS" \
    -srand 16 -event "lull report: $v vs default" -concurrency 1 \
    -pgnout "$OUT/$v.pgn"
  slim "$OUT/$v.pgn"
done
