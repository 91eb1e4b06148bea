//! The options in one table: each with its name, type, default and range, its scope (the
//! search engine, the opening book of the front end, or the front end itself) and its setter.
//! The UCI front end announces the table, the XBoard front end maps its engine options to
//! `feature option=…`, and the tools (`lull solve --option Name=Value`) use the same code, so
//! that an option means the same everywhere.
//!
//! Names are matched case-insensitively, as UCI asks. An engine option carries the function
//! that sets it on an [`Engine`] ([`Apply::Engine`]); the book and front-end options carry
//! which setting they are ([`BookOption`], [`FrontEndOption`]), and the front end's session
//! (`crate::protocol::session`) applies them: [`apply_option`] checks their value and says
//! that the front end handles them.

use std::sync::OnceLock;

use crate::nnue;
use crate::params;
use crate::position::shorten;
use crate::search::{Engine, NullMoveQs, SearchOptions};
use crate::tablebase;

/// Largest `Hash` value, in MiB.
pub const MAX_HASH: i64 = 16_384;
/// Default `Hash`, in MiB.
pub const DEFAULT_HASH: usize = 16;
/// Largest `Threads` value ([`params::MAX_THREADS`], as an option value).
pub const MAX_THREADS: i64 = params::MAX_THREADS as i64;
/// Largest `MultiPV` value.
pub const MAX_MULTIPV: i64 = 256;
/// Longest value of a string option, in bytes.
pub const MAX_STRING: usize = 4096;
/// Default of the `BookDepth` option: the book is consulted in the first this many plies.
pub const DEFAULT_BOOK_DEPTH: i64 = 16;
/// Largest `BookDepth`.
pub const MAX_BOOK_DEPTH: i64 = 1024;

/// The switches of the main search's pruning and reductions (check options, on by default):
/// off, each technique is skipped (`crate::search::PruningOptions`).
pub const PRUNING_SWITCHES: [&str; 8] = [
    "Razoring",
    "ReverseFutility",
    "NullMovePruning",
    "ProbCut",
    "FutilityPruning",
    "LateMovePruning",
    "SEEPruning",
    "LateMoveReductions",
];

/// The type of an option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean (`true` / `false`).
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// A text (a file name); may be empty, which UCI writes `<empty>`.
    String {
        /// Default value.
        default: &'static str,
    },
}

/// Who acts on an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    /// The search engine ([`apply_option`] sets it).
    Engine,
    /// The front end's opening book: [`apply_option`] refuses it.
    Book,
    /// The UCI front end (pondering, move notation): [`apply_option`] refuses it.
    FrontEnd,
}

/// The book settings of the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookOption {
    /// `OwnBook`: play book moves.
    OwnBook,
    /// `BookFile`: the Polyglot file to load.
    File,
    /// `BookDepth`: consult the book in the first this many plies.
    Depth,
    /// `BookBestMove`: play the heaviest move instead of a weighted random choice.
    BestMove,
}

