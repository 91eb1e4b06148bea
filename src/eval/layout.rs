//! The tunable weights as one flat vector of (midgame, endgame) pairs: where each table of
//! [`super::weights`] starts in it, the vector itself ([`WEIGHTS`]), and the Rust source of
//! the weights file, written ([`render_weights`]) and read back ([`parse_weights`]) by the
//! tuner.

use super::weights as w;
use super::S;

/// Start of the material values (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: usize = 0;
/// Start of the piece-square tables, `[piece][square]` (White's view, a1 = 0).
pub const PST: usize = MATERIAL + 6;
/// Start of the knight mobility table, by reachable squares (0..=8).
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Start of the bishop mobility table (0..=13).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Start of the rook mobility table (0..=14).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Start of the queen mobility table (0..=27).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// The bishop pair.
pub const BISHOP_PAIR: usize = MOBILITY_QUEEN + 28;
/// A doubled pawn.
pub const DOUBLED_PAWN: usize = BISHOP_PAIR + 1;
/// An isolated pawn.
pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
/// Start of the passed-pawn table, by relative rank.
pub const PASSED_PAWN: usize = ISOLATED_PAWN + 1;
/// Start of the passed-pawn king-distance table, `[rank][distance + 7]`.
pub const PASSED_KING_DISTANCE: usize = PASSED_PAWN + 8;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = PASSED_KING_DISTANCE + 8 * 15;
/// A rook on a file without own pawns.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// A pawn shielding the king.
pub const KING_SHIELD: usize = ROOK_SEMI_OPEN_FILE + 1;
/// An enemy piece attacked by a pawn.
pub const THREAT_BY_PAWN: usize = KING_SHIELD + 1;
/// The side to move's bonus.
pub const TEMPO: usize = THREAT_BY_PAWN + 1;
/// Number of weights.
pub const NUM_WEIGHTS: usize = TEMPO + 1;

/// The shape of a weights table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One weight: `S`.
    Scalar,
    /// A row: `[S; n]`.
    Vector(usize),
    /// Rows: `[[S; columns]; rows]`.
    Matrix(usize, usize),
}

impl Shape {
    /// Number of weights.
    pub const fn count(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n,
            Shape::Matrix(r, c) => r * c,
        }
    }

    /// The Rust type.
    fn rust_type(self) -> String {
        match self {
            Shape::Scalar => "S".to_string(),
            Shape::Vector(n) => format!("[S; {n}]"),
            Shape::Matrix(r, c) => format!("[[S; {c}]; {r}]"),
        }
    }
}

/// One table of the weights file.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// The constant's name.
    pub name: &'static str,
    /// Its doc comment (one line).
    pub doc: &'static str,
    /// Its shape.
    pub shape: Shape,
    /// Where it starts in the flat vector.
    pub offset: usize,
    /// Labels of the rows of a matrix (written as comments).
    pub rows: &'static [&'static str],
}

