//! The stored matches of the report: game results read from the tag pairs of PGN files (one
//! file per variant, the variant against the default settings, games paired by the major
//! number of their `Round` tag as `match.py` writes them), and the Elo of the variant with a
//! 95 % interval, from the games (trinomial) and from the game pairs (pentanomial). The
//! statistics are those of `match.py`: the normal approximation of the mean score, mapped to
//! logistic Elo, with Wilson's interval when every sample scored the same.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

/// The 97.5 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo of a mean score (±infinity at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// An Elo difference with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloInterval {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
    /// The mean score the estimate comes from.
    pub score: f64,
}

impl EloInterval {
    /// The estimate as text, `-209.9 [-296.5, -141.9]` (`-inf`/`+inf` for open ends).
    pub fn text(&self) -> String {
        format!(
            "{} [{}, {}]",
            elo_text(self.elo),
            elo_text(self.lo),
            elo_text(self.hi)
        )
    }
}

/// An Elo value as text with sign and one decimal (`+12.3`, `-inf`).
pub fn elo_text(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if e.abs() < 0.05 {
        // No "-0.0".
        "+0.0".to_string()
    } else {
        format!("{e:+.1}")
    }
}

/// Elo with its interval from a distribution of sample scores (`(score, probability)`) over
/// `n` samples; `None` without samples.
pub fn elo_interval(pdf: &[(f64, f64)], n: u64) -> Option<EloInterval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let m: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var: f64 = pdf.iter().map(|(a, p)| p * (a - m) * (a - m)).sum();
    let se = (var / n).sqrt();
    let (mut lo, mut hi) = (
        (m - Z95 * se).clamp(0.0, 1.0),
        (m + Z95 * se).clamp(0.0, 1.0),
    );
    if var <= 1e-15 {
        // Every sample scored the same (10-0): Wilson's interval instead of a zero width.
        let z2 = Z95 * Z95 / n;
        let c = (m + z2 / 2.0) / (1.0 + z2);
        let h = Z95 * (m * (1.0 - m) / n + z2 / (4.0 * n)).sqrt() / (1.0 + z2);
        lo = if m <= 0.0 { 0.0 } else { (c - h).max(0.0) };
        hi = if m >= 1.0 { 1.0 } else { (c + h).min(1.0) };
    }
    Some(EloInterval {
        elo: elo_from_score(m),
        lo: elo_from_score(lo),
        hi: elo_from_score(hi),
        score: m,
    })
}

/// Elo from wins, draws and losses, each game a sample.
pub fn trinomial(w: u64, d: u64, l: u64) -> Option<EloInterval> {
    let n = w + d + l;
    if n == 0 {
        return None;
    }
    let f = |c: u64| c as f64 / n as f64;
    elo_interval(&[(0.0, f(l)), (0.5, f(d)), (1.0, f(w))], n)
}

/// Elo from game-pair counts `[LL, LD, WL+DD, WD, WW]` (pairs scoring 0, ½, 1, 1½, 2).
pub fn pentanomial(penta: [u64; 5]) -> Option<EloInterval> {
    let n: u64 = penta.iter().sum();
    if n == 0 {
        return None;
    }
    let pdf: Vec<(f64, f64)> = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c as f64 / n as f64))
        .collect();
    elo_interval(&pdf, n)
}

/// One stored match: the variant (engine A) against the default.
#[derive(Clone, Debug, Serialize)]
pub struct MatchResult {
    /// The file's name without `.pgn` (the variant's key).
    pub name: String,
    /// The engine that is not `default` (from the White/Black tags).
    pub variant: String,
    /// The time control tag of the first game.
    pub time_control: String,
    /// Wins, draws and losses of the variant.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the variant.
    pub losses: u64,
    /// Pairs by the variant's points: `[LL, LD, WL+DD, WD, WW]`.
    pub penta: [u64; 5],
    /// Games that are not part of a complete pair.
    pub unpaired: u64,
    /// Elo of the variant from the games.
    pub trinomial: Option<EloInterval>,
    /// Elo of the variant from the complete pairs.
    pub pentanomial: Option<EloInterval>,
}

impl MatchResult {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Complete game pairs.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }
}

/// The tags of one game that the results need.
#[derive(Clone, Debug, Default)]
struct GameTags {
    white: String,
    black: String,
    result: String,
    round: String,
    time_control: String,
}