/// The front end's own settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEndOption {
    /// `Ponder`: the GUI may send `go ponder`.
    Ponder,
    /// `UCI_Chess960`: Chess960 castling notation.
    Chess960,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L` (`crate::wdl`).
    ShowWdl,
    /// `Statistics`: the `info string stats …` line after each search (on by default).
    Statistics,
    /// `UCI_LimitStrength`: play at the level of `UCI_Elo` (`crate::skill`).
    LimitStrength,
    /// `UCI_Elo`: the strength asked for, with `UCI_LimitStrength`.
    Elo,
    /// `Skill Level`: 0–20, 20 the full search.
    SkillLevel,
}

/// Sets a checked value (of the option's kind) on the engine; may return a line to show (how
/// many tablebases `SyzygyPath` found).
pub type EngineSetter = fn(&mut Engine, &OptionValue) -> Result<Option<String>, String>;

/// What setting a Syzygy option says in a build without tablebases (nothing otherwise).
fn syzygy_note(name: &str) -> Option<String> {
    (!tablebase::COMPILED_IN)
        .then(|| format!("{name} has no effect: {}", tablebase::NOT_COMPILED_IN))
}

/// How an option is applied: its scope, and its setter or the setting it names.
#[derive(Clone, Copy, Debug)]
pub enum Apply {
    /// An engine setting: the function sets it.
    Engine(EngineSetter),
    /// A book setting of the front end.
    Book(BookOption),
    /// A setting of the front end itself.
    FrontEnd(FrontEndOption),
}

/// One option of the table.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The name, as announced.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// Who applies it, and how.
    pub apply: Apply,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A spin value, inside the range.
    Int(i64),
    /// A check value.
    Bool(bool),
    /// A button press.
    Press,
    /// A string value (empty for `<empty>` or no value).
    Text(String),
}

impl OptionValue {
    /// The integer of a spin value (0 for any other kind).
    pub fn int(&self) -> i64 {
        match self {
            Self::Int(n) => *n,
            _ => 0,
        }
    }

    /// The flag of a check value (false for any other kind).
    pub fn flag(&self) -> bool {
        matches!(self, Self::Bool(true))
    }

    /// The text of a string value (empty for any other kind).
    pub fn text(&self) -> &str {
        match self {
            Self::Text(t) => t,
            _ => "",
        }
    }
}

/// Whether `t` is an optionally signed run of decimal digits (of any length).
pub fn is_integer(t: &str) -> bool {
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

impl OptionSpec {
    /// Who acts on the option.
    pub fn scope(&self) -> OptionScope {
        match self.apply {
            Apply::Engine(_) => OptionScope::Engine,
            Apply::Book(_) => OptionScope::Book,
            Apply::FrontEnd(_) => OptionScope::FrontEnd,
        }
    }

    /// The `option name … type …` line of the `uci` answer.
    pub fn uci_line(&self) -> String {
        match self.kind {
            OptionKind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            OptionKind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionKind::Button => format!("option name {} type button", self.name),
            OptionKind::String { default } => format!(
                "option name {} type string default {}",
                self.name,
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            ),
        }
    }

    /// Checks a value for this option (`None` when no value was given).
    pub fn parse_value(&self, value: Option<&str>) -> Result<OptionValue, String> {
        let value = value.map(str::trim);
        match self.kind {
            OptionKind::Spin { min, max, .. } => {
                let Some(v) = value.filter(|v| !v.is_empty()) else {
                    return Err(format!("option '{}' needs a value", self.name));
                };
                match v.parse::<i64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Int(n)),
                    Ok(n) => Err(format!(
                        "value {n} for option '{}' is out of range {min}..{max}",
                        self.name
                    )),
                    // Digits that do not fit an i64 are a number, just far too large.
                    Err(_) if is_integer(v) => Err(format!(
                        "value {} for option '{}' is out of range {min}..{max}",
                        shorten(v, 64),
                        self.name
                    )),
                    Err(_) => Err(format!(
                        "value '{}' for option '{}' is not an integer",
                        shorten(v, 64),
                        self.name
                    )),
                }
            }
            OptionKind::Check { .. } => match value.filter(|v| !v.is_empty()) {
                Some(v) if v.eq_ignore_ascii_case("true") => Ok(OptionValue::Bool(true)),
                Some(v) if v.eq_ignore_ascii_case("false") => Ok(OptionValue::Bool(false)),
                Some(v) => Err(format!(
                    "value '{}' for option '{}' must be true or false",
                    shorten(v, 64),
                    self.name
                )),
                None => Err(format!(
                    "option '{}' needs a value (true or false)",
                    self.name
                )),
            },
            OptionKind::Button => Ok(OptionValue::Press),
            OptionKind::String { .. } => {
                // No value, an empty one and UCI's `<empty>` all clear the option.
                let v = value.unwrap_or("");
                let v = if v == "<empty>" { "" } else { v };
                if v.len() > MAX_STRING {
                    Err(format!(
                        "value for option '{}' is longer than {MAX_STRING} bytes",
                        self.name
                    ))
                } else if v.chars().any(char::is_control) {
                    Err(format!(
                        "value '{}' for option '{}' contains control characters",
                        shorten(v, 64).escape_debug(),
                        self.name
                    ))
                } else {
                    Ok(OptionValue::Text(v.to_string()))
                }
            }
        }
    }
}

/// The table of options, in the order the `uci` command announces them: built once, on the
/// first call.
pub fn option_specs() -> &'static [OptionSpec] {
    static TABLE: OnceLock<Vec<OptionSpec>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// The table of options. The defaults of the engine options are those of
/// [`SearchOptions::default`] (and of the modules that own them: `params`, `nnue`), so that an
/// engine built without options and one given every option at its default search alike.
fn build_table() -> Vec<OptionSpec> {
    let s = SearchOptions::default();
    let q = s.qs;
    let spin = |name, default: i64, min, max, set| OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
        apply: Apply::Engine(set),
    };
    let check = |name, default, set| OptionSpec {
        name,
        kind: OptionKind::Check { default },
        apply: Apply::Engine(set),
    };
    let other = |name, kind, apply| OptionSpec { name, kind, apply };
    let front = |name, which| {
        let kind = OptionKind::Check { default: false };
        other(name, kind, Apply::FrontEnd(which))
    };
    // The setters: `v` is checked against the option's kind and range.
    let mut table = vec![
        spin("Hash", DEFAULT_HASH as i64, 1, MAX_HASH, |e, v| {
            e.set_hash(v.int() as usize).map(|()| None)
        }),
        spin("Threads", 1, 1, MAX_THREADS, |e, v| {
            e.set_threads(v.int() as usize);
            Ok(None)
        }),
        spin("Move Overhead", s.move_overhead as i64, 0, 5000, |e, v| {
            e.options.move_overhead = v.int() as u64;
            Ok(None)
        }),
        spin("MultiPV", s.multipv as i64, 1, MAX_MULTIPV, |e, v| {
            e.options.multipv = v.int() as usize;
            Ok(None)
        }),
        check("CaptureHistory", s.capture_history, |e, v| {
            e.options.capture_history = v.flag();
            Ok(None)
        }),
        check("SingularExtensions", s.singular_extensions, |e, v| {
            e.options.singular_extensions = v.flag();
            Ok(None)
        }),
        // The main search's pruning and reductions, one switch each (all on by default).
        check("Razoring", s.pruning.razoring, |e, v| {
            e.options.pruning.razoring = v.flag();
            Ok(None)
        }),
        check("ReverseFutility", s.pruning.reverse_futility, |e, v| {
            e.options.pruning.reverse_futility = v.flag();
            Ok(None)
        }),
        check("NullMovePruning", s.pruning.null_move, |e, v| {
            e.options.pruning.null_move = v.flag();
            Ok(None)
        }),
        check("ProbCut", s.pruning.probcut, |e, v| {
            e.options.pruning.probcut = v.flag();
            Ok(None)
        }),
        check("FutilityPruning", s.pruning.futility, |e, v| {
            e.options.pruning.futility = v.flag();
            Ok(None)
        }),
        check("LateMovePruning", s.pruning.late_move_pruning, |e, v| {
            e.options.pruning.late_move_pruning = v.flag();
            Ok(None)
        }),
        check("SEEPruning", s.pruning.see, |e, v| {
            e.options.pruning.see = v.flag();
            Ok(None)
        }),
        check(
            "LateMoveReductions",
            s.pruning.late_move_reductions,
            |e, v| {
                e.options.pruning.late_move_reductions = v.flag();
                Ok(None)
            },
        ),
        // Analysis for tactics and mate problems (`SearchOptions::effective`): no reverse
        // futility, whatever `ReverseFutility` says, and the other changes listed there.
        check("TacticalMode", s.tactical, |e, v| {
            e.options.tactical = v.flag();
            Ok(None)
        }),
        other(
            "Clear Hash",
            OptionKind::Button,
            Apply::Engine(|e, _| {
                e.clear();
                Ok(None)
            }),
        ),
        // A GUI's analysis: the search runs with TacticalMode's settings.
        check("UCI_AnalyseMode", s.analyse_mode, |e, v| {
            e.options.analyse_mode = v.flag();
            Ok(None)
        }),
        front("Ponder", FrontEndOption::Ponder),
        front("UCI_Chess960", FrontEndOption::Chess960),
        front("UCI_ShowWDL", FrontEndOption::ShowWdl),
        other(
            "Statistics",
            OptionKind::Check { default: true },
            Apply::FrontEnd(FrontEndOption::Statistics),
        ),
        front("UCI_LimitStrength", FrontEndOption::LimitStrength),
        other(
            "UCI_Elo",
            OptionKind::Spin {
                default: params::SKILL_ELO_MAX,
                min: params::SKILL_ELO_MIN,
                max: params::SKILL_ELO_MAX,
            },
            Apply::FrontEnd(FrontEndOption::Elo),
        ),
        other(
            "Skill Level",
            OptionKind::Spin {
                default: crate::skill::MAX_LEVEL,
                min: 0,
                max: crate::skill::MAX_LEVEL,
            },
            Apply::FrontEnd(FrontEndOption::SkillLevel),
        ),
        other(
            "OwnBook",
            OptionKind::Check { default: false },
            Apply::Book(BookOption::OwnBook),
        ),
        other(
            "BookFile",
            OptionKind::String { default: "" },
            Apply::Book(BookOption::File),
        ),
        other(
            "BookDepth",
            OptionKind::Spin {
                default: DEFAULT_BOOK_DEPTH,
                min: 0,
                max: MAX_BOOK_DEPTH,
            },
            Apply::Book(BookOption::Depth),
        ),
        other(
            "BookBestMove",
            OptionKind::Check { default: false },
            Apply::Book(BookOption::BestMove),
        ),
        check("QSearch", q.enabled, |e, v| {
            e.options.qs.enabled = v.flag();
            Ok(None)
        }),
        spin("QSearchMaxPly", q.max_ply as i64, 0, 100, |e, v| {
            e.options.qs.max_ply = v.int() as i32;
            Ok(None)
        }),
        spin(
            "QSearchMaxNodes",
            q.max_nodes as i64,
            0,
            1_000_000_000,
            |e, v| {
                e.options.qs.max_nodes = v.int() as u64;
                Ok(None)
            },
        ),
        spin("QSearchChecks", q.check_plies as i64, 0, 8, |e, v| {
            e.options.qs.check_plies = v.int() as i32;
            Ok(None)
        }),
        spin(
            "QSearchSEE",
            q.see_threshold as i64,
            -10_000,
            1000,
            |e, v| {
                e.options.qs.see_threshold = v.int() as i32;
                Ok(None)
            },
        ),
        spin("QSearchDelta", q.delta_margin as i64, 0, 2000, |e, v| {
            e.options.qs.delta_margin = v.int() as i32;
            Ok(None)
        }),
        check("QSearchDeltaChecks", q.delta_spares_checks, |e, v| {
            e.options.qs.delta_spares_checks = v.flag();
            Ok(None)
        }),
        check("QSearchTT", q.use_tt, |e, v| {
            e.options.qs.use_tt = v.flag();
            Ok(None)
        }),
        check("QSearchUnderpromotions", q.underpromotions, |e, v| {
            e.options.qs.underpromotions = v.flag();
            Ok(None)
        }),
        check("QSearchPawnPushes", q.pawn_pushes, |e, v| {
            e.options.qs.pawn_pushes = v.flag();
            Ok(None)
        }),
        spin(
            "QSearchRecapturesAfter",
            q.recaptures_after as i64,
            0,
            32,
            |e, v| {
                e.options.qs.recaptures_after = v.int() as i32;
                Ok(None)
            },
        ),
        spin("QSearchNullMove", q.null_move as i64, 0, 2, |e, v| {
            e.options.qs.null_move = NullMoveQs::from_spin(v.int());
            Ok(None)
        }),
        // The network before its switch: a GUI that sends the options in the announced
        // order loads the file first (the tools sort them so, see `application_order`).
        other(
            "EvalFile",
            OptionKind::String {
                default: nnue::EVAL_FILE_DEFAULT,
            },
            Apply::Engine(|e, v| e.set_eval_file(v.text()).map(|()| None)),
        ),
        // On with the embedded network (nnue::USE_NNUE_DEFAULT).
        check("Use NNUE", nnue::USE_NNUE_DEFAULT, |e, v| {
            e.set_use_nnue(v.flag()).map(|()| None)
        }),
        // Syzygy tablebases, with Stockfish's names and meanings.
        other(
            "SyzygyPath",
            OptionKind::String { default: "" },
            Apply::Engine(|e, v| e.set_syzygy_path(v.text()).map(Some)),
        ),
        spin(
            "SyzygyProbeDepth",
            s.syzygy_probe_depth as i64,
            1,
            100,
            |e, v| {
                e.options.syzygy_probe_depth = v.int() as i32;
                Ok(syzygy_note("SyzygyProbeDepth"))
            },
        ),
        check("Syzygy50MoveRule", s.syzygy_50_move_rule, |e, v| {
            e.options.syzygy_50_move_rule = v.flag();
            Ok(syzygy_note("Syzygy50MoveRule"))
        }),
        spin(
            "SyzygyProbeLimit",
            s.syzygy_probe_limit as i64,
            0,
            7,
            |e, v| {
                e.options.syzygy_probe_limit = v.int() as usize;
                Ok(syzygy_note("SyzygyProbeLimit"))
            },
        ),
    ];
    if cfg!(feature = "tune") {
        table.extend(tunable_options());
    }
    table
}

/// The tuning build's options (`--features tune`): every main-search number of
/// [`params::TUNABLE_SPECS`] as a spin option of its name, default and range, so that a tuner
/// that drives engines through UCI (OpenBench's SPSA) can set them. The release build has
/// none of them.
pub fn tunable_options() -> Vec<OptionSpec> {
    params::TUNABLE_SPECS
        .iter()
        .zip(TUNABLE_SETTERS)
        .map(|(spec, set)| OptionSpec {
            name: spec.name,
            kind: OptionKind::Spin {
                default: spec.default as i64,
                min: spec.min as i64,
                max: spec.max as i64,
            },
            apply: Apply::Engine(set),
        })
        .collect()
}

/// The lines OpenBench's SPSA takes as its input, one per tunable number: `name, int,
/// default, min, max, c_end, r_end` (`c_end`: the last perturbation, in the number's unit;
/// `r_end`: the last step's ratio to it squared).
pub fn openbench_spsa_input(r_end: f64) -> Vec<String> {
    params::TUNABLE_SPECS
        .iter()
        .map(|t| {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                t.name, t.default, t.min, t.max, t.c_end, r_end
            )
        })
        .collect()
}