/// Row labels of the piece tables.
const PIECES: &[&str] = &["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];
/// Row labels of the rank tables.
const RANKS: &[&str] = &[
    "Rank 1", "Rank 2", "Rank 3", "Rank 4", "Rank 5", "Rank 6", "Rank 7", "Rank 8",
];

/// The tables in file order (which is also the flat order).
pub const TABLES: &[Table] = &[
    Table {
        name: "MATERIAL",
        doc: "Material: pawn, knight, bishop, rook, queen, king.",
        shape: Shape::Vector(6),
        offset: MATERIAL,
        rows: &[],
    },
    Table {
        name: "PST",
        doc: "Piece-square tables, added to the material: `[piece][square]`, White's view, a1 = 0, rank by rank.",
        shape: Shape::Matrix(6, 64),
        offset: PST,
        rows: PIECES,
    },
    Table {
        name: "MOBILITY_KNIGHT",
        doc: "Knight mobility by squares reachable (not own pieces, not attacked by enemy pawns).",
        shape: Shape::Vector(9),
        offset: MOBILITY_KNIGHT,
        rows: &[],
    },
    Table {
        name: "MOBILITY_BISHOP",
        doc: "Bishop mobility by squares reachable.",
        shape: Shape::Vector(14),
        offset: MOBILITY_BISHOP,
        rows: &[],
    },
    Table {
        name: "MOBILITY_ROOK",
        doc: "Rook mobility by squares reachable.",
        shape: Shape::Vector(15),
        offset: MOBILITY_ROOK,
        rows: &[],
    },
    Table {
        name: "MOBILITY_QUEEN",
        doc: "Queen mobility by squares reachable.",
        shape: Shape::Vector(28),
        offset: MOBILITY_QUEEN,
        rows: &[],
    },
    Table {
        name: "BISHOP_PAIR",
        doc: "The two bishops.",
        shape: Shape::Scalar,
        offset: BISHOP_PAIR,
        rows: &[],
    },
    Table {
        name: "DOUBLED_PAWN",
        doc: "Per doubled pawn (a pawn behind another of its colour on the file).",
        shape: Shape::Scalar,
        offset: DOUBLED_PAWN,
        rows: &[],
    },
    Table {
        name: "ISOLATED_PAWN",
        doc: "Per isolated pawn (no friendly pawn on an adjacent file).",
        shape: Shape::Scalar,
        offset: ISOLATED_PAWN,
        rows: &[],
    },
    Table {
        name: "PASSED_PAWN",
        doc: "Passed pawn by relative rank.",
        shape: Shape::Vector(8),
        offset: PASSED_PAWN,
        rows: &[],
    },
    Table {
        name: "PASSED_KING_DISTANCE",
        doc: "Passed pawn by relative rank and by the enemy king's distance to the square in front of it minus our king's: `[rank][distance + 7]`.",
        shape: Shape::Matrix(8, 15),
        offset: PASSED_KING_DISTANCE,
        rows: RANKS,
    },
    Table {
        name: "ROOK_OPEN_FILE",
        doc: "Rook on a file without pawns.",
        shape: Shape::Scalar,
        offset: ROOK_OPEN_FILE,
        rows: &[],
    },
    Table {
        name: "ROOK_SEMI_OPEN_FILE",
        doc: "Rook on a file without own pawns (but with enemy ones).",
        shape: Shape::Scalar,
        offset: ROOK_SEMI_OPEN_FILE,
        rows: &[],
    },
    Table {
        name: "KING_SHIELD",
        doc: "Per own pawn one or two ranks in front of the king, on its file or an adjacent one.",
        shape: Shape::Scalar,
        offset: KING_SHIELD,
        rows: &[],
    },
    Table {
        name: "THREAT_BY_PAWN",
        doc: "Per enemy piece (not pawn, not king) attacked by one of our pawns.",
        shape: Shape::Scalar,
        offset: THREAT_BY_PAWN,
        rows: &[],
    },
    Table {
        name: "TEMPO",
        doc: "The side to move's bonus (after the drawish scaling).",
        shape: Shape::Scalar,
        offset: TEMPO,
        rows: &[],
    },
];

/// Copies `src` into `dst` from `at` (a const-fn `copy_from_slice`).
const fn put<const N: usize>(
    mut dst: [S; NUM_WEIGHTS],
    at: usize,
    src: &[S; N],
) -> [S; NUM_WEIGHTS] {
    let mut i = 0;
    while i < N {
        dst[at + i] = src[i];
        i += 1;
    }
    dst
}

/// The tables of [`super::weights`] laid out flat.
const fn flatten() -> [S; NUM_WEIGHTS] {
    let mut v = [S(0, 0); NUM_WEIGHTS];
    v = put(v, MATERIAL, &w::MATERIAL);
    let mut p = 0;
    while p < 6 {
        v = put(v, PST + p * 64, &w::PST[p]);
        p += 1;
    }
    v = put(v, MOBILITY_KNIGHT, &w::MOBILITY_KNIGHT);
    v = put(v, MOBILITY_BISHOP, &w::MOBILITY_BISHOP);
    v = put(v, MOBILITY_ROOK, &w::MOBILITY_ROOK);
    v = put(v, MOBILITY_QUEEN, &w::MOBILITY_QUEEN);
    v = put(v, BISHOP_PAIR, &[w::BISHOP_PAIR]);
    v = put(v, DOUBLED_PAWN, &[w::DOUBLED_PAWN]);
    v = put(v, ISOLATED_PAWN, &[w::ISOLATED_PAWN]);
    v = put(v, PASSED_PAWN, &w::PASSED_PAWN);
    let mut r = 0;
    while r < 8 {
        v = put(
            v,
            PASSED_KING_DISTANCE + r * 15,
            &w::PASSED_KING_DISTANCE[r],
        );
        r += 1;
    }
    v = put(v, ROOK_OPEN_FILE, &[w::ROOK_OPEN_FILE]);
    v = put(v, ROOK_SEMI_OPEN_FILE, &[w::ROOK_SEMI_OPEN_FILE]);
    v = put(v, KING_SHIELD, &[w::KING_SHIELD]);
    v = put(v, THREAT_BY_PAWN, &[w::THREAT_BY_PAWN]);
    v = put(v, TEMPO, &[w::TEMPO]);
    v
}

/// Material plus piece-square table: what one piece on one square is worth, `[piece][square]`.
const fn piece_square() -> [[S; 64]; 6] {
    let mut t = [[S(0, 0); 64]; 6];
    let mut p = 0;
    while p < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = w::MATERIAL[p];
            let s = w::PST[p][sq];
            t[p][sq] = S(m.0 + s.0, m.1 + s.1);
            sq += 1;
        }
        p += 1;
    }
    t
}

