//! The staged move picker of both searches: it yields a node's moves one at a time, best
//! first, and says of each which stage (kind of move) it belongs to.
//!
//! Main search, staged as Stockfish's `movepick.cpp` and Viridithas' `movepicker.rs` are:
//! the TT move (before anything is generated: when it cuts off, generation is never paid
//! for); the captures and promotions, generated next, good ones by MVV-LVA (a capture that
//! loses material by SEE is found out when it comes up and set aside); the two killers and
//! the counter-move, each checked for legality; the quiet moves, generated only when reached
//! (never, once late move pruning dropped them) and ordered by history as it stands then;
//! last what was set aside, the losing captures and the under-promotions. In check the same
//! stages yield the evasions (the generator gives nothing else).
//!
//! Quiescence search: one list of the forcing moves by bands: winning, equal, quiet tactical
//! (checks, pushes to the seventh) and losing moves; in check every evasion, captures first,
//! then quiet moves by history.
//!
//! Each region of a list is picked best-first by selection sort (`movelist.rs`).

use cozy_chess::{BitBoard, Move, Piece, Rank};

use crate::params::{
    CAPTURE_HISTORY_DIVISOR, CAPTURE_VICTIM_WEIGHT, QUIET_CHECK_BONUS, QUIET_CHECK_SEE_MIN,
    SCORE_BAD_CAPTURE, SCORE_EQUAL_CAPTURE, SCORE_GOOD_CAPTURE, SCORE_QUIET_TACTICAL,
    SCORE_TT_MOVE, SCORE_UNDERPROMOTION,
};
use crate::position::Position;

use super::movelist::MoveList;
use super::ordering::{cont_key, OrderingTables, QuietContext, MAX_MOVES};
use super::see::{see, see_ge, see_value};
use super::settings::QSearchOptions;

/// The kind of a move, in the order the stages come (a picker yields non-decreasing stages;
/// each picker uses only some of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The transposition table's move.
    TtMove,
    /// Main search: captures and queen promotions not losing by SEE. Quiescence: captures
    /// and promotions that win material (SEE > 0). Evasions: captures and promotions.
    GoodCaptures,
    /// Quiescence: captures and promotions that neither win nor lose material (SEE = 0).
    EqualCaptures,
    /// Main search: the two killer moves of this ply.
    Killers,
    /// Main search: the quiet move that last refuted the opponent's previous move.
    CounterMove,
    /// Quiescence: quiet checks and pawn pushes to the seventh rank.
    QuietTactical,
    /// Main search and evasions: the other quiet moves, by history.
    Quiets,
    /// Captures (and in the quiescence search promotions) that lose material by SEE.
    BadCaptures,
    /// Main search: promotions to a knight, bishop or rook.
    UnderPromotions,
}

/// A move yielded by a [`MovePicker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// Its stage.
    pub stage: Stage,
    /// Quiescence search (not in check): its static exchange value; otherwise 0.
    pub see: i32,
}

/// MVV-LVA: most valuable victim first, then least valuable attacker.
#[inline]
pub fn mvv_lva(victim: Option<Piece>, attacker: Piece) -> i32 {
    victim.map_or(0, see_value) * 8 - attacker as i32
}

/// Which search a picker serves, and so which moves it yields in what order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The main search: every stage in turn (in check the generator gives only the
    /// evasions, and the same stages order them).
    Main,
    /// ProbCut: the TT move and the good captures and queen promotions whose SEE reaches
    /// `threshold`, then nothing.
    ProbCut { threshold: i32 },
    /// The quiescence search: one list of the forcing moves, by bands.
    Quiescence,
    /// The quiescence search in check: one list of every evasion, captures first.
    Evasions,
}

/// Where a main or ProbCut picker stands: the stages in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// The TT move comes next; nothing is generated yet.
    TtMove,
    /// Captures and promotions are generated next.
    GenerateCaptures,
    /// Picking the captures and queen promotions; those that lose by SEE are set aside.
    GoodCaptures,
    /// The first killer, then the second.
    Killer1,
    Killer2,
    /// The counter-move of the opponent's last move.
    CounterMove,
    /// The quiet moves are generated next (never, when late move pruning dropped them).
    GenerateQuiets,
    /// Picking the quiet moves by history.
    Quiets,
    /// Picking what was set aside: losing captures, then under-promotions.
    BadCaptures,
}