/// Sets the tunable number at index `I` of [`params::TUNABLE_SPECS`] (one setter an index,
/// since a setter is a plain function).
fn set_tunable<const I: usize>(e: &mut Engine, v: &OptionValue) -> Result<Option<String>, String> {
    e.options.tunables.set(I, v.int() as i32);
    Ok(None)
}

/// Setters for the tunable numbers, one an index of [`params::TUNABLE_SPECS`] (zipped with
/// it; the extra ones are unused).
const TUNABLE_SETTERS: [EngineSetter; 40] = [
    set_tunable::<0>,
    set_tunable::<1>,
    set_tunable::<2>,
    set_tunable::<3>,
    set_tunable::<4>,
    set_tunable::<5>,
    set_tunable::<6>,
    set_tunable::<7>,
    set_tunable::<8>,
    set_tunable::<9>,
    set_tunable::<10>,
    set_tunable::<11>,
    set_tunable::<12>,
    set_tunable::<13>,
    set_tunable::<14>,
    set_tunable::<15>,
    set_tunable::<16>,
    set_tunable::<17>,
    set_tunable::<18>,
    set_tunable::<19>,
    set_tunable::<20>,
    set_tunable::<21>,
    set_tunable::<22>,
    set_tunable::<23>,
    set_tunable::<24>,
    set_tunable::<25>,
    set_tunable::<26>,
    set_tunable::<27>,
    set_tunable::<28>,
    set_tunable::<29>,
    set_tunable::<30>,
    set_tunable::<31>,
    set_tunable::<32>,
    set_tunable::<33>,
    set_tunable::<34>,
    set_tunable::<35>,
    set_tunable::<36>,
    set_tunable::<37>,
    set_tunable::<38>,
    set_tunable::<39>,
];
// More tunable numbers than setters would leave some without an option: add setters above.
const _: () = assert!(params::TUNABLE_SPECS.len() <= TUNABLE_SETTERS.len());

