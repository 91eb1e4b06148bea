#!/usr/bin/env python3
"""Does probing the Syzygy WDL tables inside the quiescence search pay? (docs/measurements.md)

Searches 24 seeded random 5-piece positions (captures lead into the 3- and 4-piece tables)
to a fixed depth with one `lull` build and prints the totals: nodes, time, tbhits, how many
end with a tablebase or mate score, and the nodes and time until that score first appeared.
Run it once per build (params::TB_PROBE_IN_QSEARCH false / true):

    python3 docs/syzygy_qsearch_measure.py target/release/lull syzygy/ 16
"""

import random
import subprocess
import sys

import chess

TB_BOUND = 31743  # params::TB_BOUND: |cp| at or above it is a tablebase result


def positions():
    rng = random.Random(17)
    mats = ["QRvR", "RRvN", "QvRP", "RPvR", "QPvQ", "RBvR", "QNvR", "RvPP", "BPvN", "QvRB"]
    out = []
    while len(out) < 24:
        white, black = mats[len(out) % len(mats)].split("v")
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        rest = squares[2:]
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for p in pieces:
                board.set_piece_at(rest.pop(), chess.Piece.from_symbol(p if color else p.lower()))
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_check():
            out.append(board.fen())
    return out


def decided(words):
    if "mate" in words:
        return True
    return abs(int(words[words.index("cp") + 1])) >= TB_BOUND


def main():
    exe, tables, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send("uci")
    send(f"setoption name SyzygyPath value {tables}")
    send("isready")
    while p.stdout.readline().strip() != "readyok":
        pass
    nodes = ms = hits = solved = first_nodes = first_ms = 0
    for fen in positions():
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        last, first = None, None
        while True:
            words = p.stdout.readline().split()
            if words[:2] == ["info", "depth"]:
                last = words
                if first is None and decided(words):
                    first = words
            elif words[:1] == ["bestmove"]:
                break
        value = lambda w, k: int(w[w.index(k) + 1])
        nodes += value(last, "nodes")
        ms += value(last, "time")
        hits += value(last, "tbhits")
        if first:
            solved += 1
            first_nodes += value(first, "nodes")
            first_ms += value(first, "time")
    send("quit")
    print(f"depth {depth}: nodes {nodes} time {ms} ms tbhits {hits}; decided {solved}/24, "
          f"first decided after {first_nodes} nodes {first_ms} ms in all")


if __name__ == "__main__":
    main()
