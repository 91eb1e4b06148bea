//! What UCI shows of a search: the `info` lines of its reports, and `bestmove`.

use std::sync::Arc;

use crate::params::{MATE, MATE_BOUND};
use crate::position::{move_to_uci, Position};
use crate::protocol::say;
use crate::protocol::shown_line::{uci_move_line, ShownLine};
use crate::search::{shown_centipawns, ReportSink, ScoreBound, SearchReport, SearchResult};

/// `bestmove <move> [ponder <move>]`, or `bestmove (none)` when there is no legal move.
pub fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    match result.best_move {
        None => "bestmove (none)".to_string(),
        Some(best) => {
            let mut line = format!("bestmove {}", pos.move_to_uci(best));
            if let Some(ponder) = result.ponder_move {
                let mut after = pos.board().clone();
                after.play_unchecked(best);
                if after.is_legal(ponder) {
                    line.push_str(&format!(
                        " ponder {}",
                        move_to_uci(&after, ponder, pos.chess960())
                    ));
                }
            }
            line
        }
    }
}

/// `bestmove` with the first legal move (or `(none)`), when no search result is available,
/// after its `info depth 0 pv` line.
pub(super) fn fallback_bestmove(pos: &Position) -> String {
    match pos.legal_moves().first() {
        Some(&mv) => {
            say(&uci_move_line(pos, mv));
            format!("bestmove {}", pos.move_to_uci(mv))
        }
        None => "bestmove (none)".to_string(),
    }
}

/// Formats a score for UCI: `cp N` (a tablebase win as `cp 20000` less its plies, see
/// [`shown_centipawns`]) or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // Mated now (no legal move at the root) is "mate 0", as Stockfish writes it.
        match (MATE + score + 1) / 2 {
            0 => "mate 0".to_string(),
            n => format!("mate -{n}"),
        }
    } else {
        format!("cp {}", shown_centipawns(score))
    }
}

/// The `info` lines of a search report about `pos` (the searched position): one per line of
/// an iteration (`lowerbound` or `upperbound` after the score of a failed aspiration search,
/// and with `show_wdl` the model's `wdl W D L`), `info depth 0 score …` when there is no
/// legal move, `info depth D currmove M currmovenumber N` for the root move being searched.
pub fn info_lines(pos: &Position, report: &SearchReport, show_wdl: bool) -> Vec<String> {
    let material = crate::wdl::material(pos.board());
    let wdl = |score: i32| -> String {
        if show_wdl {
            let [w, d, l] = crate::wdl::MODEL.permille(score, material);
            format!(" wdl {w} {d} {l}")
        } else {
            String::new()
        }
    };
    let r = match report {
        SearchReport::NoLegalMove { score } => {
            return vec![format!(
                "info depth 0 score {}{}",
                uci_score(*score),
                wdl(*score)
            )];
        }
        SearchReport::CurrMove { depth, mv, number } => {
            return vec![format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_uci(pos.board(), *mv, pos.chess960())
            )];
        }
        SearchReport::Iteration(r) => r,
    };
    let bound = match r.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    r.lines
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let mut board = pos.board().clone();
            let mut pv = String::new();
            for mv in &line.pv {
                pv.push(' ');
                pv.push_str(&move_to_uci(&board, *mv, pos.chess960()));
                board.play_unchecked(*mv);
            }
            format!(
                "info depth {} seldepth {} multipv {} score {}{bound}{} nodes {} nps {} hashfull {} \
                 tbhits {} time {} pv{}",
                r.depth,
                r.seldepth,
                k + 1,
                uci_score(line.score),
                wdl(line.score),
                r.nodes,
                r.nps,
                r.hashfull,
                r.tbhits,
                r.time_ms,
                pv
            )
        })
        .collect()
}

/// The report sink of a UCI search of `pos`: prints its `info` lines and notes in `shown`
/// the last line printed.
pub(super) fn info_reporter(pos: Position, show_wdl: bool, shown: Arc<ShownLine>) -> ReportSink {
    Arc::new(move |report: &SearchReport| {
        for line in info_lines(&pos, report, show_wdl) {
            say(&line);
        }
        shown.record(report);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{TB_BOUND, TB_WIN};
    use crate::search::{IterationReport, RootLine};
    use cozy_chess::Move;

    #[test]
    fn scores_and_info_lines_follow_uci() {
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(-MATE), "mate 0");
        // Tablebase wins and losses: far above any evaluation, far below the mates.
        assert_eq!(uci_score(TB_WIN), "cp 20000");
        assert_eq!(uci_score(-(TB_WIN - 7)), "cp -19993");
        assert_eq!(uci_score(TB_BOUND), format!("cp {}", 20000 - 128));
        assert_eq!(uci_score(TB_BOUND - 1), format!("cp {}", TB_BOUND - 1));
        let pos = Position::startpos();
        let mated = SearchReport::NoLegalMove { score: -MATE };
        assert_eq!(
            info_lines(&pos, &mated, false),
            ["info depth 0 score mate 0"]
        );
        assert_eq!(
            info_lines(&pos, &mated, true),
            ["info depth 0 score mate 0 wdl 0 0 1000"]
        );
        let stalemate = SearchReport::NoLegalMove { score: 0 };
        assert_eq!(
            info_lines(&pos, &stalemate, false),
            ["info depth 0 score cp 0"]
        );
        let e2e4: Move = "e2e4".parse().unwrap();
        let e7e5: Move = "e7e5".parse().unwrap();
        let d2d4: Move = "d2d4".parse().unwrap();
        let report = SearchReport::Iteration(IterationReport {
            depth: 3,
            seldepth: 5,
            score: 20,
            nodes: 1000,
            nps: 50_000,
            bound: ScoreBound::Exact,
            time_ms: 20,
            hashfull: 7,
            tbhits: 3,
            pv: vec![e2e4, e7e5],
            lines: vec![
                RootLine {
                    score: 20,
                    pv: vec![e2e4, e7e5],
                },
                RootLine {
                    score: 10,
                    pv: vec![d2d4],
                },
            ],
        });
        let current = SearchReport::CurrMove {
            depth: 9,
            mv: d2d4,
            number: 3,
        };
        assert_eq!(
            info_lines(&pos, &current, false),
            ["info depth 9 currmove d2d4 currmovenumber 3"]
        );
        if let SearchReport::Iteration(r) = &report {
            let mut failed = r.clone();
            failed.bound = ScoreBound::Lower;
            failed.lines.truncate(1);
            let [w, d, l] = crate::wdl::MODEL.permille(20, 78);
            assert_eq!(
                info_lines(&pos, &SearchReport::Iteration(failed), true),
                [format!(
                    "info depth 3 seldepth 5 multipv 1 score cp 20 lowerbound wdl {w} {d} {l} \
                     nodes 1000 nps 50000 hashfull 7 tbhits 3 time 20 pv e2e4 e7e5"
                )]
            );
        }
        assert_eq!(
            info_lines(&pos, &report, false),
            [
                "info depth 3 seldepth 5 multipv 1 score cp 20 nodes 1000 nps 50000 hashfull 7 \
                 tbhits 3 time 20 pv e2e4 e7e5",
                "info depth 3 seldepth 5 multipv 2 score cp 10 nodes 1000 nps 50000 hashfull 7 \
                 tbhits 3 time 20 pv d2d4"
            ]
        );
    }
}
