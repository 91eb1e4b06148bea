//! Tests of the move picker: the order of the stages and of the moves within them.
use super::*;
use crate::search::ordering::NO_CONT;

/// Every position of the perft suites (standard and Chess960).
fn suite() -> Vec<Position> {
    let suites = [
        include_str!("../../../assets/perft/ethereal_standard.epd"),
        include_str!("../../../assets/perft/cpw_perft_positions.epd"),
        include_str!("../../../assets/perft/frc_perftsuite.epd"),
    ];
    let positions: Vec<Position> = suites
        .iter()
        .flat_map(|s| s.lines())
        .filter_map(|line| line.split(';').next().map(str::trim))
        .filter(|fen| !fen.is_empty())
        .map(|fen| Position::from_fen(fen).expect("suite FEN"))
        .collect();
    assert!(positions.len() > 1000);
    positions
}

/// Drains a picker: the moves with their stages, checking the stage order as it goes.
fn drain(picker: &mut MovePicker, pos: &Position, tables: &OrderingTables) -> Vec<Picked> {
    let mut out: Vec<Picked> = Vec::new();
    while let Some(p) = picker.next(pos, tables) {
        if let Some(last) = out.last() {
            assert!(
                last.stage <= p.stage,
                "{}: {:?} after {:?}",
                pos.fen(),
                p.stage,
                last.stage
            );
        }
        out.push(p);
    }
    out
}

/// Asserts that `picked` holds exactly the moves of `expected`, each once.
fn assert_same_set(pos: &Position, picked: &[Picked], expected: &[Move]) {
    let mut got: Vec<String> = picked.iter().map(|p| p.mv.to_string()).collect();
    let mut want: Vec<String> = expected.iter().map(|m| m.to_string()).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{}", pos.fen());
}

fn is_quiet(pos: &Position, mv: Move) -> bool {
    pos.captured(mv).is_none() && mv.promotion.is_none()
}

/// Ordering tables with some history, so that quiet moves have different scores.
#[test]
fn capture_history_orders_captures_of_equal_victims() {
    // A knight and a bishop can each take an undefended pawn.
    let pos = Position::from_fen("4k3/8/8/3p1p2/8/2NB4/8/4K3 w - - 0 1").unwrap();
    let nxd5 = pos.parse_uci_move("c3d5").unwrap();
    let bxf5 = pos.parse_uci_move("d3f5").unwrap();
    let captures = |tables: &OrderingTables| -> Vec<Move> {
        let mut picker = MovePicker::main(&pos, None, 0, QuietContext::NONE, None);
        drain(&mut picker, &pos, tables)
            .into_iter()
            .filter(|p| p.stage == Stage::GoodCaptures)
            .map(|p| p.mv)
            .collect()
    };
    let mut tables = OrderingTables::new();
    // MVV-LVA: equal victims, the less valuable attacker (the knight) first.
    assert_eq!(captures(&tables), [nxd5, bxf5]);
    // The capture history is off: a bonus for the bishop's capture changes nothing.
    tables.update_capture(
        cozy_chess::Color::White,
        Piece::Bishop,
        bxf5.to,
        Piece::Pawn,
        1500,
    );
    assert_eq!(captures(&tables), [nxd5, bxf5]);
    // On: the capture that refuted before comes first among equal victims.
    tables.use_capture_history = true;
    assert_eq!(captures(&tables), [bxf5, nxd5]);
    // The victim still counts most: a knight on d5 instead of the pawn is taken first
    // whatever the pawn captures' histories say.
    let pos2 = Position::from_fen("4k3/8/8/3n1p2/8/2NB4/8/4K3 w - - 0 1").unwrap();
    let mut picker = MovePicker::main(&pos2, None, 0, QuietContext::NONE, None);
    let first = drain(&mut picker, &pos2, &tables)[0].mv;
    assert_eq!(first, pos2.parse_uci_move("c3d5").unwrap());
    // The quiescence picker orders its winning captures the same way when the option is on.
    let qcaptures = |tables: &OrderingTables| -> Vec<Move> {
        let mut picker = MovePicker::quiescence(None);
        picker.generate_quiescence(&pos, tables, &QSearchOptions::default(), 0);
        drain(&mut picker, &pos, tables)
            .into_iter()
            .map(|p| p.mv)
            .collect()
    };
    assert_eq!(qcaptures(&tables), [bxf5, nxd5]);
    tables.use_capture_history = false;
    assert_eq!(qcaptures(&tables), [nxd5, bxf5]);
}

