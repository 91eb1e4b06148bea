#!/usr/bin/env python3
"""Side-by-side tactical suites for any UCI engines (the tactics table of docs/measurements.md).

Every engine gets the same positions, one thread, the same hash and the same time per position,
through the same UCI client (python-chess), so Lull's numbers and its opponents' are measured
alike. Two kinds of suite:

* best-move suites (`--epd wac.epd`): solved when the engine's `bestmove` is one of the EPD's `bm`
  moves (if it has any) and none of its `am` moves (if it has any);
* mate suites (`--mates mate_in_2.epd ...`, N read from the file's `ce +MN`): found when the
  engine's last reported score before `bestmove` is a mate in at most N moves for the side to move.

    python3 scripts/tactics.py --engine lull=target/release/lull \\
        --engine glaurung=/usr/games/glaurung --epd assets/wac.epd --movetime 1000
    python3 scripts/tactics.py --engine lull=target/release/lull \\
        --mates suites/mate_in_{2,3,4,5,6}.epd --sample 50 --seed 1 --movetime 200

`--jobs` engines run side by side (one per core at most, or the clock is shared). `--json FILE`
writes every position's record.
"""

import argparse
import json
import random
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import chess
import chess.engine


def parse_engine(spec):
    name, _, cmd = spec.partition("=")
    if not cmd:
        sys.exit(f"error: --engine wants NAME=COMMAND, got {spec!r}")
    return name, cmd


def read_epd(path):
    """One record per line: file, line number, board and the EPD operations as text (the mate
    suites' long-algebraic `bm` moves are never parsed: their `ce +MN` decides)."""
    items = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            fields = line.split()
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
            rest = " ".join(fields[4:])
            ops = {}
            for part in rest.split(";"):
                part = part.strip()
                if not part:
                    continue
                key, _, value = part.partition(" ")
                ops[key] = value.strip().strip('"')
            items.append({"file": path, "line": lineno, "board": board, "ops": ops})
    return items


def san_moves(board, text):
    moves = set()
    for token in text.split():
        if token in ("bm", "am"):
            continue
        try:
            moves.add(board.parse_san(token))
        except ValueError:
            sys.exit(f"error: cannot read move {token!r} of {board.fen()}")
    return moves


def mate_bound(ops):
    m = re.match(r"\+M(\d+)", ops.get("ce", ""))
    return int(m.group(1)) if m else None


def run_engine(name, cmd, positions, args):
    engine = chess.engine.SimpleEngine.popen_uci(cmd.split())
    engine.configure({k: v for k, v in (("Hash", args.hash), ("Threads", 1)) if k in engine.options})
    records = []
    for item in positions:
        board = item["board"]
        result = None
        with engine.analysis(board, chess.engine.Limit(time=args.movetime / 1000), game=object()) as analysis:
            for info in analysis:
                if "score" in info:
                    result = info
            best = analysis.wait().move
        score = result["score"].pov(board.turn) if result else None
        record = {
            "engine": name,
            "file": item["file"],
            "line": item["line"],
            "fen": board.fen(),
            "move": best.uci() if best else None,
            "score": str(score) if score is not None else None,
            "depth": result.get("depth") if result else None,
        }
        n = mate_bound(item["ops"])
        if n is None:
            ops = item["ops"]
            record["solved"] = ("bm" not in ops or best in san_moves(board, ops["bm"])) and (
                "am" not in ops or best not in san_moves(board, ops["am"])
            )
        else:
            mate = score.mate() if score is not None else None
            record["mate_in"] = n
            record["solved"] = mate is not None and 0 < mate <= n
        records.append(record)
    engine.quit()
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND (repeatable)")
    ap.add_argument("--epd", nargs="*", default=[], help="best-move suites (bm/am)")
    ap.add_argument("--mates", nargs="*", default=[], help="mate-in-N suites (ce +MN)")
    ap.add_argument("--sample", type=int, help="this many positions of each file, drawn with --seed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=1000, help="milliseconds per position")
    ap.add_argument("--hash", type=int, default=64, help="MiB")
    ap.add_argument("--jobs", type=int, default=2, help="engines run side by side")
    ap.add_argument("--json", help="write every record here")
    args = ap.parse_args()

    positions = []
    for path in args.epd + args.mates:
        items = read_epd(path)
        if args.sample and args.sample < len(items):
            items = random.Random(args.seed).sample(items, args.sample)
        positions += items
    engines = [parse_engine(s) for s in args.engine]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = list(pool.map(lambda e: run_engine(e[0], e[1], positions, args), engines))

    files = list(dict.fromkeys(p["file"] for p in positions))
    print(f"{'engine':<16}" + "".join(f"{f.rsplit('/', 1)[-1]:>16}" for f in files) + f"{'total':>10}")
    for (name, _), records in zip(engines, runs):
        row = f"{name:<16}"
        for f in files:
            mine = [r for r in records if r["file"] == f]
            row += f"{sum(r['solved'] for r in mine):>10} / {len(mine):<3}"
        row += f"{sum(r['solved'] for r in records):>6} / {len(records)}"
        print(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r for records in runs for r in records], f, indent=1)


if __name__ == "__main__":
    main()
