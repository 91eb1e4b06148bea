#!/usr/bin/env python3
"""Compares a network's centipawns with the hand-crafted evaluation's and with the search
scores of training data (docs/nnue.md, generation 1).

    scripts/eval_scale.py LULL DATA.txt [--net FILE] [--every K] [--count N]

DATA.txt is `lull datagen` text (`<FEN> | <result> | <score, White's view>`); every K-th line
is taken, N lines at most. Each position is evaluated twice through the UCI `eval` command
(`Use NNUE=false`, then the network: the embedded one, or `--net FILE`). Positions where
either side says more than 1000 cp are left out. Prints the mean absolute values, the
least-squares slopes (network on hand-crafted, network on search, hand-crafted on search) and
the correlations with the search scores. Python 3.10+, no other dependency.
"""

import argparse
import statistics as st
import subprocess


def slope(x, y):
    mx, my = st.mean(x), st.mean(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lull")
    ap.add_argument("data")
    ap.add_argument("--net", help="a .nnue file (default: the embedded network)")
    ap.add_argument("--every", type=int, default=2500)
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()

    rows = []
    with open(args.data) as f:
        for i, line in enumerate(f, 1):
            if i % args.every == 0:
                fen, _result, score = (p.strip() for p in line.split("|"))
                rows.append((fen, float(score)))
                if len(rows) >= args.count:
                    break
    cmds = ["uci", "setoption name Use NNUE value false"]
    cmds += [c for fen, _ in rows for c in (f"position fen {fen}", "eval")]
    if args.net:
        cmds.append(f"setoption name EvalFile value {args.net}")
    cmds.append("setoption name Use NNUE value true")
    cmds += [c for fen, _ in rows for c in (f"position fen {fen}", "eval")]
    cmds.append("quit")
    out = subprocess.run([args.lull], input="\n".join(cmds) + "\n",
                         capture_output=True, text=True, check=True).stdout
    evals = [int(l.split()[3]) for l in out.splitlines() if l.startswith("info string eval")]
    if len(evals) != 2 * len(rows):
        raise SystemExit(f"expected {2 * len(rows)} eval lines, got {len(evals)}:\n{out[-2000:]}")
    n = len(rows)
    hce, net = evals[:n], evals[n:]
    # The data's scores are White's view; `eval` answers for the side to move.
    search = [s if fen.split()[1] == "w" else -s for fen, s in rows]
    kept = [(h, e, s) for h, e, s in zip(hce, net, search) if abs(h) < 1000 and abs(e) < 1000 and abs(s) < 1000]
    H, E, S = (list(c) for c in zip(*kept))
    print(f"positions {len(kept)} of {n}")
    print(f"mean |cp|: hand-crafted {st.mean(map(abs, H)):.1f}, network {st.mean(map(abs, E)):.1f}, search {st.mean(map(abs, S)):.1f}")
    print(f"slope network ~ hand-crafted {slope(H, E):.3f}; network ~ search {slope(S, E):.3f}; hand-crafted ~ search {slope(S, H):.3f}")
    print(f"correlation with the search: network {st.correlation(E, S):.3f}, hand-crafted {st.correlation(H, S):.3f}")


if __name__ == "__main__":
    main()
