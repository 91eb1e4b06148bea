#!/usr/bin/env python3
"""A deliberately faulty UCI engine, to prove that scripts/soak.py classifies each fault.

It plays random legal moves (with a ponder move) and supports `go ponder`, `ponderhit` and
`stop`. The environment variable BAD picks the fault, made on the FAULT_AT-th `go` (default 3)
or, for `noready`, the FAULT_AT-th `isready`:

  none     no fault
  illegal  a bestmove that is not legal (a move of the opponent's piece or an empty square)
  null     `bestmove 0000` although there are legal moves
  crash    exits with status 3 instead of answering
  hang     never answers that `go` (nor a later `stop`)
  slow     answers after the clock left + 0.5 s (a time loss)
  noready  never answers that `isready`
"""

import os
import random
import sys
import time

import chess

BAD = os.environ.get("BAD", "none")
FAULT_AT = int(os.environ.get("FAULT_AT", "3"))
rng = random.Random(os.getpid())
board = chess.Board()
gos = 0
readies = 0
pending = None  # the board of a ponder search waiting for ponderhit/stop
hung = False


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def best(b):
    moves = list(b.legal_moves)
    if not moves:
        return "bestmove 0000"
    move = rng.choice(moves)
    b2 = b.copy()
    b2.push(move)
    replies = list(b2.legal_moves)
    if replies:
        return f"bestmove {move.uci()} ponder {rng.choice(replies).uci()}"
    return f"bestmove {move.uci()}"


def illegal_move(b):
    """A well-formed move that is not legal: from a square without a piece of the side to
    move."""
    for sq in chess.SQUARES:
        piece = b.piece_at(sq)
        if piece is None or piece.color != b.turn:
            to = (sq + 8) % 64
            return chess.Move(sq, to).uci()
    return "a1a2"


def clock_left(words):
    key = "wtime" if board.turn == chess.WHITE else "btime"
    if key in words:
        return int(words[words.index(key) + 1]) / 1000.0
    return 1.0


def set_position(words):
    global board
    if "fen" in words:
        end = words.index("moves") if "moves" in words else len(words)
        board = chess.Board(" ".join(words[words.index("fen") + 1:end]))
    else:
        board = chess.Board()
    if "moves" in words:
        for m in words[words.index("moves") + 1:]:
            board.push_uci(m)


for line in sys.stdin:
    words = line.split()
    if not words or hung and words[0] in ("stop", "ponderhit", "go"):
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name FakeEngine")
        say("option name Ponder type check default false")
        say("uciok")
    elif cmd == "isready":
        readies += 1
        if BAD == "noready" and readies == FAULT_AT:
            continue
        say("readyok")
    elif cmd == "position":
        set_position(words)
    elif cmd == "go":
        if "ponder" in words:
            pending = board.copy()
            continue
        gos += 1
        if gos == FAULT_AT and BAD != "none":
            if BAD == "illegal":
                say(f"bestmove {illegal_move(board)}")
                continue
            if BAD == "null":
                say("bestmove 0000")
                continue
            if BAD == "crash":
                sys.exit(3)
            if BAD == "hang":
                hung = True
                continue
            if BAD == "slow":
                time.sleep(clock_left(words) + 0.5)
        say("info depth 1 score cp 0 nodes 1 pv " + best(board).split()[1])
        say(best(board))
    elif cmd in ("ponderhit", "stop"):
        if pending is not None:
            say(best(pending))
            pending = None
    elif cmd == "quit":
        break
