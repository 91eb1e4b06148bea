"""Drives Lull over XBoard (CECP v2) with python-chess, as a real client would.

Usage: xboard_client.py <lull binary> <scenario>

Scenarios:
  games     two full games against a random legal mover (per-move time, then a clock with
            increment) and one Lull-vs-Lull game with pondering on one side
  analysis  analyse() with a depth limit, analysis() stopped by hand, a mate score, ping
  setup     a game from a FEN (setboard), take-backs (undo/remove), options (memory, cores,
            an option of the table)
  chess960  Fischer Random games against a random mover that castles whenever it can, and a
            castling mate the engine must find (castling goes both ways as O-O / O-O-O)

Every engine move is checked to be legal on python-chess's own board. Prints one line per
check and `ALL OK` at the end; any failure raises (non-zero exit).
"""

import random
import sys

import chess
import chess.engine

LULL = sys.argv[1]
SCENARIO = sys.argv[2] if len(sys.argv) > 2 else "games"
MAX_PLIES = 160


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def engine_move(engine, board, limit, **kwargs):
    """One engine move, checked for legality; returns it (None if the engine claimed the end)."""
    result = engine.play(board, limit, **kwargs)
    move = result.move
    if move is None:
        check(board.is_game_over(claim_draw=True),
              f"no move in a live position {board.fen()}")
        return None
    check(move in board.legal_moves, f"illegal engine move {move} in {board.fen()}")
    return move


def play_vs_random(engine, engine_color, limit, rng, board=None, prefer_castling=False):
    board = board or chess.Board()
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < MAX_PLIES:
        if board.turn == engine_color:
            move = engine_move(engine, board, limit, game="vs-random")
            if move is None:
                break
        else:
            moves = list(board.legal_moves)
            castles = [m for m in moves if board.is_castling(m)]
            move = rng.choice(castles if prefer_castling and castles else moves)
        board.push(move)
    return board


def games():
    rng = random.Random(6)
    with chess.engine.SimpleEngine.popen_xboard(LULL) as engine:
        check(engine.id.get("name", "").startswith("Lull"), f"name {engine.id}")
        # Game 1: Lull as White, 50 ms a move (`st`).
        board = play_vs_random(engine, chess.WHITE, chess.engine.Limit(time=0.05), rng)
        print(f"game 1: {len(board.move_stack)} plies, {board.result(claim_draw=True)}")
        check(board.is_game_over(claim_draw=True) or len(board.move_stack) >= MAX_PLIES,
              "game 1 ended early")
        # Game 2: Lull as Black on a clock with increment (`level`, `time`, `otim`).
        clock = {chess.WHITE: 20.0, chess.BLACK: 20.0}
        board = chess.Board()
        game = object()
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < MAX_PLIES:
            if board.turn == chess.BLACK:
                limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                           black_clock=clock[chess.BLACK],
                                           white_inc=0.1, black_inc=0.1)
                move = engine_move(engine, board, limit, game=game)
                if move is None:
                    break
            else:
                move = rng.choice(list(board.legal_moves))
            board.push(move)
        print(f"game 2: {len(board.move_stack)} plies, {board.result(claim_draw=True)}")
        check(board.is_game_over(claim_draw=True) or len(board.move_stack) >= MAX_PLIES,
              "game 2 ended early")
    # Game 3: Lull against Lull, White pondering (`hard`) and posting its thinking.
    with chess.engine.SimpleEngine.popen_xboard(LULL) as white, \
            chess.engine.SimpleEngine.popen_xboard(LULL) as black:
        board = chess.Board()
        infos = 0
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 80:
            if board.turn == chess.WHITE:
                result = white.play(board, chess.engine.Limit(time=0.03), ponder=True,
                                    info=chess.engine.INFO_ALL, game="self")
                if "score" in result.info:
                    infos += 1
            else:
                result = black.play(board, chess.engine.Limit(time=0.03), game="self")
            if result.move is None:
                check(board.is_game_over(claim_draw=True), "no move in a live position")
                break
            check(result.move in board.legal_moves, f"illegal move {result.move}")
            board.push(result.move)
        print(f"game 3: {len(board.move_stack)} plies, {board.result(claim_draw=True)}")
        check(infos > 0, "no thinking output while playing with post")
        white.ping()
        black.ping()