/// The tag pairs of every game in a PGN text (the movetext is not read: the result is the
/// `Result` tag). A game starts at its first tag after movetext.
fn read_games(text: &str) -> Vec<GameTags> {
    let mut games = Vec::new();
    let mut cur: Option<GameTags> = None;
    let mut in_tags = false;
    for line in text.lines() {
        let line = line.trim();
        if let Some((name, value)) = tag_pair(line) {
            if !in_tags {
                games.extend(cur.take());
                cur = Some(GameTags::default());
                in_tags = true;
            }
            let g = cur.get_or_insert_with(GameTags::default);
            match name {
                "White" => g.white = value,
                "Black" => g.black = value,
                "Result" => g.result = value,
                "Round" => g.round = value,
                "TimeControl" => g.time_control = value,
                _ => {}
            }
        } else if !line.is_empty() {
            in_tags = false;
        }
    }
    games.extend(cur);
    games
}

/// `[Name "value"]` as (name, value), with `\"` and `\\` unescaped.
fn tag_pair(line: &str) -> Option<(&str, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, quoted.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// The variant's points in a game (0, 1 or 2 half-points), `None` for an unfinished game or
/// one without the variant.
fn variant_half_points(g: &GameTags, variant: &str) -> Option<u64> {
    let white = match g.result.as_str() {
        "1-0" => 2,
        "1/2-1/2" => 1,
        "0-1" => 0,
        _ => return None,
    };
    if g.white == variant {
        Some(white)
    } else if g.black == variant {
        Some(2 - white)
    } else {
        None
    }
}

/// Reads the results of one match from its PGN text; `name` is the variant's key. The
/// variant is the player other than `default`; an error when there is none or no finished
/// game.
pub fn parse_match(name: &str, text: &str) -> Result<MatchResult, String> {
    let games = read_games(text);
    let variant = games
        .iter()
        .flat_map(|g| [&g.white, &g.black])
        .find(|p| !p.is_empty() && p.as_str() != "default")
        .cloned()
        .ok_or_else(|| format!("{name}: no game of a variant against 'default'"))?;
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut by_pair: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for g in &games {
        let Some(points) = variant_half_points(g, &variant) else {
            continue;
        };
        match points {
            2 => wins += 1,
            1 => draws += 1,
            _ => losses += 1,
        }
        let pair = g.round.split('.').next().unwrap_or("").to_string();
        by_pair.entry(pair).or_default().push(points);
    }
    if wins + draws + losses == 0 {
        return Err(format!("{name}: no finished game"));
    }
    let mut penta = [0u64; 5];
    let mut unpaired = 0;
    for points in by_pair.values() {
        if points.len() == 2 {
            penta[(points[0] + points[1]) as usize] += 1;
        } else {
            unpaired += points.len() as u64;
        }
    }
    Ok(MatchResult {
        name: name.to_string(),
        variant,
        time_control: games
            .first()
            .map(|g| g.time_control.clone())
            .unwrap_or_default(),
        wins,
        draws,
        losses,
        penta,
        unpaired,
        trinomial: trinomial(wins, draws, losses),
        pentanomial: pentanomial(penta),
    })
}

/// Reads every `*.pgn` of a directory, sorted by name. A missing directory is no match; a
/// file that cannot be read or holds no result is an error.
pub fn read_matches(dir: &Path) -> Result<Vec<MatchResult>, String> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text =
            std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let name = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push(parse_match(&name, &text)?);
    }
    Ok(out)
}

/// The file beside the PGNs of a match folder that says which build played them
/// (`play_matches.sh` writes it; `key: value` lines, `#` comments).
pub const PLAYED_BY_FILE: &str = "played_by.yaml";

/// Which build played the games of a match folder, as its [`PLAYED_BY_FILE`] says.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PlayedBy {
    /// The build (a commit or version).
    pub build: Option<String>,
    /// Its bench signature (`lull bench`), which names the search and the embedded network.
    pub bench: Option<u64>,
    /// The evaluation both engines played with (and which network).
    pub evaluation: Option<String>,
    /// The program that ran the games.
    pub runner: Option<String>,
    /// Anything else the file says (how the build was found, when).
    pub note: Option<String>,
}

/// Reads `key: value` lines (a YAML mapping of plain scalars); unknown keys are kept in
/// the note. An error names the line that is not `key: value` or a bench that is no count.
pub fn parse_played_by(text: &str) -> Result<PlayedBy, String> {
    let mut p = PlayedBy::default();
    let mut extra = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("line {}: not 'key: value': {line}", n + 1))?;
        let value = value.trim().trim_matches('"').to_string();
        match key.trim() {
            "build" => p.build = Some(value),
            "bench" => {
                p.bench =
                    Some(value.parse().map_err(|_| {
                        format!("line {}: bench '{value}' is not a node count", n + 1)
                    })?)
            }
            "evaluation" => p.evaluation = Some(value),
            "runner" => p.runner = Some(value),
            "note" => extra.insert(0, value),
            other => extra.push(format!("{other}: {value}")),
        }
    }
    if !extra.is_empty() {
        p.note = Some(extra.join("; "));
    }
    Ok(p)
}