fn tables_with_history(pos: &Position) -> OrderingTables {
    let mut tables = OrderingTables::new();
    let us = pos.side_to_move();
    for (i, mv) in pos.legal_moves().into_iter().enumerate() {
        let bonus = (i as i32 * 397) % 2000 - 1000;
        tables.update_quiet(us, mv, 0, QuietContext::NONE, bonus);
    }
    tables
}

#[test]
fn main_picker_yields_every_legal_move_once_in_stage_order() {
    for pos in suite() {
        let legal = pos.legal_moves();
        let mut tables = tables_with_history(&pos);
        let quiets: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| is_quiet(&pos, m))
            .collect();
        for variant in 0..3 {
            // 0: no TT move; 1: the last legal move as TT move; 2: also killers and a
            // counter-move set (and an illegal TT move, which must not come out).
            let tt = match variant {
                0 => None,
                1 => legal.last().copied(),
                _ => Some(Move {
                    from: cozy_chess::Square::A1,
                    to: cozy_chess::Square::H8,
                    promotion: None,
                })
                .filter(|m| !legal.contains(m)),
            };
            let mut ctx = QuietContext::NONE;
            if variant == 2 {
                tables.killers[3] = [quiets.first().copied(), quiets.get(1).copied()];
                ctx.prev1 = 5;
                tables.counters[5] = quiets.get(2).copied();
            }
            let mut picker = MovePicker::main(&pos, tt, 3, ctx, None);
            let picked = drain(&mut picker, &pos, &tables);
            assert_same_set(&pos, &picked, &legal);
            if variant == 1 {
                assert_eq!(picked[0].mv, tt.unwrap());
                assert_eq!(picked[0].stage, Stage::TtMove);
            } else {
                assert!(picked.iter().all(|p| p.stage != Stage::TtMove));
            }
            for p in &picked {
                let quiet = is_quiet(&pos, p.mv);
                match p.stage {
                    Stage::Killers | Stage::CounterMove | Stage::Quiets => assert!(quiet),
                    Stage::GoodCaptures | Stage::BadCaptures => assert!(!quiet),
                    Stage::UnderPromotions => {
                        assert!(matches!(p.mv.promotion, Some(q) if q != Piece::Queen))
                    }
                    Stage::TtMove => {}
                    s => panic!("{s:?} in the main picker"),
                }
                if p.stage == Stage::BadCaptures {
                    assert!(see(pos.board(), p.mv) < 0);
                }
            }
            if variant == 2 {
                for (i, k) in quiets.iter().take(2).enumerate() {
                    let p = picked.iter().find(|p| p.mv == *k).unwrap();
                    assert_eq!(p.stage, Stage::Killers, "killer {i}");
                }
            }
            tables.killers[3] = [None; 2];
            tables.counters[5] = None;
            assert_eq!(ctx.prev2, NO_CONT);
        }
    }
}