/// Yields the moves of one node in order, stage by stage (see the module header).
pub struct MovePicker<'a> {
    kind: Kind,
    phase: Phase,
    tt_move: Option<Move>,
    list: MoveList<Picked>,
    /// The next slot to pick from, and the end of the region being picked.
    next: usize,
    end: usize,
    /// Main search: losing captures and under-promotions are set aside in `0..bad_end`
    /// (slots whose captures were already yielded).
    bad_end: usize,
    /// The killers and the counter-move yielded so far (never yielded twice).
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Late move pruning: no more quiet moves (see [`MovePicker::skip_quiets`]).
    skip_quiets: bool,
    /// Quiescence: the side to move has no legal move.
    no_legal_moves: bool,
    ply: usize,
    ctx: QuietContext,
    only: Option<&'a [Move]>,
}

impl<'a> MovePicker<'a> {
    /// The main search's picker at `ply`: `tt_move` first if it is legal, then the others
    /// stage by stage, each generated or scored by `tables` as they stand when the stage is
    /// reached. `ctx` holds the previous moves (counter-move and continuation
    /// histories); `only` restricts the moves (root `searchmoves`, MultiPV).
    pub fn main(
        pos: &Position,
        tt_move: Option<Move>,
        ply: usize,
        ctx: QuietContext,
        only: Option<&'a [Move]>,
    ) -> Self {
        let tt_move =
            tt_move.filter(|&m| pos.board().is_legal(m) && only.is_none_or(|o| o.contains(&m)));
        Self {
            kind: Kind::Main,
            phase: Phase::TtMove,
            tt_move,
            list: MoveList::new(),
            next: 0,
            end: 0,
            bad_end: 0,
            killers: [None; 2],
            counter: None,
            skip_quiets: false,
            no_legal_moves: false,
            ply,
            ctx,
            only,
        }
    }

    /// ProbCut's picker: the TT move when it is a capture or promotion, then the captures
    /// and queen promotions by MVV-LVA, each only if its SEE reaches `threshold`; no quiet
    /// move, no losing capture, no under-promotion.
    pub fn probcut(pos: &Position, tt_move: Option<Move>, threshold: i32) -> Self {
        let tt_move = tt_move.filter(|&m| {
            (pos.is_capture(m) || m.promotion == Some(Piece::Queen))
                && pos.board().is_legal(m)
                && see_ge(pos.board(), m, threshold)
        });
        Self {
            kind: Kind::ProbCut { threshold },
            ..Self::main(pos, tt_move, 0, QuietContext::NONE, None)
        }
    }

    /// The quiescence search's picker, empty: [`MovePicker::generate_quiescence`] fills it
    /// with every evasion when in check (and makes it an evasion picker), otherwise with the
    /// forcing moves the options ask for.
    ///
    /// Two steps, so that the 3 KB list is built in the caller's frame: a constructor that
    /// filled a local picker and returned it copied the list at every node (measured: 1.5 %
    /// of all instructions in `memcpy`).
    pub fn quiescence(tt_move: Option<Move>) -> Self {
        Self {
            kind: Kind::Quiescence,
            phase: Phase::BadCaptures,
            tt_move,
            list: MoveList::new(),
            next: 0,
            end: MAX_MOVES,
            bad_end: 0,
            killers: [None; 2],
            counter: None,
            skip_quiets: false,
            no_legal_moves: false,
            ply: 0,
            ctx: QuietContext::NONE,
            only: None,
        }
    }

    /// Quiescence and evasion pickers: whether the side to move has no legal move at all
    /// (mate or stalemate), whatever the options filtered out.
    pub fn no_legal_moves(&self) -> bool {
        self.no_legal_moves
    }

    /// Number of moves generated so far (the TT move of the main search not counted).
    pub fn generated(&self) -> usize {
        self.list.len
    }

