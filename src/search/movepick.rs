//! The staged move picker of both searches: it yields a node's moves one at a time, best
//! first, and says of each which stage (kind of move) it belongs to.
//!
//! Main search: the TT move (before anything is generated: when it cuts off, generation is
//! never paid for), good captures by MVV-LVA (a capture that loses material by SEE is found
//! out when it comes up and waits until the end), killers, the counter-move, quiet moves by
//! history, the losing captures, under-promotions. Quiescence search: winning, equal, quiet
//! tactical (checks, pushes to the seventh) and losing moves; in check every evasion,
//! captures first, then quiet moves by history.
//!
//! All moves of a node are generated into one scored list and picked by selection sort (a
//! cutoff after the first moves never pays for sorting the rest). The order among equal
//! scores follows the list's swap history; the search's node counts depend on it, so the
//! mechanics here (one list, first index of the maximum, swap with the next slot, deferred
//! captures appended) are part of the engine's behaviour, not an implementation detail.

use std::mem::MaybeUninit;

use cozy_chess::{BitBoard, Move, Piece, Rank};

use crate::params::{
    CAPTURE_HISTORY_DIVISOR, CAPTURE_VICTIM_WEIGHT, SCORE_BAD_CAPTURE, SCORE_COUNTER,
    SCORE_EQUAL_CAPTURE, SCORE_GOOD_CAPTURE, SCORE_KILLER_1, SCORE_KILLER_2, SCORE_QUIET_TACTICAL,
    SCORE_TT_MOVE, SCORE_UNDERPROMOTION,
};
use crate::position::Position;

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

/// A list of moves with ordering scores, picked best-first.
///
/// Lives on the stack and is not initialised up front: a node that cuts off after the
/// first move never pays for 256 entries (a measurable share of all time otherwise).
struct MoveList {
    entries: [MaybeUninit<Picked>; MAX_MOVES],
    scores: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
    next: usize,
}

impl MoveList {
    #[inline]
    fn new() -> Self {
        Self {
            entries: [const { MaybeUninit::uninit() }; MAX_MOVES],
            scores: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
            next: 0,
        }
    }

    /// Appends a move with its score (dropped when the list is full, which legal chess
    /// never reaches).
    #[inline]
    fn push(&mut self, entry: Picked, score: i32) {
        if self.len < MAX_MOVES {
            self.entries[self.len] = MaybeUninit::new(entry);
            self.scores[self.len] = MaybeUninit::new(score);
            self.len += 1;
        }
    }

    /// The scores of the entries `0..len`.
    #[inline]
    fn scores(&self) -> &[i32] {
        // SAFETY: entries below `len` were written by `push` (and only moved around within
        // `0..len` by `pick` and `retain_remaining`); MaybeUninit<i32> has the layout of i32.
        unsafe { std::slice::from_raw_parts(self.scores.as_ptr() as *const i32, self.len) }
    }

    #[inline]
    fn entry(&self, i: usize) -> (Picked, i32) {
        debug_assert!(i < self.len);
        // SAFETY: as in `scores`: every index below `len` is initialised.
        let entry = unsafe { self.entries[i].assume_init() };
        (entry, self.scores()[i])
    }

    /// Takes the best-scored remaining move (the first of equal ones) by swapping it into
    /// the next slot.
    #[inline(always)]
    fn pick(&mut self) -> Option<(Picked, i32)> {
        if self.next >= self.len {
            return None;
        }
        let scores = self.scores();
        let mut best = self.next;
        let mut best_score = scores[best];
        for (i, &sc) in scores.iter().enumerate().skip(self.next + 1) {
            if sc > best_score {
                best = i;
                best_score = sc;
            }
        }
        self.entries.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.entry(self.next - 1))
    }

    /// Drops the not yet picked moves for which `keep` is false, keeping the order of the
    /// others.
    fn retain_remaining(&mut self, keep: impl Fn(&Picked) -> bool) {
        let mut w = self.next;
        for r in self.next..self.len {
            let (entry, score) = self.entry(r);
            if keep(&entry) {
                self.entries[w] = MaybeUninit::new(entry);
                self.scores[w] = MaybeUninit::new(score);
                w += 1;
            }
        }
        self.len = w;
    }
}

/// Where a picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Main search: the TT move comes next, nothing is generated yet.
    TtMove,
    /// Main search: the TT move is done; the other moves are generated next.
    Generate,
    /// Picking from the generated list.
    Pick,
}

/// Yields the moves of one node in order, stage by stage (see the module header).
pub struct MovePicker<'a> {
    phase: Phase,
    tt_move: Option<Move>,
    list: MoveList,
    /// Main search: good captures are SEE-tested when they come up.
    defer_losing: bool,
    /// Late move pruning: no more quiet moves (see [`MovePicker::skip_quiets`]).
    skip_quiets: bool,
    /// Quiescence: the side to move has no legal move.
    no_legal_moves: bool,
    ply: usize,
    ctx: QuietContext,
    only: Option<&'a [Move]>,
}