#[test]
fn main_picker_skips_quiets_but_not_captures() {
    for pos in suite().iter().step_by(7) {
        let legal = pos.legal_moves();
        let tables = tables_with_history(pos);
        let mut picker = MovePicker::main(pos, None, 0, QuietContext::NONE, None);
        let mut picked = Vec::new();
        let mut skipping = false;
        while let Some(p) = picker.next(pos, &tables) {
            if skipping {
                assert!(!is_quiet(pos, p.mv), "{}: {}", pos.fen(), p.mv);
            } else if is_quiet(pos, p.mv) {
                picker.skip_quiets();
                skipping = true;
            }
            picked.push(p);
        }
        let first_quiet = picked.iter().position(|p| is_quiet(pos, p.mv));
        let expected: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !is_quiet(pos, m) || first_quiet.is_some_and(|i| picked[i].mv == m))
            .collect();
        assert_same_set(pos, &picked, &expected);
    }
}

#[test]
fn main_picker_generates_quiet_moves_only_when_it_reaches_them() {
    for pos in suite().iter().step_by(5) {
        let tables = tables_with_history(pos);
        let legal = pos.legal_moves();
        let noisy = legal.iter().filter(|&&m| !is_quiet(pos, m)).count();
        // Until the first quiet move only the captures and promotions exist; with it, all.
        let mut picker = MovePicker::main(pos, None, 0, QuietContext::NONE, None);
        while let Some(p) = picker.next(pos, &tables) {
            if is_quiet(pos, p.mv) {
                assert_eq!(picker.generated(), legal.len(), "{}", pos.fen());
                break;
            }
            assert_eq!(picker.generated(), noisy, "{}", pos.fen());
        }
        // Late move pruning before the quiet stage: they are never generated.
        let mut picker = MovePicker::main(pos, None, 0, QuietContext::NONE, None);
        picker.skip_quiets();
        let picked = drain(&mut picker, pos, &tables);
        assert_eq!(
            (picked.len(), picker.generated()),
            (noisy, noisy),
            "{}",
            pos.fen()
        );
    }
}

#[test]
fn killers_and_counter_moves_come_only_when_legal_quiet_and_new() {
    // White to move: Nxd5 is a capture here, Ke1-e3 illegal (the pawn on d4 guards e3),
    // h2-h3 and h2-h4 legal quiet moves.
    let pos = Position::from_fen("4k3/8/8/3p4/3p4/2N5/7P/4K3 w - - 0 1").unwrap();
    let mv = |s: &str| Move {
        from: s[..2].parse().unwrap(),
        to: s[2..].parse().unwrap(),
        promotion: None,
    };
    let (capture, illegal, h3, h4) = (mv("c3d5"), mv("e1e3"), mv("h2h3"), mv("h2h4"));
    assert!(pos.board().is_legal(capture) && !pos.board().is_legal(illegal));
    let legal = pos.legal_moves();
    let mut tables = OrderingTables::new();
    let ctx = QuietContext {
        prev1: 7,
        prev2: NO_CONT,
        prev4: NO_CONT,
        pawn: 0,
    };
    for (killers, counter, tt, want) in [
        // A capture or an illegal move is no killer; the quiet one is.
        ([Some(capture), Some(illegal)], None, None, vec![]),
        (
            [Some(h3), Some(capture)],
            None,
            None,
            vec![(h3, Stage::Killers)],
        ),
        // The TT move is not yielded again as a killer; a counter-move equal to a killer
        // comes once.
        (
            [Some(h3), Some(h4)],
            Some(h4),
            Some(h3),
            vec![(h4, Stage::Killers)],
        ),
        (
            [Some(illegal), None],
            Some(h4),
            None,
            vec![(h4, Stage::CounterMove)],
        ),
    ] {
        tables.killers[2] = killers;
        tables.counters[7] = counter;
        let mut picker = MovePicker::main(&pos, tt, 2, ctx, None);
        let picked = drain(&mut picker, &pos, &tables);
        assert_same_set(&pos, &picked, &legal);
        let special: Vec<(Move, Stage)> = picked
            .iter()
            .filter(|p| matches!(p.stage, Stage::Killers | Stage::CounterMove))
            .map(|p| (p.mv, p.stage))
            .collect();
        assert_eq!(special, want, "killers {killers:?}, counter {counter:?}");
        assert_eq!(
            picked[0].stage,
            if tt.is_some() {
                Stage::TtMove
            } else {
                Stage::GoodCaptures
            }
        );
    }
}

