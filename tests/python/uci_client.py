"""python-chess drives Lull over UCI: MultiPV analysis, pondering and Chess960 games.

Usage: uci_client.py <lull binary> <check>   with check one of: multipv, ponder, chess960.
Every check raises (exit status 1) with a message when Lull does something wrong; python-chess
itself rejects illegal moves and malformed protocol lines.
"""

import random
import sys

import chess
import chess.engine

ENGINE = sys.argv[1]
CHECK = sys.argv[2]
# Fast games: a small fixed time per move (pondering needs a clock) or a small depth keeps the
# whole test short on a loaded machine.
MOVE_LIMIT = chess.engine.Limit(time=0.05)
GAME_LIMIT = chess.engine.Limit(depth=5)
# Pondering: long enough that a search on a loaded machine (the test suite runs binaries side
# by side on two cores) gets past depth 1, whose one-move PV has no expected reply.
PONDER_LIMIT = chess.engine.Limit(time=0.2)


def fail(msg):
    raise SystemExit(f"FAIL: {msg}")


def open_engine():
    engine = chess.engine.SimpleEngine.popen_uci([ENGINE, "uci"], timeout=30)
    engine.configure({"Hash": 8})
    return engine


def check_multipv():
    with open_engine() as engine:
        # Middle-game position with many reasonable moves.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
        infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=4)
        if len(infos) != 4:
            fail(f"multipv 4 gave {len(infos)} lines")
        firsts = [info["pv"][0] for info in infos]
        if len(set(firsts)) != 4:
            fail(f"multipv lines share a first move: {firsts}")
        for info in infos:
            for mv in info["pv"][:1]:
                if mv not in board.legal_moves:
                    fail(f"illegal first move {mv}")
            if info.get("depth") != 8:
                fail(f"line at depth {info.get('depth')}, expected 8")
        scores = [info["score"].relative.score(mate_score=100000) for info in infos]
        if scores != sorted(scores, reverse=True):
            fail(f"multipv scores not best first: {scores}")
        # Every line's PV is legal from the root.
        for info in infos:
            b = board.copy()
            for mv in info["pv"]:
                if mv not in b.legal_moves:
                    fail(f"illegal move {mv} in pv {info['pv']}")
                b.push(mv)
        # A position with two legal moves: MultiPV 4 gives both, no more.
        board = chess.Board("7k/8/8/8/8/8/6q1/K7 w - - 0 1")
        legal = list(board.legal_moves)
        infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=4)
        if sorted(i["pv"][0] for i in infos) != sorted(legal):
            fail(f"two-move position: lines {[i['pv'][0] for i in infos]}, legal {legal}")
        # Mate in one found as line 1 with a mate score, the other lines below it.
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        if infos[0]["pv"][0] != chess.Move.from_uci("d1d8"):
            fail(f"mate in one not first: {infos[0]['pv']}")
        if infos[0]["score"].relative != chess.engine.Mate(1):
            fail(f"mate in one scored {infos[0]['score']}")
    print("multipv ok")


def check_ponder():
    with open_engine() as engine:
        # python-chess sets the Ponder option itself for play(..., ponder=True).
        board = chess.Board()
        ponder_moves = 0
        hits = 0
        for _ in range(16):
            if board.is_game_over():
                break
            result = engine.play(board, PONDER_LIMIT, ponder=True)
            if result.move not in board.legal_moves:
                fail(f"illegal move {result.move} in {board.fen()}")
            board.push(result.move)
            if board.is_game_over():
                break
            if result.ponder is not None:
                ponder_moves += 1
                if result.ponder not in board.legal_moves:
                    fail(f"illegal ponder move {result.ponder} in {board.fen()}")
                # Half the time the opponent plays the expected move (ponderhit), half not
                # (stop, then a new search).
                if len(board.move_stack) % 4 == 1:
                    board.push(result.ponder)
                    hits += 1
                else:
                    others = [m for m in board.legal_moves if m != result.ponder]
                    board.push(others[0] if others else result.ponder)
            else:
                board.push(next(iter(board.legal_moves)))
        if ponder_moves < 8:
            fail(f"only {ponder_moves} bestmove lines had a ponder move")
        if hits == 0:
            fail("no ponderhit was exercised")
    print(f"ponder ok: {ponder_moves} ponder moves, {hits} hits")


def check_chess960():
    rng = random.Random(960)
    games = 0
    castlings = 0
    with open_engine() as white, open_engine() as black:
        for scharnagl in [rng.randrange(960) for _ in range(4)] + [518]:
            board = chess.Board.from_chess960_pos(scharnagl)
            board.chess960 = True
            engines = {chess.WHITE: white, chess.BLACK: black}
            while not board.is_game_over(claim_draw=True) and board.ply() < 120:
                engine = engines[board.turn]
                result = engine.play(board, GAME_LIMIT)
                if result.move not in board.legal_moves:
                    fail(f"illegal move {result.move} in {board.fen()} (960 #{scharnagl})")
                if board.is_castling(result.move):
                    castlings += 1
                board.push(result.move)
            games += 1
            # Analysis of a Chess960 position with castling rights on both wings.
            board = chess.Board.from_chess960_pos(scharnagl)
            board.chess960 = True
            info = white.analyse(board, chess.engine.Limit(depth=6))
            b = board.copy()
            for mv in info["pv"]:
                if mv not in b.legal_moves:
                    fail(f"illegal pv move {mv} in {b.fen()}")
                b.push(mv)
        # A position where castling is the only way to avoid mate-in-one threats is hard to
        # set up; instead a position where king-side castling is legal and the engine must
        # be able to read it back: send the castling move and search on.
        board = chess.Board("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", chess960=True)
        castle = chess.Move.from_uci("e1g1")
        if not board.is_castling(castle):
            fail("test position: e1g1 is not castling")
        board.push(castle)
        result = black.play(board, chess.engine.Limit(depth=4))
        if result.move not in board.legal_moves:
            fail(f"illegal reply {result.move} after 960 castling")
    if castlings == 0:
        fail("no castling in five Chess960 games")
    print(f"chess960 ok: {games} games, {castlings} castlings")


{"multipv": check_multipv, "ponder": check_ponder, "chess960": check_chess960}[CHECK]()
