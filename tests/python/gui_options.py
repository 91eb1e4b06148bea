"""python-chess sets the options GUIs and lichess-bot send, and each one acts.

Usage: gui_options.py <lull binary> <check>   with check one of: configure, wdl, analyse,
strength, currmove.
Every check raises (exit status 1) with a message when Lull does something wrong; python-chess
itself refuses an option the engine does not announce (`configure` raises).
"""

import sys
import time

import chess
import chess.engine

ENGINE = sys.argv[1]
CHECK = sys.argv[2]
MIDDLEGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def fail(msg):
    raise SystemExit(f"FAIL: {msg}")


def open_engine(options=None):
    engine = chess.engine.SimpleEngine.popen_uci([ENGINE, "uci"], timeout=30)
    engine.configure({"Hash": 8, "Threads": 1, **(options or {})})
    return engine


def check_configure():
    # The new options and the old ones, each accepted by python-chess's configure().
    new = [
        {"UCI_LimitStrength": True},
        {"Skill Level": 3},
        {"UCI_ShowWDL": True},
        {"UCI_AnalyseMode": True},
        {"Statistics": False},
    ]
    old = [{"TacticalMode": True}, {"QSearchChecks": 1}, {"Move Overhead": 50}, {"OwnBook": False}]
    with open_engine() as engine:
        for name in ["UCI_LimitStrength", "UCI_Elo", "Skill Level", "UCI_ShowWDL",
                     "UCI_AnalyseMode", "Statistics"]:
            if name not in engine.options:
                fail(f"{name} is not announced")
        elo = engine.options["UCI_Elo"]
        if not (elo.min < elo.max and elo.default == elo.max):
            fail(f"UCI_Elo range {elo.min}..{elo.max} default {elo.default}")
        skill = engine.options["Skill Level"]
        if (skill.min, skill.max, skill.default) != (0, 20, 20):
            fail(f"Skill Level {skill.min}..{skill.max} default {skill.default}")
        # An Elo in the middle of the measured range.
        new.append({"UCI_LimitStrength": True, "UCI_Elo": (elo.min + elo.max) // 2})
        for options in new + old:
            engine.configure(options)
            result = engine.play(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=3))
            if result.move not in chess.Board(MIDDLEGAME).legal_moves:
                fail(f"illegal move {result.move} with {options}")
    print(f"configure ok: {len(new)} new and {len(old)} old option sets")


def check_wdl():
    positions = [
        "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1",  # three queens up
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",  # a queen down
        chess.STARTING_FEN,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",  # a rook down
        "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # a knight up
    ]
    seen = []
    with open_engine({"UCI_ShowWDL": True}) as engine:
        for fen in positions:
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=6))
            if "wdl" not in info:
                fail(f"no wdl in {info}")
            wdl = info["wdl"].relative
            if wdl.total() != 1000:
                fail(f"wdl {wdl} sums to {wdl.total()}")
            score = info["score"].relative.score(mate_score=100000)
            seen.append((score, wdl.wins, wdl.losses, fen))
    seen.sort()
    for (s1, w1, l1, f1), (s2, w2, l2, f2) in zip(seen, seen[1:]):
        if not (w1 <= w2 and l1 >= l2):
            fail(f"wdl does not move with the score: {s1} {w1}/{l1} ({f1}), {s2} {w2}/{l2} ({f2})")
    if not (seen[0][2] > 900 and seen[-1][1] > 900):
        fail(f"a queen down or three queens up should be decided: {seen}")
    with open_engine() as engine:
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=4))
        if "wdl" in info:
            fail("wdl shown without UCI_ShowWDL")
    print(f"wdl ok: {[(s, w, l) for s, w, l, _ in seen]}")


def nodes_at_depth(options, fen, depth, analyse):
    with open_engine(options) as engine:
        board = chess.Board(fen)
        if analyse:
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
        else:
            info = engine.play(board, chess.engine.Limit(depth=depth), info=chess.engine.INFO_ALL).info
        return info["nodes"]