#[test]
fn evasion_picker_yields_every_evasion_once() {
    let mut checked = 0;
    for root in suite().iter().step_by(3) {
        for mv in root.legal_moves() {
            let mut pos = root.clone();
            pos.play(mv);
            if !pos.in_check() {
                continue;
            }
            checked += 1;
            let legal = pos.legal_moves();
            let tables = tables_with_history(&pos);
            for tt in [None, legal.last().copied()] {
                let mut picker = MovePicker::quiescence(tt);
                picker.generate_quiescence(&pos, &tables, &QSearchOptions::default(), 0);
                assert_eq!(picker.no_legal_moves(), legal.is_empty(), "{}", pos.fen());
                if legal.is_empty() {
                    continue;
                }
                let picked = drain(&mut picker, &pos, &tables);
                assert_same_set(&pos, &picked, &legal);
                if let Some(tt) = tt {
                    assert_eq!(picked[0].mv, tt);
                }
                for p in &picked {
                    match p.stage {
                        Stage::GoodCaptures => assert!(!is_quiet(&pos, p.mv)),
                        Stage::Quiets => assert!(is_quiet(&pos, p.mv)),
                        Stage::TtMove => {}
                        s => panic!("{s:?} among evasions"),
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked} positions in check");
}

#[test]
fn quiescence_picker_yields_the_moves_its_options_ask_for() {
    type Config = (&'static str, fn(&mut QSearchOptions));
    let configs: [Config; 4] = [
        ("default", |_| {}),
        ("underpromotions", |o| o.underpromotions = true),
        ("pawn pushes", |o| o.pawn_pushes = true),
        ("checks", |o| o.check_plies = 1),
    ];
    for pos in suite() {
        if pos.in_check() {
            continue;
        }
        let legal = pos.legal_moves();
        let board = pos.board();
        let us = board.side_to_move();
        let tables = OrderingTables::new();
        for (name, set) in configs {
            let mut opts = QSearchOptions::default();
            set(&mut opts);
            let expected: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    let piece = board.piece_on(m.from).unwrap();
                    match m.promotion {
                        Some(Piece::Queen) => return true,
                        Some(_) => return opts.underpromotions,
                        None => {}
                    }
                    pos.captured(m).is_some()
                        || (opts.pawn_pushes
                            && piece == Piece::Pawn
                            && m.to.rank() == Rank::Seventh.relative_to(us))
                        || (opts.check_plies > 0 && piece != Piece::King && pos.gives_check(m))
                })
                .collect();
            let tt = expected.last().copied();
            let mut picker = MovePicker::quiescence(tt);
            picker.generate_quiescence(&pos, &tables, &opts, 0);
            assert!(!picker.no_legal_moves(), "suite positions have legal moves");
            let picked = drain(&mut picker, &pos, &tables);
            assert_same_set(&pos, &picked, &expected);
            if let Some(tt) = tt {
                assert_eq!(picked[0].mv, tt, "{name}");
            }
            for p in &picked {
                // The exchange value, or for a capture of a more valuable piece a lower
                // bound (victim minus attacker) that is already positive.
                let exact = see(board, p.mv);
                assert!(
                    p.see == exact || (p.see > 0 && p.see <= exact),
                    "{name}: {} has {} for {exact}",
                    p.mv,
                    p.see
                );
                let expected_stage = if p.mv == tt.unwrap() {
                    Stage::TtMove
                } else if is_quiet(&pos, p.mv) {
                    Stage::QuietTactical
                } else if p.see > 0 {
                    Stage::GoodCaptures
                } else if p.see == 0 {
                    Stage::EqualCaptures
                } else {
                    Stage::BadCaptures
                };
                assert_eq!(p.stage, expected_stage, "{name}: {} in {}", p.mv, pos.fen());
            }
        }
    }
}
