//! `lull bench`: a fixed-depth search of a fixed list of positions. The total node count is
//! deterministic (one thread, cleared state before each position): the signature of the
//! search, quoted as `Bench: <nodes>` in every commit that changes search behaviour.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::position::Position;
use crate::search::{Engine, SearchStats};
use crate::time::Limits;

/// Default bench depth in plies.
pub const BENCH_DEPTH: i32 = 12;

/// Openings, middlegames, tactics (from Win At Chess) and endgames.
pub const BENCH_POSITIONS: &[&str] = &[
    // Openings.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "rnbqkb1r/ppp1pppp/5n2/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 1 3",
    "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 0 5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2P2N2/PP1P1PPP/RNBQK2R w KQkq - 1 5",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N1PN2/PP3PPP/R1BQKB1R b KQkq - 1 5",
    // Middlegames.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1r3rk1/1pnnq1bR/p1pp2B1/P2P1p2/1PP1pP2/2B3P1/5PK1/2Q4R w - - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    // Tactics (Win At Chess).
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r3nrk1/2p2p1p/p1p1b1p1/2NpPq2/3R4/P1N1Q3/1PP2PPP/4R1K1 w - - 0 1",
    "r2q3k/p2P3p/1p3p2/3QP1r1/8/B7/P5PP/2R3K1 w - - 0 1",
    "r1brnbk1/ppq2pp1/4p2p/4N3/3P4/P1PB1Q2/3B1PPP/R3R1K1 w - - 0 1",
    "3rr1k1/ppqbRppp/2p5/8/3Q1n2/2P3N1/PPB2PPP/3R2K1 w - - 0 1",
    "6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1",
    "6k1/1b2rp2/1p4p1/3P4/PQ4P1/2N2q2/5P2/3R2K1 b - - 0 1",
    "5b2/pp2r1pk/2pp1pRp/4rP1N/2P1P3/1P4QP/P3q1P1/5R1K w - - 0 1",
    "5rk1/2p4p/2p4r/3P4/4p1b1/1Q2NqPp/PP3P1K/R4R2 b - - 0 1",
    "1r2k1r1/5p2/b3p3/1p2b1B1/3p3P/3B4/PP2KP2/2R3R1 w - - 0 1",
    "r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1",
    "r1bqk2r/pp3ppp/5n2/8/1b1npB2/2N5/PP1Q2PP/1K2RBNR w kq - 0 1",
    "1r3r1k/3p4/1p1Nn1R1/4Pp1q/pP3P1p/P7/5Q1P/6RK w - - 0 1",
    "rnbqr2k/pppp1Qpp/8/b2NN3/2B1n3/8/PPPP1PPP/R1B1K2R w KQ - 0 1",
    "3q1rk1/4bp1p/1n2P2Q/3p1p2/6r1/Pp2R2N/1B4PP/7K w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    // Endgames.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/8/8/7K/7P/7k w - - 0 1",
    "8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
    "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/1p4k1/p1p5/P1P5/1P4K1/8/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/8/4k3/8/8/4KQ2/8 w - - 0 1",
    "8/4k3/8/8/8/8/2R5/4K3 w - - 0 1",
    "8/8/4k3/3r4/8/8/3RK3/8 w - - 0 1",
    "5k2/8/8/3B4/3N4/8/8/4K3 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/3R4 w - - 0 1",
    "1r6/5pk1/6p1/7p/7P/6P1/5PK1/3R4 b - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
];

/// Result of a bench run.
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Nodes per second over the whole run.
    pub nps: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Search statistics summed over all positions.
    pub stats: SearchStats,
    /// How many positions were searched: all of them unless the run was stopped
    /// ([`run_bench_until`]).
    pub positions: usize,
}

/// Runs the bench with the given engine (its options, threads and hash apply). The engine's
/// state is cleared before every position so that the count does not depend on the order.
pub fn run_bench(
    engine: &mut Engine,
    depth: i32,
    per_position: impl FnMut(usize, &str, u64),
) -> BenchReport {
    run_bench_until(engine, depth, &AtomicBool::new(false), per_position)
}

/// [`run_bench`] that can be stopped: once `halt` is set no further position is searched,
/// and the search of the current one ends at once when the engine's stop flag is set too
/// (as a front end's `stop` does). A position whose search was stopped is not counted, so
/// [`BenchReport::positions`] then says how many were.
pub fn run_bench_until(
    engine: &mut Engine,
    depth: i32,
    halt: &AtomicBool,
    mut per_position: impl FnMut(usize, &str, u64),
) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    let mut positions = 0;
    let mut stats = SearchStats::default();
    let control = engine.control();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        engine.clear();
        // What `Engine::search` does, with a look at `halt` between clearing the stop flag
        // and searching: a stop that comes after the look sets the flag the search reads.
        control.stop.store(false, Ordering::SeqCst);
        if halt.load(Ordering::SeqCst) {
            break;
        }
        let result = engine.search_keep_flags(&pos, &Limits::depth(depth), &[]);
        if halt.load(Ordering::SeqCst) {
            break;
        }
        nodes += result.nodes;
        positions += 1;
        stats.add(&result.stats);
        per_position(i, fen, result.nodes);
    }
    let time_ms = start.elapsed().as_millis() as u64;
    BenchReport {
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        time_ms,
        stats,
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_halted_bench_stops_between_and_within_positions() {
        let mut engine = Engine::new(1);
        let halt = AtomicBool::new(true);
        let r = run_bench_until(&mut engine, 2, &halt, |_, _, _| panic!("searched"));
        assert_eq!((r.positions, r.nodes), (0, 0));
        // Halted (and the engine stopped) during a search far too deep to finish.
        let halt = AtomicBool::new(false);
        let control = engine.control();
        let start = Instant::now();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(100));
                halt.store(true, Ordering::SeqCst);
                control.stop.store(true, Ordering::SeqCst);
            });
            run_bench_until(&mut engine, 100, &halt, |_, _, _| panic!("counted"))
        });
        assert_eq!(r.positions, 0);
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
        // Not halted: every position.
        let r = run_bench(&mut engine, 1, |_, _, _| {});
        assert_eq!(r.positions, BENCH_POSITIONS.len());
    }

    #[test]
    fn bench_positions_are_valid_fens() {
        assert!(BENCH_POSITIONS.len() >= 50);
        for fen in BENCH_POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }
}