/// The engine's weights, flat.
pub static WEIGHTS: [S; NUM_WEIGHTS] = flatten();
/// Material plus piece-square value, `[piece][square]` (one lookup per piece in the engine).
pub static PIECE_SQUARE: [[S; 64]; 6] = piece_square();

/// The name of the flat weight `index`, e.g. `PST[1][27]` or `BISHOP_PAIR`.
pub fn weight_name(index: usize) -> String {
    for t in TABLES {
        if index >= t.offset && index < t.offset + t.shape.count() {
            let i = index - t.offset;
            return match t.shape {
                Shape::Scalar => t.name.to_string(),
                Shape::Vector(_) => format!("{}[{i}]", t.name),
                Shape::Matrix(_, c) => format!("{}[{}][{}]", t.name, i / c, i % c),
            };
        }
    }
    format!("#{index}")
}

/// One weight as the file writes it, aligned.
fn cell(s: S) -> String {
    format!("S({:>4}, {:>4})", s.0, s.1)
}

/// Writes `values` (eight per line) indented by `indent` spaces.
fn write_row(out: &mut String, values: &[S], indent: usize) {
    for chunk in values.chunks(8) {
        out.push_str(&" ".repeat(indent));
        let cells: Vec<String> = chunk.iter().map(|&s| cell(s)).collect();
        out.push_str(&cells.join(", "));
        out.push_str(",\n");
    }
}