    /// Late move pruning: the picker yields no more quiet moves (killers, counter-move,
    /// history quiets; when it had not reached them, they are never generated); captures
    /// and under-promotions still come.
    pub fn skip_quiets(&mut self) {
        if !self.skip_quiets {
            self.skip_quiets = true;
            if self.phase == Phase::Quiets {
                self.next = self.end;
            }
        }
    }

    /// The next move, or `None` when all are done. `pos` is the node's position and `tables`
    /// the ordering tables as they are now (each stage reads them when it is reached).
    #[inline(always)]
    pub fn next(&mut self, pos: &Position, tables: &OrderingTables) -> Option<Picked> {
        match self.kind {
            Kind::Main => self.next_main(pos, tables),
            Kind::ProbCut { threshold } => self.next_probcut(pos, tables, threshold),
            Kind::Quiescence | Kind::Evasions => {
                self.list.pick(&mut self.next, self.end).map(|(e, _)| e)
            }
        }
    }

    /// ProbCut's next move: the TT move, then the good captures and queen promotions (by
    /// the main search's capture order) whose SEE reaches `threshold`.
    #[inline(always)]
    fn next_probcut(
        &mut self,
        pos: &Position,
        tables: &OrderingTables,
        threshold: i32,
    ) -> Option<Picked> {
        if self.phase == Phase::TtMove {
            self.phase = Phase::GenerateCaptures;
            if let Some(mv) = self.tt_move {
                return Some(Self::picked(mv, Stage::TtMove));
            }
        }
        if self.phase == Phase::GenerateCaptures {
            self.generate_captures(pos, tables);
            self.end = self.list.len;
            self.phase = Phase::GoodCaptures;
        }
        while let Some((entry, _)) = self.list.pick(&mut self.next, self.end) {
            if entry.stage == Stage::GoodCaptures && see_ge(pos.board(), entry.mv, threshold) {
                return Some(entry);
            }
        }
        None
    }

    /// The main search's next move, stage by stage.
    #[inline(always)]
    fn next_main(&mut self, pos: &Position, tables: &OrderingTables) -> Option<Picked> {
        loop {
            match self.phase {
                Phase::TtMove => {
                    self.phase = Phase::GenerateCaptures;
                    if let Some(mv) = self.tt_move {
                        return Some(Self::picked(mv, Stage::TtMove));
                    }
                }
                Phase::GenerateCaptures => {
                    self.generate_captures(pos, tables);
                    self.end = self.list.len;
                    self.phase = Phase::GoodCaptures;
                }
                Phase::GoodCaptures => {
                    let Some((entry, score)) = self.list.pick(&mut self.next, self.end) else {
                        self.phase = Phase::Killer1;
                        continue;
                    };
                    // A capture ordered as good by MVV-LVA but losing by SEE, and every
                    // under-promotion, waits until the end.
                    let losing = entry.stage == Stage::GoodCaptures
                        && entry.mv.promotion.is_none()
                        && !see_ge(pos.board(), entry.mv, 0);
                    if losing {
                        let bad = Picked {
                            stage: Stage::BadCaptures,
                            ..entry
                        };
                        let score = score - SCORE_GOOD_CAPTURE + SCORE_BAD_CAPTURE;
                        self.list.put(self.bad_end, bad, score);
                        self.bad_end += 1;
                        continue;
                    }
                    if entry.stage == Stage::UnderPromotions {
                        self.list.put(self.bad_end, entry, score);
                        self.bad_end += 1;
                        continue;
                    }
                    return Some(entry);
                }
                Phase::Killer1 | Phase::Killer2 | Phase::CounterMove => {
                    let phase = self.phase;
                    self.phase = match phase {
                        Phase::Killer1 => Phase::Killer2,
                        Phase::Killer2 => Phase::CounterMove,
                        _ => Phase::GenerateQuiets,
                    };
                    if self.skip_quiets {
                        continue;
                    }
                    // Moves that refuted other positions: each is yielded once, and only
                    // when it is a legal quiet move here.
                    let killers = tables.killers[self.ply.min(crate::params::MAX_PLY)];
                    let (mv, stage) = match phase {
                        Phase::Killer1 => (killers[0], Stage::Killers),
                        Phase::Killer2 => (killers[1], Stage::Killers),
                        _ => (tables.counters[self.ctx.prev1], Stage::CounterMove),
                    };
                    let Some(mv) = mv.filter(|&m| {
                        !self.killers.contains(&Some(m)) && self.is_quiet_and_legal(pos, m)
                    }) else {
                        continue;
                    };
                    match phase {
                        Phase::Killer1 => self.killers[0] = Some(mv),
                        Phase::Killer2 => self.killers[1] = Some(mv),
                        _ => self.counter = Some(mv),
                    }
                    return Some(Self::picked(mv, stage));
                }
                Phase::GenerateQuiets => {
                    // The quiet moves go after the captures' region (whose good captures
                    // are all yielded); losing captures stay set aside in `0..bad_end`.
                    self.phase = Phase::Quiets;
                    self.next = self.list.len;
                    if !self.skip_quiets {
                        self.generate_quiets(pos, tables);
                    }
                    self.end = self.list.len;
                }
                Phase::Quiets => {
                    if let Some((entry, _)) = self.list.pick(&mut self.next, self.end) {
                        return Some(entry);
                    }
                    self.phase = Phase::BadCaptures;
                    self.next = 0;
                    self.end = self.bad_end;
                }
                Phase::BadCaptures => {
                    return self.list.pick(&mut self.next, self.end).map(|(e, _)| e);
                }
            }
        }
    }

