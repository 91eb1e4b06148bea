#!/usr/bin/env python3
"""Writes fixture.txt: random 3- and 4-piece positions with their WDL and DTZ from
python-chess's own Syzygy prober (chess.syzygy), on the tables of this directory.

tests/syzygy.rs probes the same positions through Lull (shakmaty-syzygy behind a conversion
from cozy-chess) and checks that every value agrees. The test reads only the fixture; this
script is how it was made:

    python3 assets/syzygy/make_fixture.py            # seed 17, 3200 positions

Each line: `FEN;WDL;DTZ`, WDL from -2 (loss) to 2 (win) as if the halfmove clock were 0,
DTZ as the tables give it, both from the side to move.
"""

import os
import random
import sys

import chess
import chess.syzygy

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 17
COUNT = 3200


def materials():
    """The tables here, as (white pieces, black pieces) without the kings, both colourings."""
    names = sorted({f[:-5] for f in os.listdir(HERE) if f.endswith(".rtbw")})
    out = []
    for name in names:
        white, black = name.split("v")
        white, black = white[1:], black[1:]
        out.append((white, black))
        if white != black:
            out.append((black, white))
    return out


def random_position(rng, white, black):
    """A legal position with that material (kings included), no castling, no en passant."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        rest = squares[2:]
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for symbol in pieces:
                board.set_piece_at(rest.pop(), chess.Piece.from_symbol(symbol.upper() if color else symbol.lower()))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            return board


def main():
    rng = random.Random(SEED)
    mats = materials()
    three = [m for m in mats if len(m[0]) + len(m[1]) == 1]
    four = [m for m in mats if len(m[0]) + len(m[1]) == 2]
    lines = []
    with chess.syzygy.open_tablebase(HERE) as tb:
        for i in range(COUNT):
            white, black = rng.choice(three if i % 2 == 0 else four)
            board = random_position(rng, white, black)
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            lines.append(f"{board.fen()};{wdl};{dtz}")
    path = os.path.join(HERE, "fixture.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} positions to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
