#!/usr/bin/env python3
"""Reliability measurements of a Lull binary (docs/reliability.md):

  stop     latency of `stop` under `go infinite` (Threads 4 or --threads, Hash 1024): the time from writing
           `stop` to reading `bestmove`, over --trials searches of 0.5-2 s each
  memory   resident memory (VmRSS, and the peak VmHWM, from /proc/PID/status) at Hash 16, 256
           and 1024 with Threads 1 and 4: after `isready`, and after a 2 s search
  quit     `quit` in the middle of a `go infinite` (Threads 4, Hash 1024): the time from
           writing `quit` to the process's exit, and its exit status

Usage: scripts/measure_reliability.py --engine PATH [--trials 20] [--quit-trials 10]
                                      [--json OUT] [stop] [memory] [quit]
Prints a Markdown table per measurement (all three by default). Linux only (/proc).
"""

import argparse
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

POSITIONS = [
    "startpos",
    "fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


class Lull:
    def __init__(self, path, options):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 30)
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.ready(60)

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.strip()))
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def wait_for(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                raise SystemExit(f"no '{prefix}' within {timeout} s")
            if line is None:
                raise SystemExit(f"the engine exited while waiting for '{prefix}'")
            if line.startswith(prefix):
                return stamp, line

    def ready(self, timeout=10):
        self.send("isready")
        self.wait_for("readyok", timeout)

    def status(self):
        """(VmRSS, VmHWM) in MiB."""
        values = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0]) / 1024
        return values["VmRSS"], values["VmHWM"]

    def close(self):
        if self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def measure_stop(engine, trials, rng, threads):
    lull = Lull(engine, [("Threads", threads), ("Hash", 1024)])
    latencies = []
    for i in range(trials):
        lull.send(f"position {POSITIONS[i % len(POSITIONS)]}")
        lull.send("go infinite")
        time.sleep(rng.uniform(0.5, 2.0))
        sent = lull.send("stop")
        stamp, _ = lull.wait_for("bestmove", 30)
        latencies.append((stamp - sent) * 1000)
        lull.ready()
    lull.close()
    return {
        "trials": trials,
        "median_ms": round(statistics.median(latencies), 2),
        "max_ms": round(max(latencies), 2),
        "all_ms": [round(x, 2) for x in latencies],
    }


def measure_memory(engine):
    rows = []
    for threads in (1, 4):
        for hash_mb in (16, 256, 1024):
            lull = Lull(engine, [("Threads", threads), ("Hash", hash_mb)])
            rss_ready, hwm_ready = lull.status()
            lull.send(f"position {POSITIONS[1]}")
            lull.send("go movetime 2000")
            lull.wait_for("bestmove", 60)
            lull.ready()
            rss_search, hwm_search = lull.status()
            lull.close()
            rows.append({
                "hash_mb": hash_mb, "threads": threads,
                "rss_ready_mb": round(rss_ready, 1), "rss_search_mb": round(rss_search, 1),
                "hwm_mb": round(max(hwm_ready, hwm_search), 1),
                "budget_mb": hash_mb + 32,
                "within_budget": max(hwm_ready, hwm_search) <= hash_mb + 32,
            })
    return rows


def measure_quit(engine, trials, rng, threads):
    times = []
    codes = []
    for i in range(trials):
        lull = Lull(engine, [("Threads", threads), ("Hash", 1024)])
        lull.send(f"position {POSITIONS[i % len(POSITIONS)]}")
        lull.send("go infinite")
        lull.wait_for("info depth", 30)
        time.sleep(rng.uniform(0.3, 1.0))
        sent = lull.send("quit")
        try:
            code = lull.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            lull.proc.kill()
            code = "killed after 30 s"
        times.append((time.monotonic() - sent) * 1000)
        codes.append(code)
    return {
        "trials": trials,
        "median_ms": round(statistics.median(times), 2),
        "max_ms": round(max(times), 2),
        "exit_codes": sorted(set(codes), key=str),
        "all_ms": [round(x, 2) for x in times],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", required=True)
    p.add_argument("--trials", type=int, default=20, help="stop trials (default 20)")
    p.add_argument("--quit-trials", type=int, default=10, help="quit trials (default 10)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=4, help="Threads for stop and quit (default 4)")
    p.add_argument("--json", help="also write the results to this JSON file")
    p.add_argument("what", nargs="*", help="stop, memory and/or quit (default: all three)")
    args = p.parse_args()
    what = args.what or ["stop", "memory", "quit"]
    for w in what:
        if w not in ("stop", "memory", "quit"):
            p.error(f"unknown measurement '{w}' (stop, memory, quit)")
    if not os.access(args.engine, os.X_OK):
        p.error(f"engine '{args.engine}' is not an executable file")
    rng = random.Random(args.seed)
    results = {"engine": os.path.abspath(args.engine), "command": " ".join(sys.argv),
               "cpus": os.cpu_count(), "loadavg_before": os.getloadavg()}
    if "stop" in what:
        r = results["stop"] = measure_stop(args.engine, args.trials, rng, args.threads)
        print(f"| stop under go infinite (Threads {args.threads}, Hash 1024) | trials | median "
              "| max |")
        print("|---|---|---|---|")
        print(f"| `stop` → `bestmove` | {r['trials']} | {r['median_ms']} ms | {r['max_ms']} ms |")
        print()
    if "memory" in what:
        rows = results["memory"] = measure_memory(args.engine)
        print("| Hash | Threads | RSS after isready | RSS after 2 s search | peak (VmHWM) "
              "| budget (Hash + 32) |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['hash_mb']} MiB | {r['threads']} | {r['rss_ready_mb']} MiB "
                  f"| {r['rss_search_mb']} MiB | {r['hwm_mb']} MiB | {r['budget_mb']} MiB"
                  f"{'' if r['within_budget'] else ' (over)'} |")
        print()
    if "quit" in what:
        r = results["quit"] = measure_quit(args.engine, args.quit_trials, rng, args.threads)
        print(f"| quit during go infinite (Threads {args.threads}, Hash 1024) | trials | median "
              "| max | exit status |")
        print("|---|---|---|---|---|")
        print(f"| `quit` → process exit | {r['trials']} | {r['median_ms']} ms | {r['max_ms']} ms "
              f"| {', '.join(map(str, r['exit_codes']))} |")
        print()
    results["loadavg_after"] = os.getloadavg()
    print(f"load average before {results['loadavg_before']}, after {results['loadavg_after']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
