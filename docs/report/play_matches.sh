#!/bin/sh
# Plays the matches that `lull report` reads: each quiescence variant (engine A) against the
# default settings (engine B), the same binary, 30 ms per move of which Move Overhead keeps 5
# (25 ms of search), Hash 16, one thread, game pairs from the UHO book. The time margin is
# large (1 s) because the matches ran on a loaded machine: a late move is the scheduler's,
# not the engine's. Appends to docs/report/matches/<variant>.pgn (delete the files
# first for a fresh run). Needs python-chess and ../shared/tools/match.py (or MATCH=...).
#
#   sh docs/report/play_matches.sh [LULL] [PAIRS] [VARIANT...]
#
# LULL defaults to target/release/lull, PAIRS to 50, the variants to all seven.
set -e
LULL=${1:-target/release/lull}
PAIRS=${2:-50}
[ $# -ge 2 ] && shift 2 || shift $#
MATCH=${MATCH:-../shared/tools/match.py}
BOOK=${BOOK:-../shared/data/books/UHO_4060_v4.epd}
OUT=${OUT:-docs/report/matches}
VARIANTS=${*:-qsearch-off see-off delta-off tt-off nullmove-on checks-1 checks-2}
mkdir -p "$OUT"
# Keeps the repository lean: drops the score/depth/time comment of every move, keeps the
# comment that says how the game ended.
slim() {
  sed -E -i 's/ \{ [-+]?M?[0-9.]+\/[0-9]+ [0-9.]+s \}//g; s/\{ [-+]?M?[0-9.]+\/[0-9]+ [0-9.]+s, /{ /g' "$1"
}
for v in $VARIANTS; do
  case $v in
    qsearch-off) opt="opt.QSearch=false" ;;
    see-off) opt="opt.QSearchSEE=-10000" ;;
    delta-off) opt="opt.QSearchDelta=0" ;;
    tt-off) opt="opt.QSearchTT=false" ;;
    nullmove-on) opt="opt.QSearchNullMove=1" ;;
    checks-1) opt="opt.QSearchChecks=1" ;;
    checks-2) opt="opt.QSearchChecks=2" ;;
    *) echo "unknown variant $v" >&2; exit 2 ;;
  esac
  nice -n 10 python3 "$MATCH" \
    --engine "name=$v,cmd=$LULL,$opt" --engine "name=default,cmd=$LULL" \
    --each "opt.Hash=16,opt.Threads=1,opt.Move Overhead=5" -n "$PAIRS" -c 1 --movetime 30 --timemargin 1000 \
    --book "$BOOK" --seed 16 --event "lull report: $v vs default" \
    --report 20 --pgn "$OUT/$v.pgn"
  slim "$OUT/$v.pgn"
done