impl<'a> MovePicker<'a> {
    /// The main search's picker at `ply`: `tt_move` first if it is legal, then the others by
    /// `tables` as they stand when the TT move is done. `ctx` holds the two previous moves
    /// (counter-move and continuation histories); `only` restricts the moves (root
    /// `searchmoves`, MultiPV).
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
            phase: Phase::TtMove,
            tt_move,
            list: MoveList::new(),
            defer_losing: true,
            skip_quiets: false,
            no_legal_moves: false,
            ply,
            ctx,
            only,
        }
    }

    /// The quiescence search's picker, empty: [`MovePicker::generate_quiescence`] fills it
    /// with every evasion when in check, otherwise the forcing moves the options ask for.
    ///
    /// Two steps, so that the 3 KB list is built in the caller's frame: a constructor that
    /// filled a local picker and returned it copied the list at every node (measured: 1.5 %
    /// of all instructions in `memcpy`).
    pub fn quiescence(tt_move: Option<Move>) -> Self {
        Self {
            phase: Phase::Pick,
            tt_move,
            list: MoveList::new(),
            defer_losing: false,
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
    /// history quiets); captures and under-promotions still come.
    pub fn skip_quiets(&mut self) {
        if !self.skip_quiets {
            self.skip_quiets = true;
            self.list.retain_remaining(|e| e.stage != Stage::Quiets);
        }
    }

    /// The next move, or `None` when all are done. `pos` is the node's position and `tables`
    /// the ordering tables as they are now (the main search generates its moves only after
    /// the TT move was searched).
    #[inline(always)]
    pub fn next(&mut self, pos: &Position, tables: &OrderingTables) -> Option<Picked> {
        loop {
            match self.phase {
                Phase::TtMove => {
                    self.phase = Phase::Generate;
                    if let Some(mv) = self.tt_move {
                        return Some(Picked {
                            mv,
                            stage: Stage::TtMove,
                            see: 0,
                        });
                    }
                }
                Phase::Generate => {
                    self.generate_main(pos, tables);
                    if self.skip_quiets {
                        self.list.retain_remaining(|e| e.stage != Stage::Quiets);
                    }
                    self.phase = Phase::Pick;
                }
                Phase::Pick => {
                    let (entry, score) = self.list.pick()?;
                    // A capture ordered as good by MVV-LVA but losing by SEE waits at the end.
                    if self.defer_losing
                        && entry.stage == Stage::GoodCaptures
                        && entry.mv.promotion.is_none()
                        && !see_ge(pos.board(), entry.mv, 0)
                    {
                        let bad = Picked {
                            stage: Stage::BadCaptures,
                            ..entry
                        };
                        self.list
                            .push(bad, score - SCORE_GOOD_CAPTURE + SCORE_BAD_CAPTURE);
                        continue;
                    }
                    if self.skip_quiets
                        && matches!(entry.stage, Stage::Killers | Stage::CounterMove)
                    {
                        continue;
                    }
                    return Some(entry);
                }
            }
        }
    }

    /// Generates and scores every legal move for the main search except the TT move:
    /// captures and queen promotions by MVV-LVA, killers, the counter-move, quiet moves by
    /// history, under-promotions last. Captures are SEE-tested only when they come up.
    #[inline(never)]
    fn generate_main(&mut self, pos: &Position, tables: &OrderingTables) {
        let board = pos.board();
        let color = board.side_to_move();
        let killers = tables.killers[self.ply.min(crate::params::MAX_PLY)];
        let counter = tables.counters[self.ctx.prev1];
        let (skip, only, ctx) = (self.tt_move, self.only, self.ctx);
        let list = &mut self.list;
        board.generate_moves(|pm| {
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
                    // MVV-LVA, or with the capture history (`CaptureHistory`) the victim
                    // first and, among equal victims, what refuted positions before.
                    let order = if tables.use_capture_history {
                        CAPTURE_VICTIM_WEIGHT * see_value(v)
                            + tables.capture_history(color, pm.piece, mv.to, v)
                                / CAPTURE_HISTORY_DIVISOR
                    } else {
                        mvv_lva(Some(v), pm.piece)
                    };
                    (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + order)
                } else if killers[0] == Some(mv) {
                    (Stage::Killers, SCORE_KILLER_1)
                } else if killers[1] == Some(mv) {
                    (Stage::Killers, SCORE_KILLER_2)
                } else if counter == Some(mv) {
                    (Stage::CounterMove, SCORE_COUNTER)
                } else {
                    let key = cont_key(color, pm.piece, mv.to);
                    (Stage::Quiets, tables.quiet_score(color, mv, key, ctx))
                };
                list.push(Picked { mv, stage, see: 0 }, score);
            }
            false
        });
    }

    /// Generates and scores the moves of a quiescence node. Returns whether the side to move
    /// has any legal move at all.
    ///
    /// In check: every evasion. Otherwise the forcing moves: captures (en passant included)
    /// and queen promotions, also quiet ones; with the options also under-promotions, quiet
    /// checks in the first q-plies and pawn pushes to the seventh rank. Never ordinary quiet
    /// moves: unless an option needs them, each piece's targets are masked down to captures
    /// and promotions before any move is unpacked.
    ///
    /// Order: the TT move, then winning captures, equal captures, quiet checks and pushes,
    /// and losing captures last, each group by MVV-LVA (most valuable victim, least valuable
    /// attacker). Evasions: captures first, then quiet moves by history. The SEE of each move
    /// is computed once here and carried along for the search's pruning.
    /// Generates the quiescence moves of `pos` at `qply` as `opts` asks (every evasion in
    /// check), scored; the TT move first. Unlike the main picker it computes every move's SEE
    /// up front: its bands (SEE > 0, SEE = 0, quiet tactical, SEE < 0) need every exchange
    /// value to order the list, and computing them lazily would change the order of equal
    /// moves and so the node counts. Afterwards [`MovePicker::no_legal_moves`] tells whether
    /// the side to move had no legal move at all (mate or stalemate).
    pub fn generate_quiescence(
        &mut self,
        pos: &Position,
        tables: &OrderingTables,
        opts: &QSearchOptions,
        qply: i32,
    ) {
        self.no_legal_moves = !self.fill_quiescence(pos, tables, opts, qply);
    }

    fn fill_quiescence(
        &mut self,
        pos: &Position,
        tables: &OrderingTables,
        opts: &QSearchOptions,
        qply: i32,
    ) -> bool {
        let board = pos.board();
        let in_check = pos.in_check();
        let us = board.side_to_move();
        let theirs = board.colors(!us);
        let ep_bb = pos
            .en_passant_square()
            .map_or(BitBoard::EMPTY, |sq| sq.bitboard());
        let seventh = Rank::Seventh.relative_to(us);
        let promo_bb = Rank::Eighth.relative_to(us).bitboard();
        let want_checks = !in_check && qply < opts.check_plies;
        // Quiet checks: a cheap bitboard test first, the exact one only for candidates.
        let check_squares = if want_checks {
            pos.check_squares()
        } else {
            [BitBoard::EMPTY; 6]
        };
        let need_quiets = in_check || want_checks;
        let pawn_mask = theirs
            | ep_bb
            | promo_bb
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
            if !need_quiets {
                pm.to &= if pm.piece == Piece::Pawn {
                    pawn_mask
                } else {
                    theirs
                };
            }
            for mv in pm {
                let victim = pos.captured(mv);
                let noisy = victim.is_some() || mv.promotion.is_some();
                if !in_check {
                    if matches!(mv.promotion, Some(p) if p != Piece::Queen) && !opts.underpromotions
                    {
                        continue;
                    }
                    let push =
                        opts.pawn_pushes && pm.piece == Piece::Pawn && mv.to.rank() == seventh;
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
                }
                let mvv = mvv_lva(victim, pm.piece)
                    + mv.promotion
                        .map_or(0, |p| (see_value(p) - see_value(Piece::Pawn)) * 8);
                // The exchange value: a capture of a more valuable piece wins at least the
                // difference; otherwise the full swap-off is computed.
                let exchange = if in_check {
                    0
                } else if let (Some(v), None) = (victim, mv.promotion) {
                    if see_value(v) > see_value(pm.piece) {
                        see_value(v) - see_value(pm.piece)
                    } else {
                        see(board, mv)
                    }
                } else {
                    see(board, mv)
                };
                let (stage, score) = if Some(mv) == tt_move {
                    (Stage::TtMove, SCORE_TT_MOVE)
                } else if in_check {
                    if noisy {
                        (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + mvv)
                    } else {
                        (Stage::Quiets, tables.history(us, mv))
                    }
                } else if !noisy {
                    (Stage::QuietTactical, SCORE_QUIET_TACTICAL + exchange)
                } else if exchange > 0 {
                    (Stage::GoodCaptures, SCORE_GOOD_CAPTURE + mvv)
                } else if exchange == 0 {
                    (Stage::EqualCaptures, SCORE_EQUAL_CAPTURE + mvv)
                } else {
                    (Stage::BadCaptures, SCORE_BAD_CAPTURE + mvv)
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

#[cfg(test)]
mod tests;