def check_analyse():
    # python-chess turns UCI_AnalyseMode on for analyse() (unless configured) and off for
    # play(): the same depth in analysis searches the tree TacticalMode searches.
    fen = "r1b1k1nr/1p1n1pbp/p1pQ2p1/4p3/2B1PB2/2q2N2/P1P2PPP/1R1R2K1 w kq - 0 1"
    depth = 9
    play = nodes_at_depth({}, fen, depth, analyse=False)
    analysis = nodes_at_depth({}, fen, depth, analyse=True)
    explicit = nodes_at_depth({"UCI_AnalyseMode": True}, fen, depth, analyse=False)
    tactical = nodes_at_depth({"TacticalMode": True, "UCI_AnalyseMode": False}, fen, depth, analyse=False)
    if not (analysis == explicit == tactical):
        fail(f"analysis {analysis}, UCI_AnalyseMode {explicit}, TacticalMode {tactical} nodes differ")
    if analysis == play:
        fail(f"analysis mode searched the play tree ({play} nodes)")
    print(f"analyse ok: play {play} nodes, analysis = TacticalMode {analysis} nodes at depth {depth}")


def check_strength():
    # Lower levels search less: nodes of a move at depth 12 (the level's node budget stops
    # the search first), and a move is always legal and never walks into a mate.
    fen = MIDDLEGAME
    nodes = {}
    for level in [0, 5, 10, 15, 20]:
        nodes[level] = nodes_at_depth({"Skill Level": level}, fen, 12, analyse=False)
    levels = sorted(nodes)
    for a, b in zip(levels, levels[1:]):
        if not nodes[a] < nodes[b]:
            fail(f"level {a} searched {nodes[a]} nodes, level {b} {nodes[b]}")
    with open_engine() as engine:
        elo = engine.options["UCI_Elo"]
        elo_min, elo_max = elo.min, elo.max
    # Within the measured range (the option's): the weakest and the strongest level.
    low = nodes_at_depth({"UCI_LimitStrength": True, "UCI_Elo": elo_min}, fen, 12, analyse=False)
    high = nodes_at_depth({"UCI_LimitStrength": True, "UCI_Elo": elo_max}, fen, 12, analyse=False)
    if not low < high:
        fail(f"UCI_Elo {elo_min} {low} nodes, {elo_max} {high}")
    # Mate in one on the board: every level sees it (no random blunder past a mate).
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    for level in [0, 10]:
        with open_engine({"Skill Level": level}) as engine:
            move = engine.play(mate, chess.engine.Limit(depth=12)).move
            board = mate.copy()
            board.push(move)
            if not board.is_checkmate():
                fail(f"level {level} missed the mate in one ({move})")
    print(f"strength ok: nodes by level {nodes}, UCI_Elo {elo_min} {low}, {elo_max} {high}")


def check_currmove():
    with open_engine() as engine:
        board = chess.Board(MIDDLEGAME)
        with engine.analysis(board, chess.engine.Limit(time=0.3)) as analysis:
            early = [info for info in analysis if "currmove" in info]
        if early:
            fail(f"currmove within the first second: {early[0]}")
        # An endless search, stopped at the first currmove line after the first second
        # (or after 20 s): one root move can take more than a second on a slow machine,
        # so a fixed 2.5 s search may end before the next root move is reported.
        current = []
        started = time.monotonic()
        with engine.analysis(board) as analysis:
            for info in analysis:
                if "currmove" in info:
                    current.append(info)
                    break
                if time.monotonic() - started > 20:
                    break
        if not current:
            fail("no currmove in a 20 s search")
        for info in current:
            if info["currmove"] not in board.legal_moves:
                fail(f"currmove {info['currmove']} is not legal")
            if not 1 <= info.get("currmovenumber", 0) <= board.legal_moves.count():
                fail(f"currmovenumber {info.get('currmovenumber')}")
    print(f"currmove ok: {len(current)} currmove lines")


{
    "configure": check_configure,
    "wdl": check_wdl,
    "analyse": check_analyse,
    "strength": check_strength,
    "currmove": check_currmove,
}[CHECK]()