/// The [`PLAYED_BY_FILE`] of a match folder: `None` when there is none.
pub fn read_played_by(dir: &Path) -> Result<Option<PlayedBy>, String> {
    let path = dir.join(PLAYED_BY_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_played_by(&text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn played_by_reads_its_keys_and_refuses_a_bad_bench() {
        let p = parse_played_by(
            "# who played\nbuild: dc0b7a5\nbench: 6042437\nevaluation: network lull-4.nnue \
             (Use NNUE=true)\nrunner: match.py\nnote: from git history\ndate: 2026-11-27\n",
        )
        .unwrap();
        assert_eq!(p.build.as_deref(), Some("dc0b7a5"));
        assert_eq!(p.bench, Some(6_042_437));
        assert_eq!(
            p.evaluation.as_deref(),
            Some("network lull-4.nnue (Use NNUE=true)")
        );
        assert_eq!(
            p.note.as_deref(),
            Some("from git history; date: 2026-11-27")
        );
        assert!(parse_played_by("bench: many\n")
            .unwrap_err()
            .contains("line 1: bench 'many'"));
        assert!(parse_played_by("just words\n").is_err());
        assert_eq!(parse_played_by("").unwrap(), PlayedBy::default());
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn elo_matches_match_py_on_its_own_summaries() {
        // match.py: W/D/L 18/10/72 -> -209.9 [-296.5, -141.9] (trinomial);
        // LL 26, LD 8, WL+DD 12, WD 2, WW 2 -> -209.9 [-298.9, -140.5] (pentanomial).
        let t = trinomial(18, 10, 72).unwrap();
        assert!(close(t.elo, -209.9) && close(t.lo, -296.5) && close(t.hi, -141.9));
        let p = pentanomial([26, 8, 12, 2, 2]).unwrap();
        assert!(close(p.elo, -209.9) && close(p.lo, -298.9) && close(p.hi, -140.5));
        // W/D/L 19/8/73 -> [-298.2, -140.9]; LL 27, LD 4, DD 17, WD 0, WW 2 -> [-297.2, -141.5].
        let t = trinomial(19, 8, 73).unwrap();
        assert!(close(t.lo, -298.2) && close(t.hi, -140.9), "{t:?}");
        let p = pentanomial([27, 4, 17, 0, 2]).unwrap();
        assert!(close(p.lo, -297.2) && close(p.hi, -141.5), "{p:?}");
        assert_eq!(p.text(), "-209.9 [-297.2, -141.5]");
    }

    #[test]
    fn even_and_one_sided_scores() {
        let e = trinomial(10, 0, 10).unwrap();
        assert!(e.elo.abs() < 1e-9 && e.lo < 0.0 && e.hi > 0.0 && close(e.lo, -e.hi));
        // 10-0: Wilson's interval, open at the top.
        let w = trinomial(10, 0, 0).unwrap();
        assert!(w.elo.is_infinite() && w.hi.is_infinite() && w.lo.is_finite() && w.lo > 0.0);
        assert_eq!(elo_text(w.hi), "+inf");
        assert!(trinomial(0, 0, 0).is_none() && pentanomial([0; 5]).is_none());
        assert!(close(elo_from_score(0.75), 190.8));
    }

    const PGN: &str = r#"[Event "x"]
[Round "1.1"]
[White "v"]
[Black "default"]
[Result "1-0"]
[TimeControl "movetime 30 ms"]

1. e4 e5 { a comment [with brackets] } 1-0

[Event "x"]
[Round "1.2"]
[White "default"]
[Black "v"]
[Result "1/2-1/2"]

1. e4 1/2-1/2
[Round "2.1"]
[White "v"]
[Black "default"]
[Result "0-1"]

1. d4 0-1

[Round "2.2"]
[White "default"]
[Black "v"]
[Result "0-1"]

1. d4 0-1

[Round "3.1"]
[White "v"]
[Black "default"]
[Result "*"]

*

[Round "4.1"]
[White "default"]
[Black "v"]
[Result "1-0"]

1. c4 1-0
"#;

    #[test]
    fn a_pgn_gives_the_variants_games_and_pairs() {
        let m = parse_match("v-file", PGN).unwrap();
        assert_eq!(m.variant, "v");
        assert_eq!((m.wins, m.draws, m.losses), (2, 1, 2));
        // Pair 1: 2 + 1 half-points (WD); pair 2: 0 + 2 (WL); pair 4 alone; 3 unfinished.
        assert_eq!(m.penta, [0, 0, 1, 1, 0]);
        assert_eq!((m.games(), m.pairs(), m.unpaired), (5, 2, 1));
        assert_eq!(m.time_control, "movetime 30 ms");
        assert!(parse_match("x", "").is_err());
        assert!(parse_match("x", "[White \"default\"]\n[Black \"v\"]\n[Result \"*\"]\n").is_err());
    }
}