/// Where an option goes when several are applied at once (the tools' `--option`s): the
/// options that others need first (`EvalFile` before `Use NNUE`, which refuses to turn on
/// without a network), the others after, each group in the order given. Sort with a stable
/// sort by this key.
pub fn application_order(name: &str) -> u8 {
    u8::from(!name.trim().eq_ignore_ascii_case("EvalFile"))
}

/// The option of that name (case-insensitive, surrounding spaces ignored).
pub fn find_option(name: &str) -> Option<OptionSpec> {
    let name = name.trim();
    option_specs()
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .copied()
}

/// Finds an option and checks a value for it.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<(OptionSpec, OptionValue), String> {
    let spec = find_option(name)
        .ok_or_else(|| format!("unknown option '{}'", shorten(name.trim(), 64)))?;
    let value = spec.parse_value(value)?;
    Ok((spec, value))
}

/// Sets an engine option from its name and value text (`None` for a button or a missing
/// value). Unknown names, bad values and book or front-end options are errors; the engine is
/// then unchanged. Returns the line the option has to show, if any.
pub fn apply_option(
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<Option<String>, String> {
    let (spec, value) = parse_option(name, value)?;
    apply_value(engine, &spec, &value)
}

/// Applies a checked value (see [`parse_option`]) of an engine option to the engine.
pub fn apply_value(
    engine: &mut Engine,
    spec: &OptionSpec,
    value: &OptionValue,
) -> Result<Option<String>, String> {
    match spec.apply {
        Apply::Engine(set) => set(engine, value),
        Apply::Book(_) | Apply::FrontEnd(_) => Err(format!(
            "option '{}' is handled by the UCI front end, not by the engine",
            spec.name
        )),
    }
}

/// Splits a command-line `Name=Value` (or `Name` alone, for a button) at the first `=`.
pub fn split_assignment(text: &str) -> (&str, Option<&str>) {
    match text.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim())),
        None => (text.trim(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::QSearchOptions;
    use crate::time::Limits;

    #[test]
    fn the_tuning_options_set_each_its_own_number() {
        let options = tunable_options();
        assert_eq!(options.len(), params::TUNABLE_SPECS.len());
        // The release build announces none of them.
        assert_eq!(
            cfg!(feature = "tune"),
            option_specs()
                .iter()
                .any(|o| o.name == params::TUNABLE_SPECS[0].name)
        );
        for (i, (option, spec)) in options.iter().zip(params::TUNABLE_SPECS).enumerate() {
            assert_eq!(option.name, spec.name);
            let OptionKind::Spin { default, min, max } = option.kind else {
                panic!("{} is not a spin option", option.name);
            };
            assert_eq!(
                (default, min, max),
                (spec.default as i64, spec.min as i64, spec.max as i64)
            );
            // The setter of option i moves number i, and no other.
            let mut e = Engine::new(1);
            let before = e.options.tunables;
            let value = option.parse_value(Some(&spec.max.to_string())).unwrap();
            apply_value(&mut e, option, &value).unwrap();
            for j in 0..params::TUNABLE_SPECS.len() {
                let expected = if j == i { spec.max } else { before.get(j) };
                assert_eq!(e.options.tunables.get(j), expected, "{} set {j}", spec.name);
            }
            // Out of range is refused by the option's kind.
            assert!(option
                .parse_value(Some(&(spec.max + 1).to_string()))
                .is_err());
        }
    }

    #[test]
    fn the_openbench_input_has_one_line_per_number() {
        let lines = openbench_spsa_input(0.002);
        assert_eq!(lines.len(), params::TUNABLE_SPECS.len());
        let first = &params::TUNABLE_SPECS[0];
        assert_eq!(
            lines[0],
            format!(
                "{}, int, {}, {}, {}, {}, 0.002",
                first.name, first.default, first.min, first.max, first.c_end
            )
        );
        for line in &lines {
            assert_eq!(line.split(", ").count(), 7, "{line}");
        }
    }

    #[test]
    fn table_has_every_option_with_its_range() {
        let specs = option_specs();
        // (The tuning build's options come after these; the test above checks them.)
        let tunable = |n: &str| params::TUNABLE_SPECS.iter().any(|t| t.name == n);
        let names: Vec<&str> = specs
            .iter()
            .map(|s| s.name)
            .filter(|n| !tunable(n))
            .collect();
        assert_eq!(
            names,
            [
                "Hash",
                "Threads",
                "Move Overhead",
                "MultiPV",
                "CaptureHistory",
                "SingularExtensions",
                "Razoring",
                "ReverseFutility",
                "NullMovePruning",
                "ProbCut",
                "FutilityPruning",
                "LateMovePruning",
                "SEEPruning",
                "LateMoveReductions",
                "TacticalMode",
                "Clear Hash",
                "UCI_AnalyseMode",
                "Ponder",
                "UCI_Chess960",
                "UCI_ShowWDL",
                "Statistics",
                "UCI_LimitStrength",
                "UCI_Elo",
                "Skill Level",
                "OwnBook",
                "BookFile",
                "BookDepth",
                "BookBestMove",
                "QSearch",
                "QSearchMaxPly",
                "QSearchMaxNodes",
                "QSearchChecks",
                "QSearchSEE",
                "QSearchDelta",
                "QSearchDeltaChecks",
                "QSearchTT",
                "QSearchUnderpromotions",
                "QSearchPawnPushes",
                "QSearchRecapturesAfter",
                "QSearchNullMove",
                "EvalFile",
                "Use NNUE",
                "SyzygyPath",
                "SyzygyProbeDepth",
                "Syzygy50MoveRule",
                "SyzygyProbeLimit",
            ]
        );
        for name in PRUNING_SWITCHES {
            assert_eq!(
                find_option(name).unwrap().kind,
                OptionKind::Check { default: true },
                "{name}"
            );
        }
        assert_eq!(
            find_option("use nnue").unwrap().uci_line(),
            format!(
                "option name Use NNUE type check default {}",
                nnue::USE_NNUE_DEFAULT
            )
        );
        assert_eq!(
            find_option("evalfile").unwrap().uci_line(),
            format!(
                "option name EvalFile type string default {}",
                if nnue::DEFAULT_NET.is_some() {
                    "<default>"
                } else {
                    "<empty>"
                }
            )
        );
        assert_eq!(
            find_option("EvalFile").unwrap().scope(),
            OptionScope::Engine
        );
        assert_eq!(
            find_option("hash").unwrap().uci_line(),
            "option name Hash type spin default 16 min 1 max 16384"
        );
        assert_eq!(
            find_option("QSEARCH").unwrap().uci_line(),
            "option name QSearch type check default true"
        );
        assert_eq!(
            find_option("clear hash").unwrap().uci_line(),
            "option name Clear Hash type button"
        );
        assert_eq!(
            find_option("bookfile").unwrap().uci_line(),
            "option name BookFile type string default <empty>"
        );
        assert_eq!(
            find_option("OwnBook").unwrap().uci_line(),
            "option name OwnBook type check default false"
        );
        assert_eq!(
            find_option("BookDepth").unwrap().uci_line(),
            "option name BookDepth type spin default 16 min 0 max 1024"
        );
        for name in ["OwnBook", "BookFile", "BookDepth", "BookBestMove"] {
            assert_eq!(find_option(name).unwrap().scope(), OptionScope::Book);
        }
        for name in [
            "Ponder",
            "UCI_Chess960",
            "UCI_ShowWDL",
            "Statistics",
            "UCI_LimitStrength",
            "UCI_Elo",
            "Skill Level",
        ] {
            assert_eq!(find_option(name).unwrap().scope(), OptionScope::FrontEnd);
        }
        assert_eq!(
            find_option("skill level").unwrap().uci_line(),
            "option name Skill Level type spin default 20 min 0 max 20"
        );
        assert_eq!(
            find_option("UCI_Elo").unwrap().uci_line(),
            format!(
                "option name UCI_Elo type spin default {max} min {min} max {max}",
                min = params::SKILL_ELO_MIN,
                max = params::SKILL_ELO_MAX
            )
        );
        assert_eq!(
            find_option("Statistics").unwrap().uci_line(),
            "option name Statistics type check default true"
        );
        // UCI_AnalyseMode is TacticalMode's settings under the GUI's name.
        let mut e = Engine::new(1);
        apply_option(&mut e, "UCI_AnalyseMode", Some("true")).unwrap();
        let mut t = Engine::new(1);
        apply_option(&mut t, "TacticalMode", Some("true")).unwrap();
        let (a, t) = (e.options.effective(), t.options.effective());
        assert_eq!(
            (a.pruning, a.qs, a.aspiration_growth_divisor),
            (t.pruning, t.qs, t.aspiration_growth_divisor)
        );
        assert_ne!(a.pruning, Engine::new(1).options.effective().pruning);
        // Every engine option carries its setter, every other one the setting it names.
        for s in specs {
            let engine = matches!(s.apply, Apply::Engine(_));
            assert_eq!(engine, s.scope() == OptionScope::Engine, "{}", s.name);
        }
        assert_eq!(
            find_option("QSearchSEE").unwrap().kind,
            OptionKind::Spin {
                default: params::QS_SEE_THRESHOLD as i64,
                min: -10_000,
                max: 1000
            }
        );
        // Every spin default lies in its range.
        for s in specs {
            if let OptionKind::Spin { default, min, max } = s.kind {
                assert!((min..=max).contains(&default), "{}", s.name);
            }
        }
        assert!(find_option("Hash2").is_none());
    }

    #[test]
    fn the_table_is_built_once_and_its_defaults_are_the_engines() {
        assert!(std::ptr::eq(option_specs(), option_specs()));
        // An engine given every engine option at its table default searches as one built
        // without options: the defaults come from `SearchOptions::default` and `params`.
        let fresh = Engine::new(DEFAULT_HASH);
        let mut set = Engine::new(DEFAULT_HASH);
        let mut applied = 0;
        for spec in option_specs() {
            let value = match spec.kind {
                OptionKind::Spin { default, .. } => OptionValue::Int(default),
                OptionKind::Check { default } => OptionValue::Bool(default),
                _ => continue,
            };
            if let Apply::Engine(setter) = spec.apply {
                setter(&mut set, &value).unwrap();
                applied += 1;
            }
        }
        assert!(applied > 20, "{applied} options applied");
        assert_eq!(format!("{:?}", set.options), format!("{:?}", fresh.options));
        assert_eq!(
            (set.threads(), set.hash_mib(), set.use_nnue()),
            (fresh.threads(), fresh.hash_mib(), fresh.use_nnue())
        );
        assert_eq!(set.options.multipv, 1);
        assert_eq!(set.options.syzygy_probe_depth, 1);
        assert_eq!(set.options.syzygy_probe_limit, 7);
    }

    #[test]
    fn tactical_mode_sets_what_the_search_runs_with_and_keeps_the_options() {
        let mut e = Engine::new(1);
        apply_option(&mut e, "QSearchChecks", Some("2")).unwrap();
        apply_option(&mut e, "tacticalmode", Some("true")).unwrap();
        assert!(e.options.tactical);
        // The options as set stay as they were; the search runs with the tactical ones.
        assert!(e.options.pruning.reverse_futility);
        assert!(!e.options.qs.delta_spares_checks);
        let run = e.options.effective();
        assert!(!run.pruning.reverse_futility);
        assert_eq!(run.pruning.null_move_eval_reduction_max, 2);
        assert!(run.pruning.null_move && run.pruning.late_move_pruning);
        assert!(run.pruning.late_move_pruning_keeps_checks);
        assert!(!run.pruning.futility && e.options.pruning.futility);
        assert_eq!(run.aspiration_growth_divisor, 1);
        assert!(run.qs.delta_spares_checks);
        // Quiet checks in at least the first q-ply: a larger setting is kept.
        assert_eq!(run.qs.check_plies, 2);
        apply_option(&mut e, "QSearchChecks", Some("0")).unwrap();
        assert_eq!(e.options.effective().qs.check_plies, 1);
        // Off, the search runs with the options as set.
        apply_option(&mut e, "TacticalMode", Some("false")).unwrap();
        let run = e.options.effective();
        assert_eq!(run.pruning, e.options.pruning);
        assert!(run.pruning.reverse_futility);
        assert_eq!(run.pruning.null_move_eval_reduction_max, 3);
        assert!(!run.pruning.late_move_pruning_keeps_checks);
        assert!(run.pruning.futility);
        assert_eq!(run.aspiration_growth_divisor, 2);
        assert_eq!(run.qs, e.options.qs);
    }

    #[test]
    fn apply_sets_the_engine() {
        let mut e = Engine::new(1);
        apply_option(&mut e, "qsearch", Some("false")).unwrap();
        assert!(!e.options.qs.enabled);
        apply_option(&mut e, "QSearch", Some(" TRUE ")).unwrap();
        assert!(e.options.qs.enabled);
        apply_option(&mut e, "QSearchMaxPly", Some("7")).unwrap();
        apply_option(&mut e, "qsearchmaxnodes", Some("5000")).unwrap();
        apply_option(&mut e, "QSearchChecks", Some("2")).unwrap();
        apply_option(&mut e, "QSearchSEE", Some("-50")).unwrap();
        apply_option(&mut e, "QSearchDelta", Some("0")).unwrap();
        apply_option(&mut e, "QSearchDeltaChecks", Some("true")).unwrap();
        apply_option(&mut e, "QSearchTT", Some("false")).unwrap();
        apply_option(&mut e, "QSearchUnderpromotions", Some("true")).unwrap();
        apply_option(&mut e, "QSearchPawnPushes", Some("true")).unwrap();
        apply_option(&mut e, "QSearchRecapturesAfter", Some("3")).unwrap();
        apply_option(&mut e, "QSearchNullMove", Some("2")).unwrap();
        let q = e.options.qs;
        assert_eq!(
            q,
            QSearchOptions {
                enabled: true,
                max_ply: 7,
                max_nodes: 5000,
                check_plies: 2,
                see_threshold: -50,
                delta_margin: 0,
                delta_spares_checks: true,
                use_tt: false,
                underpromotions: true,
                pawn_pushes: true,
                recaptures_after: 3,
                null_move: NullMoveQs::EveryPly,
            }
        );
        apply_option(&mut e, "Move Overhead", Some("100")).unwrap();
        assert_eq!(e.options.move_overhead, 100);
        apply_option(&mut e, "move overhead", Some("0")).unwrap();
        assert_eq!(e.options.move_overhead, 0);
        apply_option(&mut e, "Threads", Some("3")).unwrap();
        assert_eq!(e.threads(), 3);
        apply_option(&mut e, "Hash", Some("2")).unwrap();
        assert_eq!(e.hash_mib(), 2);
        // The engine still searches after all that.
        let r = e.search(&Position::startpos(), &Limits::depth(2), &[]);
        assert!(r.best_move.is_some());
        apply_option(&mut e, "Clear Hash", None).unwrap();
        apply_option(&mut e, "clear hash", Some("ignored")).unwrap();
    }

    #[test]
    fn bad_names_and_values_are_errors_and_change_nothing() {
        let mut e = Engine::new(1);
        let before = e.options.clone();
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("Hashes", Some("1"), "unknown option"),
            ("", None, "unknown option"),
            ("Hash", None, "needs a value"),
            ("Hash", Some(""), "needs a value"),
            ("Hash", Some("0"), "out of range 1..16384"),
            ("Hash", Some("16385"), "out of range"),
            ("Threads", Some("many"), "not an integer"),
            ("Threads", Some("2.5"), "not an integer"),
            (
                "Threads",
                Some("99999999999999999999"),
                "out of range 1..256",
            ),
            (
                "Hash",
                Some("-99999999999999999999"),
                "out of range 1..16384",
            ),
            ("QSearch", Some("yes"), "must be true or false"),
            ("QSearch", None, "needs a value (true or false)"),
            ("QSearch", Some("  "), "needs a value (true or false)"),
            ("QSearchSEE", Some("-10001"), "out of range"),
            ("QSearchNullMove", Some("3"), "out of range 0..2"),
            ("Ponder", Some("true"), "front end"),
            ("UCI_Chess960", Some("true"), "front end"),
            ("UCI_Chess960", Some("maybe"), "true or false"),
            ("OwnBook", Some("true"), "front end"),
            ("OwnBook", Some("1"), "true or false"),
            ("BookFile", Some("book.bin"), "front end"),
            ("BookDepth", Some("-1"), "out of range 0..1024"),
            ("BookBestMove", None, "needs a value"),
        ];
        for (name, value, expected) in cases {
            let err = apply_option(&mut e, name, *value).unwrap_err();
            assert!(err.contains(expected), "{name} {value:?}: {err}");
        }
        assert_eq!(e.options.qs, before.qs);
        assert_eq!(e.options.move_overhead, before.move_overhead);
        assert_eq!(e.hash_mib(), 1);
        assert_eq!(e.threads(), 1);
    }

    #[test]
    fn string_values() {
        let spec = find_option("BookFile").unwrap();
        let text = |v: Option<&str>| spec.parse_value(v);
        assert_eq!(text(None), Ok(OptionValue::Text(String::new())));
        assert_eq!(text(Some("<empty>")), Ok(OptionValue::Text(String::new())));
        assert_eq!(text(Some("  ")), Ok(OptionValue::Text(String::new())));
        assert_eq!(
            text(Some(" /books/my book.bin ")),
            Ok(OptionValue::Text("/books/my book.bin".into()))
        );
        assert!(text(Some("a\u{7}b"))
            .unwrap_err()
            .contains("control characters"));
        let long = "x".repeat(MAX_STRING + 1);
        assert!(text(Some(&long)).unwrap_err().contains("longer than"));
    }

    #[test]
    fn assignments_split_at_the_first_equals_sign() {
        assert_eq!(
            split_assignment("QSearch=false"),
            ("QSearch", Some("false"))
        );
        assert_eq!(
            split_assignment("Move Overhead = 10"),
            ("Move Overhead", Some("10"))
        );
        assert_eq!(split_assignment("Clear Hash"), ("Clear Hash", None));
        assert_eq!(split_assignment("a=b=c"), ("a", Some("b=c")));
    }
}
