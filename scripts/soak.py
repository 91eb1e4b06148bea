#!/usr/bin/env python3
"""Soak: Lull plays itself at a fast clock and every engine fault is classified exactly.

Usage:
  scripts/soak.py --engine PATH [--games N] [--concurrency C] [--tc 1+0.01]
                  [--pgn F] [--summary F] [--book EPD] [--seed S]

Each game draws, for each side, a configuration: Threads 1 or 2, Ponder on or off (on means
real pondering: `go ponder` on the predicted move, then `ponderhit` or `stop`), MultiPV 1 or 3,
Hash 16 or 64. The engine is driven by a minimal UCI loop of this script's own (a process, a
reader thread, a deadline on every wait), so that each fault has exactly one kind:

  crash    the process exited or closed its output
  illegal  a bestmove (or ponder move) that is not legal in its position, `0000` or `(none)`
           with legal moves, or a bestmove while pondering before `ponderhit`/`stop`
  time     the clock exceeded by more than the margin (100 ms)
  hang     no bestmove within the clock left + the hang timeout, no bestmove within the hang
           timeout after `stop`, or no `readyok` within 5 s (no `uciok` within 30 s of the start)

The faulting side loses the game; the game is written to the PGN with a `Fault` tag, both
engines are killed and restarted, and the soak goes on. Games are appended to the PGN as they
finish, so a killed soak loses only the games in progress; started again with the same PGN,
the soak counts the games already there and plays on until the PGN holds `--games` games.
The summary (JSON) is rewritten after every game. Exit status 1 if any game in the PGN has a
fault, 0 otherwise, 2 on bad arguments.
"""

import argparse
import datetime
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections import deque

import chess
import chess.pgn

FAULT_KINDS = ("crash", "illegal", "time", "hang")
TIME_MARGIN = 0.100  # seconds over the clock before a move counts as a time loss
READY_TIMEOUT = 5.0  # seconds for `readyok` (--ready-timeout)
STARTUP_TIMEOUT = 30.0  # seconds from starting the process to `uciok`
EXTRA_OPTIONS = []  # (name, value) from --option, set on both sides after the drawn config