def analysis():
    with chess.engine.SimpleEngine.popen_xboard(LULL) as engine:
        engine.ping()
        print("ping: pong")
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        check(info.get("depth", 0) >= 5, f"depth {info}")
        check("score" in info, f"no score {info}")
        pv = info.get("pv", [])
        check(len(pv) > 0, f"no pv {info}")
        b = board.copy()
        for m in pv:
            check(m in b.legal_moves, f"pv move {m} illegal")
            b.push(m)
        print(f"analyse: depth {info['depth']} score {info['score'].white()} pv {len(pv)} moves")
        # Open-ended analysis, stopped by the client.
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 4:
                    break
        check(analysis.info.get("depth", 0) >= 4, f"analysis depth {analysis.info}")
        print(f"analysis: stopped at depth {analysis.info['depth']}")
        # Mate in one: the score says so.
        mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=4))
        check(info["score"].white() == chess.engine.Mate(1), f"mate score {info['score']}")
        check(info["pv"][0] == chess.Move.from_uci("a1a8"), f"mate pv {info['pv']}")
        print("mate: Mate(1) a1a8")
        # The engine still plays after analysing.
        move = engine_move(engine, board, chess.engine.Limit(depth=3))
        print(f"play after analysis: {move}")
        engine.ping()


def setup():
    with chess.engine.SimpleEngine.popen_xboard(LULL) as engine:
        # setboard: a position where a queen is hanging to a knight fork.
        fen = "r3k2r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R3K2R w KQkq - 0 12"
        board = chess.Board(fen)
        move = engine_move(engine, board, chess.engine.Limit(depth=4), game="fen")
        check(move == chess.Move.from_uci("c3d5"), f"setboard: expected Nxd5, got {move}")
        print(f"setboard: {move}")
        # Take-backs: python-chess sends `undo`/`remove` when the new board shares a prefix
        # with the engine's.
        game = object()
        board = chess.Board()
        for uci in ["e2e4", "e7e5", "g1f3"]:
            board.push_uci(uci)
        first = engine_move(engine, board, chess.engine.Limit(depth=3), game=game)
        # Same game, another reply at ply 4: one `undo`, then the new move.
        other = next(m for m in board.legal_moves if m != first)
        board.push(other)
        move = engine_move(engine, board, chess.engine.Limit(depth=3), game=game)
        print(f"undo: {first} taken back, {other} played, engine answered {move}")
        board.push(move)
        # Two plies back (`remove`): drop White's last move and Black's reply.
        board.pop()
        board.pop()
        alt = next(m for m in board.legal_moves if m != other)
        board.push(alt)
        move = engine_move(engine, board, chess.engine.Limit(depth=3), game=game)
        print(f"remove: engine answered {move}")
        # Options: memory (Hash), cores (Threads) and one of the table.
        engine.configure({"memory": 32, "cores": 2, "QSearchChecks": 1, "QSearchTT": False})
        board = chess.Board()
        move = engine_move(engine, board, chess.engine.Limit(depth=4), game="options")
        print(f"options: {move}")
        engine.ping()


def chess960():
    rng = random.Random(960)
    with chess.engine.SimpleEngine.popen_xboard(LULL) as engine:
        # Castling comes in as O-O / O-O-O: the random side castles whenever it can (Black
        # can at once in the first position, rooks on b and g).
        castled = 0
        starts = [
            chess.Board("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", chess960=True),
            chess.Board.from_chess960_pos(4),
            chess.Board.from_chess960_pos(959),
        ]
        for n, board in enumerate(starts):
            engine_color = chess.WHITE if n % 2 == 0 else chess.BLACK
            while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 60:
                if board.turn == engine_color:
                    move = engine_move(engine, board, chess.engine.Limit(time=0.03),
                                       game=("960", n))
                    if move is None:
                        break
                else:
                    moves = list(board.legal_moves)
                    castles = [m for m in moves if board.is_castling(m)]
                    move = rng.choice(castles or moves)
                if board.is_castling(move):
                    castled += 1
                board.push(move)
            print(f"chess960 game {n}: {len(board.move_stack)} plies, "
                  f"{board.result(claim_draw=True)}")
        check(castled > 0, "nobody castled")
        print(f"chess960: {castled} castlings")
        # Castling goes out as O-O: here the king on f1 castles with the h1 rook and mates
        # (Kg1, Rf1#); nothing else mates at once.
        board = chess.Board("4rkr1/4p1p1/8/8/8/8/8/5K1R w H - 0 1", chess960=True)
        info = engine.analyse(board, chess.engine.Limit(depth=3), game="960 mate")
        check(board.is_castling(info["pv"][0]), f"analysis pv {info['pv']}")
        move = engine_move(engine, board, chess.engine.Limit(depth=3), game="960 mate")
        check(board.is_castling(move), f"expected castling, got {move}")
        board.push(move)
        check(board.is_checkmate(), "castling did not mate")
        print(f"chess960 castling mate: {move}")


{"games": games, "analysis": analysis, "setup": setup, "chess960": chess960}[SCENARIO]()
print("ALL OK")