    fn picked(mv: Move, stage: Stage) -> Picked {
        Picked { mv, stage, see: 0 }
    }

    /// A killer or counter-move from another position: yielded only when it is a legal
    /// quiet move here, not the TT move, and one the node may search.
    #[inline]
    fn is_quiet_and_legal(&self, pos: &Position, mv: Move) -> bool {
        Some(mv) != self.tt_move
            && mv.promotion.is_none()
            && self.only.is_none_or(|o| o.contains(&mv))
            && pos.board().is_legal(mv)
            && pos.captured(mv).is_none()
    }

    /// Generates the main search's captures and promotions (the TT move left out):
    /// captures and queen promotions by MVV-LVA (or with `CaptureHistory` the victim first,
    /// then the capture history), under-promotions scored to come last. Captures are
    /// SEE-tested only when they come up.
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, tables: &OrderingTables) {
        let board = pos.board();
        let color = board.side_to_move();
        let theirs = board.colors(!color);
        let pawn_targets = noisy_pawn_targets(pos);
        let (skip, only) = (self.tt_move, self.only);
        let list = &mut self.list;
        board.generate_moves(|mut pm| {
            pm.to &= if pm.piece == Piece::Pawn {
                pawn_targets
            } else {
                theirs
            };
            for mv in pm {
                if only.is_some_and(|o| !o.contains(&mv)) || Some(mv) == skip {
                    continue;
                }
                let victim = pos.captured(mv);
                let (stage, score) = if let Some(promo) = mv.promotion {
                    let gain = see_value(promo) + victim.map_or(0, see_value);
                    if promo == Piece::Queen {
                        (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + gain * 8)
                    } else {
                        (Stage::UnderPromotions, SCORE_UNDERPROMOTION + gain * 8)
                    }
                } else if let Some(v) = victim {
                    let order = if tables.use_capture_history {
                        CAPTURE_VICTIM_WEIGHT * see_value(v)
                            + tables.capture_history(color, pm.piece, mv.to, v)
                                / CAPTURE_HISTORY_DIVISOR
                    } else {
                        mvv_lva(Some(v), pm.piece)
                    };
                    (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + order)
                } else {
                    continue;
                };
                list.push(Self::picked(mv, stage), score);
            }
            false
        });
    }

    /// Generates the main search's quiet moves (neither captures nor promotions; the TT
    /// move, killers and counter-move already yielded are left out), scored by history.
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, tables: &OrderingTables) {
        let board = pos.board();
        let color = board.side_to_move();
        let not_noisy_for_pawns = !noisy_pawn_targets(pos);
        let not_theirs = !board.colors(!color);
        let done = [self.tt_move, self.killers[0], self.killers[1], self.counter];
        let (only, ctx) = (self.only, self.ctx);
        // A quiet move that checks directly, without losing material, is tried early
        // (Stockfish's check bonus): a check narrows the opponent's replies.
        let checks = pos.check_squares();
        let list = &mut self.list;
        board.generate_moves(|mut pm| {
            pm.to &= if pm.piece == Piece::Pawn {
                not_noisy_for_pawns
            } else {
                not_theirs
            };
            for mv in pm {
                if only.is_some_and(|o| !o.contains(&mv)) || done.contains(&Some(mv)) {
                    continue;
                }
                let key = cont_key(color, pm.piece, mv.to);
                let mut score = tables.quiet_order_score(color, mv, key, ctx);
                if checks[pm.piece as usize].has(mv.to) && see_ge(board, mv, QUIET_CHECK_SEE_MIN) {
                    score += QUIET_CHECK_BONUS;
                }
                list.push(Self::picked(mv, Stage::Quiets), score);
            }
            false
        });
    }

    /// Generates the moves of a quiescence node of `pos` at `qply`, scored, the TT move
    /// first: in check every evasion (the picker becomes an evasion picker), otherwise the
    /// forcing moves `opts` asks for. Afterwards [`MovePicker::no_legal_moves`] tells whether
    /// the side to move had no legal move at all (mate or stalemate).
    pub fn generate_quiescence(
        &mut self,
        pos: &Position,
        tables: &OrderingTables,
        opts: &QSearchOptions,
        qply: i32,
    ) {
        let any_legal = if pos.in_check() {
            self.kind = Kind::Evasions;
            self.fill_evasions(pos, tables)
        } else {
            self.fill_quiescence(pos, tables, opts, qply)
        };
        self.no_legal_moves = !any_legal;
    }

    /// The evasions of `pos` (in check): the TT move, then captures and promotions by
    /// [`band_order`], then quiet moves by history. Returns whether there is any.
    fn fill_evasions(&mut self, pos: &Position, tables: &OrderingTables) -> bool {
        let us = pos.side_to_move();
        let tt_move = self.tt_move;
        let list = &mut self.list;
        let mut any_legal = false;
        pos.board().generate_moves(|pm| {
            if pm.to.is_empty() {
                return false;
            }
            any_legal = true;
            for mv in pm {
                let victim = pos.captured(mv);
                let (stage, score) = if Some(mv) == tt_move {
                    (Stage::TtMove, SCORE_TT_MOVE)
                } else if victim.is_some() || mv.promotion.is_some() {
                    let order = band_order(tables, us, pm.piece, mv, victim);
                    (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + order)
                } else {
                    (Stage::Quiets, tables.history(us, mv))
                };
                list.push(Self::picked(mv, stage), score);
            }
            false
        });
        any_legal
    }

    /// The forcing moves of `pos` (not in check): captures (en passant included) and queen
    /// promotions, also quiet ones; with the options also under-promotions, quiet checks in
    /// the first q-plies and pawn pushes to the seventh rank. Never ordinary quiet moves:
    /// unless an option needs them, each piece's targets are masked down to captures and
    /// promotions before any move is unpacked. Returns whether the side to move has any
    /// legal move at all.
    ///
    /// Order: the TT move, then winning captures, equal captures, quiet checks and pushes,
    /// and losing captures last, each band by [`band_order`]. Unlike the main picker it
    /// computes every move's SEE up front, carried along for the search's pruning: the bands
    /// (SEE > 0, SEE = 0, quiet tactical, SEE < 0) need every exchange value to order the
    /// list, and computing them lazily would change the order of equal moves and so the
    /// node counts.
    fn fill_quiescence(
        &mut self,
        pos: &Position,
        tables: &OrderingTables,
        opts: &QSearchOptions,
        qply: i32,
    ) -> bool {
        let board = pos.board();
        let us = board.side_to_move();
        let theirs = board.colors(!us);
        let seventh = Rank::Seventh.relative_to(us);
        let want_checks = qply < opts.check_plies;
        // Quiet checks: a cheap bitboard test first, the exact one only for candidates.
        let check_squares = if want_checks {
            pos.check_squares()
        } else {
            [BitBoard::EMPTY; 6]
        };
        let pawn_mask = noisy_pawn_targets(pos)
            | if opts.pawn_pushes {
                seventh.bitboard()
            } else {
                BitBoard::EMPTY
            };
        let tt_move = self.tt_move;
        let list = &mut self.list;
        let mut any_legal = false;
        board.generate_moves(|mut pm| {
            if pm.to.is_empty() {
                return false;
            }
            any_legal = true;
            if !want_checks {
                pm.to &= if pm.piece == Piece::Pawn {
                    pawn_mask
                } else {
                    theirs
                };
            }
            for mv in pm {
                let victim = pos.captured(mv);
                let noisy = victim.is_some() || mv.promotion.is_some();
                if matches!(mv.promotion, Some(p) if p != Piece::Queen) && !opts.underpromotions {
                    continue;
                }
                let push = opts.pawn_pushes && pm.piece == Piece::Pawn && mv.to.rank() == seventh;
                if !noisy && !push {
                    // Quiet move: searched only as a check in the first q-plies.
                    if !(want_checks
                        && pm.piece != Piece::King
                        && pos.may_give_check(mv, &check_squares)
                        && pos.gives_check(mv))
                    {
                        continue;
                    }
                }
                let order = band_order(tables, us, pm.piece, mv, victim);
                // The exchange value: a capture of a more valuable piece wins at least the
                // difference; otherwise the full swap-off is computed.
                let exchange = match (victim, mv.promotion) {
                    (Some(v), None) if see_value(v) > see_value(pm.piece) => {
                        see_value(v) - see_value(pm.piece)
                    }
                    _ => see(board, mv),
                };
                let (stage, score) = if Some(mv) == tt_move {
                    (Stage::TtMove, SCORE_TT_MOVE)
                } else if !noisy {
                    (Stage::QuietTactical, SCORE_QUIET_TACTICAL + exchange)
                } else if exchange > 0 {
                    (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + order)
                } else if exchange == 0 {
                    (Stage::EqualCaptures, SCORE_EQUAL_CAPTURE + order)
                } else {
                    (Stage::BadCaptures, SCORE_BAD_CAPTURE + order)
                };
                list.push(
                    Picked {
                        mv,
                        stage,
                        see: exchange,
                    },
                    score,
                );
            }
            false
        });
        any_legal
    }
}