class Fault(Exception):
    """An engine fault of one of FAULT_KINDS."""

    def __init__(self, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Config:
    """One side's engine settings for one game."""

    def __init__(self, threads, ponder, multipv, hash_mb):
        self.threads = threads
        self.ponder = ponder
        self.multipv = multipv
        self.hash_mb = hash_mb

    @staticmethod
    def draw(rng):
        return Config(rng.choice((1, 2)), rng.choice((False, True)), rng.choice((1, 3)),
                      rng.choice((16, 64)))

    @property
    def name(self):
        # PGN-safe: letters, digits and dashes only.
        ponder = "ponder" if self.ponder else "noponder"
        return f"t{self.threads}-{ponder}-mpv{self.multipv}-h{self.hash_mb}"

    def options(self):
        return [("Threads", self.threads), ("Hash", self.hash_mb), ("MultiPV", self.multipv),
                ("Ponder", "true" if self.ponder else "false")]


class Engine:
    """One engine process: lines in through stdin, lines out through a reader thread that
    stamps each line with the time it was read. Every wait has a deadline."""

    def __init__(self, path, args):
        self.path = path
        self.args = args
        self.proc = None
        self.start()

    def start(self):
        self.lines = queue.Queue()
        self.stderr_tail = deque(maxlen=20)
        self.proc = subprocess.Popen([self.path] + self.args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        threading.Thread(target=self._read_out, args=(self.proc, self.lines),
                         daemon=True).start()
        threading.Thread(target=self._read_err, args=(self.proc, self.stderr_tail),
                         daemon=True).start()
        self.pondering = None  # (board of the ponder position) while a ponder search runs
        self.send("uci")
        self.expect("uciok", STARTUP_TIMEOUT)

    @staticmethod
    def _read_out(proc, lines):
        for line in proc.stdout:
            lines.put((time.monotonic(), line.rstrip("\r\n")))
        lines.put((time.monotonic(), None))

    @staticmethod
    def _read_err(proc, tail):
        for line in proc.stderr:
            tail.append(line.rstrip("\r\n"))

    def crash_detail(self, what):
        code = self.proc.poll()
        if code is None:
            try:
                code = self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = "still running"
        err = " | ".join(self.stderr_tail)
        return f"{what}; exit status {code}" + (f"; stderr: {err}" if err else "")

    def send(self, line):
        """Writes one line; returns the time it was written."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise Fault("crash", self.crash_detail(f"cannot write '{line}'"))
        return time.monotonic()

    def next_line(self, deadline, waiting_for):
        """The next line and the time it was read; a hang fault at the deadline, a crash
        fault at end of output."""
        left = deadline - time.monotonic()
        try:
            stamp, line = self.lines.get(timeout=max(left, 0.0))
        except queue.Empty:
            raise Fault("hang", f"no {waiting_for} within the time allowed")
        if line is None:
            self.lines.put((stamp, None))  # stays at end of output
            raise Fault("crash", self.crash_detail(f"output closed while waiting for {waiting_for}"))
        return stamp, line

    def expect(self, word, timeout):
        deadline = time.monotonic() + timeout
        while True:
            _, line = self.next_line(deadline, f"'{word}' ({timeout:g} s)")
            if line.strip() == word:
                return

    def isready(self):
        self.send("isready")
        self.expect("readyok", READY_TIMEOUT)

    def bestmove(self, deadline, what):
        """Reads up to the next `bestmove` line. Returns (time read, move, ponder move, the
        last `info` line before it)."""
        last_info = ""
        while True:
            stamp, line = self.next_line(deadline, what)
            words = line.split()
            if not words:
                continue
            if words[0] == "info" and "time" in words:
                last_info = line
            elif words[0] == "bestmove":
                move = words[1] if len(words) > 1 else ""
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                return stamp, move, ponder, last_info

    def stray_bestmove(self):
        """A `bestmove` already printed (a pondering engine must not print one before
        `ponderhit` or `stop`); None if there is none. Crash at end of output."""
        while True:
            try:
                stamp, line = self.lines.get_nowait()
            except queue.Empty:
                return None
            if line is None:
                self.lines.put((stamp, None))
                raise Fault("crash", self.crash_detail("output closed while pondering"))
            if line.startswith("bestmove"):
                return line

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    f.close()
                except (OSError, ValueError):
                    pass

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=2)
        except (Fault, subprocess.TimeoutExpired):
            pass
        self.kill()


def parse_tc(text):
    try:
        base, inc = text.split("+")
        base, inc = float(base), float(inc)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time control '{text}' is not BASE+INC in seconds")
    if base <= 0 or inc < 0:
        raise argparse.ArgumentTypeError(f"time control '{text}' needs BASE > 0 and INC >= 0")
    return base, inc


def load_book(path):
    """FENs of an EPD book (the first four fields of each line + 0 1); [] if none."""
    if not path or not os.path.exists(path):
        return []
    fens = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                fens.append(" ".join(fields[:4]) + " 0 1")
    return fens


def opening(book, rng):
    """A start board: a random book position, or the start position with 8 random plies."""
    for _ in range(100):
        if book:
            try:
                board = chess.Board(rng.choice(book))
            except ValueError:
                continue
            if board.is_valid() and not board.is_game_over():
                return board
            continue
        board = chess.Board()
        for _ in range(8):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return chess.Board(board.fen())
    return chess.Board()


def uci_position(board):
    """`position fen <start> moves …` for a board whose move stack starts at its root."""
    root = board.root()
    cmd = f"position fen {root.fen()}"
    if board.move_stack:
        cmd += " moves " + " ".join(m.uci() for m in board.move_stack)
    return cmd


def info_time(line):
    """The `time` field (ms) of an info line, or None."""
    words = line.split()
    if "time" in words:
        i = words.index("time")
        if i + 1 < len(words) and words[i + 1].isdigit():
            return int(words[i + 1])
    return None


def parse_move(board, text, what):
    """The legal move `text` in `board`, or an illegal fault."""
    if text in ("0000", "(none)", ""):
        raise Fault("illegal", f"{what} '{text}' with legal moves in {board.fen()}")
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        raise Fault("illegal", f"{what} '{text}' is not a move, in {board.fen()}")
    if move not in board.legal_moves:
        raise Fault("illegal", f"{what} {text} is not legal in {board.fen()}")
    return move


class Game:
    """One game between two engines (white, black), each with its own configuration."""

    def __init__(self, engines, configs, board, tc, hang_timeout, max_plies):
        self.engines = engines  # {chess.WHITE: Engine, chess.BLACK: Engine}
        self.configs = configs
        self.board = board
        self.base, self.inc = tc
        self.clock = {chess.WHITE: self.base, chess.BLACK: self.base}
        self.hang_timeout = hang_timeout
        self.max_plies = max_plies
        self.result = "*"
        self.termination = "unterminated"
        self.fault = None  # (kind, color, detail)
        self.move_times = []
        self.ponder_hits = 0
        # per move of the game: (seconds used, clock after, g(o)/h(it), engine's info time ms)
        self.log = []
        self.ponder_misses = 0

    def go_args(self):
        ms = {c: max(int(self.clock[c] * 1000), 1) for c in (chess.WHITE, chess.BLACK)}
        inc = int(self.inc * 1000)
        return (f"wtime {ms[chess.WHITE]} btime {ms[chess.BLACK]} winc {inc} binc {inc}")

    def setup(self):
        for color in (chess.WHITE, chess.BLACK):
            engine = self.engines[color]
            try:
                for name, value in self.configs[color].options() + EXTRA_OPTIONS:
                    engine.send(f"setoption name {name} value {value}")
                engine.send("ucinewgame")
                engine.isready()
            except Fault as fault:
                raise SideFault(color, fault)

    def history(self, color):
        """The last moves of `color`: used ms/clock ms after/how started/engine's time ms."""
        first = 0 if self.board.root().turn == color else 1
        mine = self.log[first::2][-6:]
        return " ".join(f"{u * 1000:.0f}/{c * 1000:.0f}{k}{'' if t is None else '/' + str(t)}"
                        for u, c, k, t in mine)

    def stop_ponder(self, color):
        """Ends a ponder search that missed (or a game that ended): `stop`, its bestmove must
        come within the hang timeout and be legal in the ponder position."""
        engine = self.engines[color]
        ponder_board = engine.pondering
        engine.pondering = None
        engine.send("stop")
        deadline = time.monotonic() + self.hang_timeout
        _, move, _, _ = engine.bestmove(deadline, "bestmove after stop of a ponder search")
        if not ponder_board.is_game_over():
            parse_move(ponder_board, move, "bestmove after stop (ponder position)")

    def think(self, color, last_move):
        """The side to move thinks (after a ponderhit, or a fresh `go`); returns its move."""
        engine = self.engines[color]
        remaining = self.clock[color]
        sent = None
        hit = False
        if engine.pondering is not None:
            stray = engine.stray_bestmove()
            if stray is not None:
                raise Fault("illegal", f"'{stray}' while pondering, before ponderhit or stop")
            if engine.pondering.peek() == last_move:
                engine.pondering = None
                self.ponder_hits += 1
                hit = True
                sent = engine.send("ponderhit")
            else:
                self.ponder_misses += 1
                self.stop_ponder(color)
        if sent is None:
            engine.isready()
            engine.send(uci_position(self.board))
            sent = engine.send(f"go {self.go_args()}")
        deadline = sent + max(remaining, 0.0) + self.hang_timeout
        stamp, text, ponder, last_info = engine.bestmove(
            deadline, f"bestmove with {remaining:.3f} s on the clock")
        elapsed = stamp - sent
        self.move_times.append(elapsed)
        if elapsed > remaining + TIME_MARGIN:
            raise Fault("time", f"{elapsed * 1000:.0f} ms used with {remaining * 1000:.0f} ms "
                                f"on the clock at ply {len(self.board.move_stack)} "
                                f"({'ponderhit' if hit else 'go'}); clocks and move times "
                                f"of this side: {self.history(color)}; "
                                f"last info: {last_info[:160]}")
        self.clock[color] = remaining - elapsed + self.inc
        self.log.append((elapsed, self.clock[color], "h" if hit else "g",
                         info_time(last_info)))
        move = parse_move(self.board, text, "bestmove")
        ponder_move = None
        if ponder is not None:
            after = self.board.copy()
            after.push(move)
            if not after.is_game_over():
                ponder_move = parse_move(after, ponder, "ponder move")
        return move, ponder_move

    def start_ponder(self, color, ponder_move):
        """After its move, a side with Ponder on searches the predicted reply."""
        engine = self.engines[color]
        board = self.board.copy()
        board.push(ponder_move)
        if board.is_game_over(claim_draw=True):
            return
        engine.send(uci_position(board))
        engine.send(f"go ponder {self.go_args()}")
        engine.pondering = board
        # `isready` must be answered while searching.
        engine.isready()

    def play(self, stopping):
        """Plays to the end, or until `stopping` is set (the game is then left unfinished)."""
        try:
            self.setup()
            last_move = None
            while True:
                if self.board.is_game_over(claim_draw=True):
                    outcome = self.board.outcome(claim_draw=True)
                    self.result = outcome.result()
                    self.termination = "normal"
                    break
                if stopping.is_set():
                    return
                if len(self.board.move_stack) >= self.max_plies:
                    self.result = "1/2-1/2"
                    self.termination = "adjudication"
                    break
                color = self.board.turn
                try:
                    move, ponder_move = self.think(color, last_move)
                except Fault as fault:
                    raise SideFault(color, fault)
                self.board.push(move)
                last_move = move
                if self.configs[color].ponder and ponder_move is not None:
                    try:
                        self.start_ponder(color, ponder_move)
                    except Fault as fault:
                        raise SideFault(color, fault)
            for color in (chess.WHITE, chess.BLACK):
                if self.engines[color].pondering is not None:
                    try:
                        self.stop_ponder(color)
                    except Fault as fault:
                        raise SideFault(color, fault)
        except SideFault as sf:
            self.fault = (sf.fault.kind, sf.color, sf.fault.detail)
            self.result = "0-1" if sf.color == chess.WHITE else "1-0"
            self.termination = {"time": "time forfeit", "illegal": "rules infraction"}.get(
                sf.fault.kind, "abandoned")


class SideFault(Exception):
    def __init__(self, color, fault):
        super().__init__(str(fault))
        self.color = color
        self.fault = fault


def pgn_safe(text):
    return "".join(c if c.isprintable() and c not in '"\\[]{}' else " " for c in text)[:400]


class Soak:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.book = load_book(args.book)
        self.started = time.monotonic()
        self.started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        self.stats = {
            "games": 0,
            "results": {"1-0": 0, "1/2-1/2": 0, "0-1": 0, "*": 0},
            "faults": {k: 0 for k in FAULT_KINDS},
            "terminations": {},
            "configs": {},
            "fault_games": [],
        }
        self.played_now = 0
        self.ponder = {"hits": 0, "misses": 0}
        self.previous_runs = []
        self.next_round = 0
        self.resume()

    def count(self, headers):
        s = self.stats
        s["games"] += 1
        result = headers.get("Result", "*")
        s["results"][result] = s["results"].get(result, 0) + 1
        term = headers.get("Termination", "unterminated")
        s["terminations"][term] = s["terminations"].get(term, 0) + 1
        points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}.get(result)
        for side, idx in (("White", 0), ("Black", 1)):
            name = headers.get(f"{side}Config", "?")
            c = s["configs"].setdefault(name, {"games": 0, "wins": 0, "draws": 0, "losses": 0})
            c["games"] += 1
            if points is not None:
                p = points[idx]
                c["wins" if p == 1.0 else "draws" if p == 0.5 else "losses"] += 1
        kind = headers.get("Fault", "none")
        if kind in s["faults"]:
            s["faults"][kind] += 1
            s["fault_games"].append({
                "round": headers.get("Round"), "kind": kind,
                "side": headers.get("FaultSide"), "detail": headers.get("FaultDetail"),
                "white": headers.get("WhiteConfig"), "black": headers.get("BlackConfig"),
                "fen": headers.get("FEN")})

    def resume(self):
        """Counts the games already in the PGN and the runs already in the summary."""
        if os.path.exists(self.args.pgn):
            with open(self.args.pgn, encoding="utf-8") as f:
                while True:
                    headers = chess.pgn.read_headers(f)
                    if headers is None:
                        break
                    self.count(headers)
                    try:
                        self.next_round = max(self.next_round, int(headers.get("Round", "0")))
                    except ValueError:
                        pass
            if os.path.exists(self.args.summary):
                try:
                    with open(self.args.summary, encoding="utf-8") as f:
                        self.previous_runs = json.load(f).get("runs", [])
                except (OSError, ValueError):
                    self.previous_runs = []

    def summary(self):
        s = self.stats
        wall = time.monotonic() - self.started
        this_run = {"started": self.started_at, "command": " ".join(sys.argv),
                    "games_played": self.played_now, "wall_time_s": round(wall, 1),
                    "ponderhits": self.ponder["hits"], "ponder_misses": self.ponder["misses"]}
        runs = self.previous_runs + [this_run]
        configs = {}
        for name, c in sorted(s["configs"].items()):
            score = (c["wins"] + 0.5 * c["draws"]) / c["games"] if c["games"] else 0.0
            configs[name] = dict(c, score=round(score, 4))
        return {
            "engine": os.path.abspath(self.args.engine),
            "tc": self.args.tc_text,
            "pgn": os.path.abspath(self.args.pgn),
            "games": s["games"],
            "white_wins": s["results"].get("1-0", 0),
            "draws": s["results"].get("1/2-1/2", 0),
            "black_wins": s["results"].get("0-1", 0),
            "unfinished": s["results"].get("*", 0),
            "faults": s["faults"],
            "fault_total": sum(s["faults"].values()),
            "fault_games": s["fault_games"],
            "terminations": s["terminations"],
            "configs": configs,
            "wall_time_s": round(wall, 1),
            "total_wall_time_s": round(sum(r.get("wall_time_s", 0) for r in runs), 1),
            "command": " ".join(sys.argv),
            "runs": runs,
        }

    def write_summary(self):
        tmp = self.args.summary + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.summary(), f, indent=2)
            f.write("\n")
        os.replace(tmp, self.args.summary)

    def record(self, game, round_no, configs):
        pgn = chess.pgn.Game.from_board(game.board)
        for node, (used, clock, how, _) in zip(pgn.mainline(), game.log):
            node.set_emt(used)
            node.set_clock(max(clock, 0.0))
            if how == "h":
                node.comment += " ponderhit"
        h = pgn.headers
        h["Event"] = "Lull soak"
        h["Site"] = "local"
        h["Date"] = datetime.date.today().strftime("%Y.%m.%d")
        h["Round"] = str(round_no)
        h["White"] = f"Lull {configs[chess.WHITE].name}"
        h["Black"] = f"Lull {configs[chess.BLACK].name}"
        h["Result"] = game.result
        h["WhiteConfig"] = configs[chess.WHITE].name
        h["BlackConfig"] = configs[chess.BLACK].name
        h["TimeControl"] = self.args.tc_text
        h["Termination"] = game.termination
        h["PlyCount"] = str(len(game.board.move_stack))
        if game.move_times:
            h["MaxMoveMs"] = str(round(max(game.move_times) * 1000))
        if game.fault is not None:
            kind, color, detail = game.fault
            h["Fault"] = kind
            h["FaultSide"] = "white" if color == chess.WHITE else "black" if color == chess.BLACK else "?"
            h["FaultDetail"] = pgn_safe(detail)
        else:
            h["Fault"] = "none"
        text = str(pgn) + "\n\n"
        with self.lock:
            with open(self.args.pgn, "a", encoding="utf-8") as f:
                f.write(text)
            self.count(h)
            self.played_now += 1
            self.ponder["hits"] += game.ponder_hits
            self.ponder["misses"] += game.ponder_misses
            self.write_summary()
            if game.fault is not None:
                print(f"game {round_no}: {game.fault[0]} fault: {game.fault[2]}", flush=True)
            elif self.args.verbose:
                print(f"game {round_no}: {game.result} {game.termination}", flush=True)

    def claim_round(self):
        with self.lock:
            if self.stopping.is_set():
                return None
            if self.stats["games"] + self.in_flight >= self.args.games:
                return None
            self.next_round += 1
            self.in_flight += 1
            return self.next_round

    def worker(self):
        engine_args = self.args.engine_arg or []
        engines = None
        try:
            while True:
                round_no = self.claim_round()
                if round_no is None:
                    return
                rng = random.Random(f"{self.args.seed}-{round_no}")
                configs = {chess.WHITE: Config.draw(rng), chess.BLACK: Config.draw(rng)}
                board = opening(self.book, rng)
                try:
                    if engines is None:
                        engines = {c: Engine(self.args.engine, engine_args)
                                   for c in (chess.WHITE, chess.BLACK)}
                    game = Game(engines, configs, board, self.args.tc, self.args.hang_timeout,
                                self.args.max_plies)
                    game.play(self.stopping)
                except Fault as fault:
                    # An engine that cannot even start counts against the game's white side.
                    game = Game({}, configs, board, self.args.tc, 0, 0)
                    game.fault = (fault.kind, None, "engine start: " + fault.detail)
                    game.termination = "abandoned"
                if game.fault is not None:
                    for e in (engines or {}).values():
                        e.kill()
                    engines = None
                if self.stopping.is_set():
                    return  # a game cut short by a stop signal is not recorded
                self.record(game, round_no, configs)
                with self.lock:
                    self.in_flight -= 1
        finally:
            for e in (engines or {}).values():
                e.quit()

    def run(self):
        self.in_flight = 0
        if self.stats["games"] >= self.args.games:
            print(f"{self.args.pgn} already holds {self.stats['games']} games", flush=True)
        workers = [threading.Thread(target=self.worker, daemon=True)
                   for _ in range(self.args.concurrency)]
        for w in workers:
            w.start()
        for w in workers:
            while w.is_alive():
                w.join(timeout=0.5)
        with self.lock:
            self.write_summary()
        s = self.summary()
        print(f"{s['games']} games (+{self.played_now} now): +{s['white_wins']} ={s['draws']} "
              f"-{s['black_wins']} (white's view); faults: "
              + ", ".join(f"{k} {v}" for k, v in s["faults"].items())
              + f"; {s['wall_time_s']} s", flush=True)
        return 1 if s["fault_total"] else 0


