#!/usr/bin/env python3
"""The calibration of Lull's strength levels, from the tables of docs/strength-levels.md.

    python3 docs/strength-levels.py fit      # prints the "Levels" table from "Matches"
    python3 docs/strength-levels.py plot     # draws docs/img/strength-levels.svg

"Matches" holds each match: the level, the opponent, and the Elo of the level that the match
gives, with its 95 % interval (the opponent's Elo plus the measured difference). `fit` draws
a straight line through the matches of the limited levels (0-19) whose interval is closed,
each weighted by the inverse square of its interval's half-width, and prints the line's Elo
at each of those levels: the "Levels" table, which is `SKILL_LEVEL_ELO` in src/params.rs
(a test checks that they agree). `plot` draws every match as a point with its interval, one
colour per opponent, and the "Levels" mapping as a line. Python 3 alone, no plotting library.
"""
import re
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "plot"
SRC = "docs/strength-levels.md"
OUT = "docs/img/strength-levels.svg"


def table(text, heading):
    """The rows (lists of cells) of the first table after a heading line."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().startswith("#") and heading in l)
    rows = []
    for l in lines[start + 1:]:
        if l.startswith("#"):
            break
        if l.startswith("|"):
            cells = [c.strip() for c in l.strip().strip("|").split("|")]
            if set("".join(cells)) <= set("-: "):
                continue
            rows.append(cells)
        elif rows:
            break
    return rows[0], rows[1:]


def number(cell):
    return float(re.search(r"[-+]?\d+(\.\d+)?", cell.replace("\u2212", "-")).group(0))


def interval(cell):
    """'1693 [1549, 1837]' -> (1693, 1549, 1837); an open end is None."""
    m = re.match(r"\s*([-+]?\d+)\s*\[\s*([-+]?\d+|-inf)\s*,\s*([-+]?\d+|\+?inf)\s*\]", cell)
    if not m:
        raise ValueError(f"no 'Elo [lo, hi]' in {cell!r}")
    conv = lambda s: None if "inf" in s else float(s.replace("\u2212", "-"))
    return float(m.group(1)), conv(m.group(2)), conv(m.group(3))


text = open(SRC, encoding="utf-8").read()
mhead, matches = table(text, "Matches")
lhead, levels = table(text, "Levels")
col = {name: i for i, name in enumerate(mhead)}
points = []
for r in matches:
    level = number(r[col["level"]])
    opponent = r[col["opponent"]]
    try:
        elo, lo, hi = interval(r[col["Lull's Elo (95 %)"]])
    except ValueError:
        continue  # a bound only ("below 1954"): no point to draw
    points.append((level, opponent, elo, lo, hi))
mapping = [(number(r[0]), number(r[1])) for r in levels]

if MODE == "fit":
    # Weighted least squares, Elo = a + b * level, over the closed intervals of levels 0-19.
    data = []
    for level, _, elo, lo, hi in points:
        if level < 20 and lo is not None and hi is not None:
            sigma = (hi - lo) / (2 * 1.96)
            data.append((level, elo, 1 / sigma ** 2))
    sw = sum(w for _, _, w in data)
    mx = sum(w * x for x, _, w in data) / sw
    my = sum(w * y for _, y, w in data) / sw
    b = sum(w * (x - mx) * (y - my) for x, y, w in data) / sum(w * (x - mx) ** 2 for x, _, w in data)
    a = my - b * mx
    print(f"Elo = {a:.1f} + {b:.1f} x level ({len(data)} matches)")
    print("| level | Elo |")
    print("|---|---|")
    for level in sorted({x for x, _, _ in data}):
        print(f"| {level:g} | {round(a + b * level)} |")
    sys.exit(0)

W, H = 720, 460
L, R, T, B = 70, 200, 30, 55
all_elo = [p[2] for p in points] + [e for _, e in mapping]
all_elo += [x for p in points for x in p[3:] if x is not None]
ymin = int(min(all_elo) // 200 * 200)
ymax = int(-(-max(all_elo) // 200) * 200)
xmin, xmax = 0, 20


def px(level):
    return L + (level - xmin) / (xmax - xmin) * (W - L - R)


def py(elo):
    return T + (ymax - elo) / (ymax - ymin) * (H - T - B)


def family(opponent):
    """'Stockfish `UCI_Elo` 1350' -> 'Stockfish 15.1'; other names as they are."""
    if opponent.startswith("Stockfish"):
        return "Stockfish 15.1"
    return opponent.split(" (")[0]


COLOURS = ["#1f6fb4", "#d1495b", "#2a9d8f", "#8e6bbf"]
families = []
for p in points:
    fam = family(p[1])
    if fam not in families:
        families.append(fam)

out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
       f'font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{(L + W - R) / 2}" y="18" text-anchor="middle" font-size="14">'
       "Lull's Skill Level against measured Elo (Stockfish 15.1 UCI_Elo scale)</text>"]
for elo in range(ymin, ymax + 1, 200):
    y = py(elo)
    out.append(f'<line x1="{L}" x2="{W - R}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e6e6e6"/>')
    out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{elo}</text>')
for level in range(xmin, xmax + 1, 2):
    x = px(level)
    out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{H - B}" y2="{H - B + 5}" stroke="black"/>')
    out.append(f'<text x="{x:.1f}" y="{H - B + 18}" text-anchor="middle">{level}</text>')
out.append(f'<line x1="{L}" x2="{W - R}" y1="{H - B}" y2="{H - B}" stroke="black"/>')
out.append(f'<line x1="{L}" x2="{L}" y1="{T}" y2="{H - B}" stroke="black"/>')
out.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">Skill Level</text>')
out.append(f'<text transform="translate(18 {(T + H - B) / 2}) rotate(-90)" '
           'text-anchor="middle">Elo (95 % interval)</text>')
line = " ".join(f"{px(l):.1f},{py(e):.1f}" for l, e in mapping)
out.append(f'<polyline points="{line}" fill="none" stroke="#444" stroke-width="2"/>')
for i, (level, opponent, elo, lo, hi) in enumerate(points):
    fam = family(opponent)
    c = COLOURS[families.index(fam) % len(COLOURS)]
    # Several matches at one level sit side by side.
    same = [j for j, p in enumerate(points) if p[0] == level]
    x = px(level) + (same.index(i) - (len(same) - 1) / 2) * 7
    top = py(hi if hi is not None else ymax)
    bottom = py(lo if lo is not None else ymin)
    out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top:.1f}" y2="{bottom:.1f}" stroke="{c}"/>')
    out.append(f'<circle cx="{x:.1f}" cy="{py(elo):.1f}" r="4" fill="{c}"/>')
ly = T + 10
for i, fam in enumerate(families):
    c = COLOURS[i % len(COLOURS)]
    out.append(f'<circle cx="{W - R + 20}" cy="{ly}" r="4" fill="{c}"/>')
    out.append(f'<text x="{W - R + 30}" y="{ly + 4}">against {fam}</text>')
    ly += 20
out.append(f'<line x1="{W - R + 12}" x2="{W - R + 28}" y1="{ly}" y2="{ly}" stroke="#444" '
           'stroke-width="2"/>')
out.append(f'<text x="{W - R + 30}" y="{ly + 4}">UCI_Elo mapping</text>')
out.append("</svg>")
open(OUT, "w", encoding="utf-8").write("\n".join(out) + "\n")
print(f"wrote {OUT}: {len(points)} matches, {len(mapping)} levels")
