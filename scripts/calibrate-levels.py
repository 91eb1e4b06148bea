#!/usr/bin/env python3
"""Measures what Lull's strength levels are worth: the matches of docs/strength-levels.md.

Each row of the plan is one match of game pairs (each opening with both colours) between Lull
at a `Skill Level` and a reference engine: Stockfish with `UCI_LimitStrength` and its own
`UCI_Elo` (anchored by Stockfish to CCRL 40/4), or Glaurung 2.2 at full strength (placed on
the same scale by its own match against Stockfish). The runner is fastchess
(https://github.com/Disservin/fastchess, a release binary or built from source); the
settings are the page's: 10+0.1, one thread, Hash 16, the balanced book 8moves_v3.pgn of
official-stockfish/books.

    python3 scripts/calibrate-levels.py --lull target/release/lull \\
        --book 8moves_v3.pgn --pairs 12 > matches.md

prints one Markdown row a match, in the form of the page's "Matches" table (level, opponent,
its Elo, pairs, W / D / L, pentanomial, Elo difference with its 95 % interval, the level's
Elo). Paste the rows into the table, then `python3 docs/strength-levels.py fit` prints the
"Levels" table (`SKILL_LEVEL_ELO` in src/params.rs) and `plot` redraws the figure.

`--matches 10:sf1700,19:glaurung` measures only those rows; the default plan is the page's.
`--concurrency 2` plays two games at once (at most the machine's cores: both mechanisms are
node-limited, so the level's play does not depend on the load, but the reference's clock
does).
"""
import argparse
import math
import re
import shutil
import subprocess
import sys

# (level, opponent): opponents are `sfNNNN` (Stockfish at UCI_Elo NNNN) or `glaurung`.
PLAN = [
    (0, "sf1350"),
    (5, "sf1350"),
    (10, "sf1700"),
    (15, "sf2000"),
    (19, "sf2300"),
    (19, "glaurung"),
    (20, "glaurung"),
]
# Glaurung 2.2's place on the scale and its 95 % interval (docs/strength-levels.md,
# "Reference engines").
GLAURUNG_ELO = (2218, 2039, 2314)


def pentanomial_elo(p):
    """Elo difference and its 95 % interval from pentanomial counts (LL, LD, WL+DD, WD, WW):
    the pairs' mean score and its standard error, each end through the logistic curve.
    An end past a score of 0 or 1 is infinite."""
    n = sum(p)
    scores = [0.0, 0.25, 0.5, 0.75, 1.0]
    mean = sum(s * c for s, c in zip(scores, p)) / n
    var = sum(c * (s - mean) ** 2 for s, c in zip(scores, p)) / n
    se = math.sqrt(var / n)

    def elo(s):
        if s <= 0.0:
            return -math.inf
        if s >= 1.0:
            return math.inf
        return -400.0 * math.log10(1.0 / s - 1.0)

    return elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se)


def fmt(x, sign=True):
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}" if sign else f"{x:.0f}"


def opponent(name, args):
    """The fastchess engine arguments and the opponent's Elo (with its interval) of a name."""
    if name == "glaurung":
        return (["cmd=" + args.glaurung, "name=glaurung"], "Glaurung 2.2", GLAURUNG_ELO)
    m = re.fullmatch(r"sf(\d{4})", name)
    if not m:
        sys.exit(f"unknown opponent {name!r} (sfNNNN or glaurung)")
    elo = int(m.group(1))
    return (
        [
            "cmd=" + args.stockfish,
            f"name={name}",
            "option.UCI_LimitStrength=true",
            f"option.UCI_Elo={elo}",
        ],
        f"Stockfish `UCI_Elo` {elo}",
        (elo, elo, elo),
    )


def play(level, opp, args, seed):
    engine, label, opp_elo = opponent(opp, args)
    cmd = [
        args.fastchess,
        "-engine",
        "cmd=" + args.lull,
        f"name=lull-L{level}",
        f"option.Skill Level={level}",
        "-engine",
        *engine,
        "-each",
        f"tc={args.tc}",
        "option.Hash=16",
        "option.Threads=1",
        "-openings",
        f"file={args.book}",
        "format=" + ("pgn" if args.book.endswith(".pgn") else "epd"),
        "order=random",
        "-srand",
        str(seed),
        "-rounds",
        str(args.pairs),
        "-games",
        "2",
        "-repeat",
        "-concurrency",
        str(args.concurrency),
        "-recover",
    ]
    if args.pgn:
        cmd += ["-pgnout", f"file={args.pgn}"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    # fastchess prints the running totals after each pair; the last ones are the match's.
    ptnml = re.findall(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", out)
    wdl = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", out)
    if not ptnml or not wdl:
        sys.exit(f"no result from fastchess for level {level} against {opp}:\n{out[-2000:]}")
    p = [int(x) for x in ptnml[-1]]
    games, w, l, d = (int(x) for x in wdl[-1])
    diff, lo, hi = pentanomial_elo(p)
    e, elo_lo, elo_hi = opp_elo
    # Against a reference with its own interval, the two intervals add in quadrature (each
    # finite end; an infinite one stays infinite).
    if elo_lo != elo_hi and not math.isinf(diff):
        if not math.isinf(lo):
            lo = diff - math.hypot(diff - lo, e - elo_lo)
        if not math.isinf(hi):
            hi = diff + math.hypot(hi - diff, elo_hi - e)
    level_name = "20 (full strength)" if level == 20 else str(level)
    return (
        f"| {level_name} | {label} | {e} | {games // 2} | {w} / {d} / {l} | "
        f"{', '.join(map(str, p))} | {fmt(diff)} [{fmt(lo)}, {fmt(hi)}] | "
        f"{fmt(e + diff, False)} [{fmt(e + lo, False)}, {fmt(e + hi, False)}] |"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lull", default="target/release/lull")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    ap.add_argument("--glaurung", default=shutil.which("glaurung") or "/usr/games/glaurung")
    ap.add_argument("--fastchess", default=shutil.which("fastchess") or "fastchess")
    ap.add_argument("--book", required=True, help="8moves_v3.pgn (or any balanced book)")
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2416)
    ap.add_argument("--pgn", help="append the games to this PGN file")
    ap.add_argument("--matches", help="level:opponent,... (default: the page's plan)")
    args = ap.parse_args()
    plan = PLAN
    if args.matches:
        plan = []
        for item in args.matches.split(","):
            level, _, opp = item.partition(":")
            if not level.isdigit() or not 0 <= int(level) <= 20 or not opp:
                sys.exit(f"bad row {item!r}: expected LEVEL:OPPONENT, e.g. 10:sf1700")
            plan.append((int(level), opp))
    print(
        "| level | opponent | opponent's Elo | pairs | W / D / L (Lull) | pentanomial "
        "(LL, LD, WL+DD, WD, WW) | Elo difference (95 %) | Lull's Elo (95 %) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for i, (level, opp) in enumerate(plan):
        print(play(level, opp, args, args.seed + i), flush=True)


if __name__ == "__main__":
    main()