def main():
    global READY_TIMEOUT  # noqa: PLW0603 (set once from the command line)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", required=True, help="the engine binary (Lull)")
    p.add_argument("--engine-arg", action="append", help="an argument for the engine (repeatable)")
    p.add_argument("--games", "-n", type=int, default=100,
                   help="play until the PGN holds this many games (default 100)")
    p.add_argument("--concurrency", "-c", type=int, default=1, help="games in parallel")
    p.add_argument("--tc", default="1+0.01", help="BASE+INC in seconds (default 1+0.01)")
    p.add_argument("--pgn", default="soak.pgn", help="PGN to append the games to")
    p.add_argument("--summary", default=None, help="JSON summary (default: PGN name + .json)")
    p.add_argument("--book", default="",
                   help="EPD opening book, e.g. UHO_4060_v4.epd of the UHO books (default: "
                        "the start position with 8 random plies)")
    p.add_argument("--seed", default="1", help="seed of openings and configurations")
    p.add_argument("--hang-timeout", type=float, default=10.0,
                   help="seconds past the clock (or after stop) before a missing bestmove "
                        "is a hang (default 10)")
    p.add_argument("--ready-timeout", type=float, default=READY_TIMEOUT,
                   help="seconds for readyok before a hang (default 5)")
    p.add_argument("--max-plies", type=int, default=600,
                   help="adjudicate a draw after this many plies (default 600)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an engine option for both sides, e.g. 'Move Overhead=100' (repeatable)")
    p.add_argument("--verbose", "-v", action="store_true", help="a line per game")
    args = p.parse_args()
    try:
        args.tc = parse_tc(args.tc)
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    READY_TIMEOUT = args.ready_timeout
    for opt in args.option:
        name, sep, value = opt.partition("=")
        if not sep or not name.strip():
            p.error(f"--option '{opt}' is not NAME=VALUE")
        EXTRA_OPTIONS.append((name.strip(), value.strip()))
    args.tc_text = f"{args.tc[0]:g}+{args.tc[1]:g}"
    if args.games < 0 or args.concurrency < 1 or args.hang_timeout <= 0 or args.max_plies < 1 \
            or args.ready_timeout <= 0:
        p.error("needs --games >= 0, --concurrency >= 1, --hang-timeout > 0, "
                "--ready-timeout > 0 and --max-plies >= 1")
    if not os.access(args.engine, os.X_OK):
        p.error(f"engine '{args.engine}' is not an executable file")
    if args.book and not os.path.exists(args.book):
        p.error(f"book '{args.book}' does not exist")
    if args.summary is None:
        args.summary = os.path.splitext(args.pgn)[0] + ".json"
    soak = Soak(args)

    def on_signal(signum, _frame):
        soak.stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sys.exit(soak.run())


if __name__ == "__main__":
    main()