/// The order of a capture or promotion within its band of the quiescence and evasion lists:
/// MVV-LVA (most valuable victim, least valuable attacker; a promotion adds its gain), or
/// with `CaptureHistory` a plain capture by its victim first and then by what refuted
/// positions before (as in the main search's capture stage).
#[inline]
fn band_order(
    tables: &OrderingTables,
    us: cozy_chess::Color,
    piece: Piece,
    mv: Move,
    victim: Option<Piece>,
) -> i32 {
    match (victim, mv.promotion) {
        (Some(v), None) if tables.use_capture_history => {
            CAPTURE_VICTIM_WEIGHT * see_value(v)
                + tables.capture_history(us, piece, mv.to, v) / CAPTURE_HISTORY_DIVISOR
        }
        _ => {
            mvv_lva(victim, piece)
                + mv.promotion
                    .map_or(0, |p| (see_value(p) - see_value(Piece::Pawn)) * 8)
        }
    }
}

/// The squares where a pawn of the side to move captures or promotes: the opponent's
/// pieces, the en passant square and the last rank (a pawn move to any other square is quiet).
#[inline]
fn noisy_pawn_targets(pos: &Position) -> BitBoard {
    let board = pos.board();
    let us = board.side_to_move();
    board.colors(!us)
        | pos
            .en_passant_square()
            .map_or(BitBoard::EMPTY, |sq| sq.bitboard())
        | Rank::Eighth.relative_to(us).bitboard()
}

#[cfg(test)]
mod tests;