/// The Rust source of a weights file holding `weights` (flat, [`NUM_WEIGHTS`] of them):
/// the text of `src/eval/weights.rs`. `note` is added to the module documentation (e.g. where
/// the weights come from).
pub fn render_weights(weights: &[S], note: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The evaluation weights: (midgame, endgame) centipawns, written by `lull tune`\n",
    );
    out.push_str("//! (`lull tune DATA -o src/eval/weights.rs`); edit by hand or re-tune.\n");
    for line in note.lines() {
        out.push_str("//!");
        if !line.is_empty() {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    out.push_str("\nuse super::S;\n");
    for t in TABLES {
        let values = &weights[t.offset..t.offset + t.shape.count()];
        out.push_str(&format!("\n/// {}\n", t.doc));
        out.push_str(&format!("pub const {}: {} = ", t.name, t.shape.rust_type()));
        match t.shape {
            Shape::Scalar => out.push_str(&format!("S({}, {});\n", values[0].0, values[0].1)),
            Shape::Vector(_) => {
                out.push_str("[\n");
                write_row(&mut out, values, 4);
                out.push_str("];\n");
            }
            Shape::Matrix(r, c) => {
                out.push_str("[\n");
                for row in 0..r {
                    if let Some(label) = t.rows.get(row) {
                        out.push_str(&format!("    // {label}\n"));
                    }
                    out.push_str("    [\n");
                    write_row(&mut out, &values[row * c..(row + 1) * c], 8);
                    out.push_str("    ],\n");
                }
                out.push_str("];\n");
            }
        }
    }
    out
}

/// Reads the weights back from the Rust source of a weights file (as [`render_weights`]
/// writes it; comments and layout are free): every table must be there with its number of
/// `S(mg, eg)` values.
pub fn parse_weights(text: &str) -> Result<Vec<S>, String> {
    // 1. Comments out, so that doc text cannot be mistaken for values.
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut weights = vec![S(0, 0); NUM_WEIGHTS];
    for t in TABLES {
        // 2. The item: from `const NAME:` to its `;`.
        let key = format!("const {}:", t.name);
        let start = code
            .find(&key)
            .ok_or_else(|| format!("no table {}", t.name))?;
        let body = &code[start + key.len()..];
        let eq = body
            .find('=')
            .ok_or_else(|| format!("{}: no '='", t.name))?;
        let end = body[eq..]
            .find(';')
            .ok_or_else(|| format!("{}: no ';'", t.name))?;
        let values =
            parse_cells(&body[eq + 1..eq + end]).map_err(|e| format!("{}: {e}", t.name))?;
        // 3. As many values as the table has.
        if values.len() != t.shape.count() {
            return Err(format!(
                "{}: {} values, expected {}",
                t.name,
                values.len(),
                t.shape.count()
            ));
        }
        weights[t.offset..t.offset + values.len()].copy_from_slice(&values);
    }
    Ok(weights)
}

/// The `S(mg, eg)` values of an initialiser, in order.
fn parse_cells(text: &str) -> Result<Vec<S>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("S(") {
        let after = &rest[i + 2..];
        let close = after.find(')').ok_or_else(|| "unclosed 'S('".to_string())?;
        let inner = &after[..close];
        let mut parts = inner.split(',').map(str::trim);
        let mut number = || -> Result<i32, String> {
            let p = parts.next().unwrap_or("");
            p.parse::<i32>()
                .map_err(|_| format!("'{p}' in 'S({inner})' is not an integer"))
        };
        let (mg, eg) = (number()?, number()?);
        if parts.next().is_some() {
            return Err(format!("'S({inner})' has more than two values"));
        }
        out.push(S(mg, eg));
        rest = &after[close + 1..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_tile_the_flat_vector() {
        let mut next = 0;
        for t in TABLES {
            assert_eq!(t.offset, next, "{}", t.name);
            next += t.shape.count();
        }
        assert_eq!(next, NUM_WEIGHTS);
        assert_eq!(weight_name(PST + 64 + 27), "PST[1][27]");
        assert_eq!(weight_name(TEMPO), "TEMPO");
    }

    #[test]
    fn the_weights_file_is_the_writers_output() {
        // The source file is exactly what the tuner writes for the engine's weights, and it
        // reads back to them.
        let text = include_str!("weights.rs");
        assert_eq!(parse_weights(text).unwrap(), WEIGHTS.to_vec());
        let note_end = text.find("\nuse super::S;").unwrap();
        let note: String = text[..note_end]
            .lines()
            .skip(2)
            .map(|l| l.strip_prefix("//!").unwrap_or(l).trim_start())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(render_weights(&WEIGHTS, &note), text);
    }

    #[test]
    fn rendered_weights_parse_back() {
        let mut w = WEIGHTS.to_vec();
        for (i, s) in w.iter_mut().enumerate() {
            *s = S(s.0 - 7 * i as i32 % 13, s.1 + (i as i32 % 5) - 2);
        }
        let text = render_weights(&w, "A test.\nSecond line.");
        assert_eq!(parse_weights(&text).unwrap(), w);
        // A table missing or short is an error, not a silent zero.
        assert!(parse_weights(&text.replace("const TEMPO:", "const TEMP:")).is_err());
        let short = text.replace("pub const TEMPO: S = S(", "pub const TEMPO: S = [");
        assert!(parse_weights(&short).is_err());
        assert!(parse_weights("").is_err());
    }
}
