//! Checking recorded rows: each row must be the game the schedule says it is, and its moves
//! must replay under the rules to the result, termination, plies and scores it records.
//!
//! `arena run` checks every row it finds when it resumes, `arena merge` every row of every
//! shard, and `arena verify` a whole folder on demand. Only the timing columns and the node
//! counts are taken on trust (checking the node counts would mean playing the game again).
//!
//! What is checked, column by column: `experiment`, `variant`, `seed`, `players`, every
//! seat's agent and spec (`first` .. `fourth`, `first_spec` .. `fourth_spec`) and
//! `time_control` (the experiment's, schema 3) against the schedule's game of that index (the seats included: `first` must be the agent the schedule
//! seats first); `moves` begin with the game's opening (the suite's line of its block, or the
//! random opening of its opening seed), each is
//! legal and written as the arena writes it; and the position they reach decides
//! `termination`, `result`, `plies` and every seat's score. A fault (`crash`, `illegal-move`,
//! `timeout`) happens on the faulter's turn, so the side to move after the moves loses (with
//! 3-4 players: takes the last place alone); an agent that could not even start forfeits
//! before the opening, with no moves at all. A `resign` (games people played) leaves the game
//! unfinished, and the seat that resigned, on its turn or not, loses (takes the last place
//! alone).
//!
//! A play record (`arena play`, `arena serve`: rows whose experiment is `play` or `play-web`,
//! no schedule behind them) is checked row by row with [`check_played_row`]: the same replay
//! from the variant's start, with no opening and the game's own ply cap, and a `time_control`
//! that is one as the arena writes it. Every reader checks the time columns, the clocks
//! included, as finite milliseconds, 0 or more ([`record::read_rows`]).
//!
//! One module for the checks every reader of a results file makes ([`check_row`],
//! [`check_in_shard`], [`check_schema`], [`check_rows`], [`first_gap`], and
//! [`folder_experiment`]): `results` (a run that resumes), `merge` and `verify` use them.

use std::path::Path;

use rules::{Game, Outcome, Player, Variant};

use crate::ArenaError;
use crate::experiment::Experiment;
use crate::meta::{Meta, meta_path};
use crate::play::{Termination, forfeit_outcome, play_opening};
use crate::played;
use crate::record::{self, Row};
use crate::recorded::Recorded;
use crate::schedule::{self, Schedule, ScheduledGame, Shard, position_in_shard};

/// A column that does not hold what it should, and what it should hold.
struct Wrong {
    column: &'static str,
    problem: String,
}

fn wrong(column: &'static str, problem: impl Into<String>) -> Wrong {
    Wrong {
        column,
        problem: problem.into(),
    }
}

fn expect_eq(column: &'static str, found: &str, expected: &str) -> Result<(), Wrong> {
    if found == expected {
        Ok(())
    } else {
        Err(wrong(
            column,
            format!("is `{found}`, the schedule says `{expected}`"),
        ))
    }
}

/// Checks one recorded row (read from line `line` of `path`) against the game the schedule
/// gives its index and against the rules; returns that game. The error names the file, the
/// line and the column.
pub fn check_row(
    experiment: &Experiment,
    schedule: &Schedule,
    path: &Path,
    line: u64,
    row: &Row,
) -> Result<ScheduledGame, ArenaError> {
    let mismatch = |w: Wrong| ArenaError::Mismatch {
        path: path.to_path_buf(),
        line,
        game: row.game,
        column: w.column,
        problem: w.problem,
    };
    if row.game >= schedule.len() {
        return Err(mismatch(wrong(
            "game",
            format!(
                "is beyond this experiment's schedule of {} games",
                schedule.len()
            ),
        )));
    }
    let game = schedule.game(row.game);
    let variant = &experiment.variants[game.variant];
    expect_eq("experiment", &row.experiment, &experiment.name)
        .and_then(|()| expect_eq("variant", &row.variant, &variant.to_string()))
        .and_then(|()| expect_eq("seed", &row.seed.to_string(), &game.seed.to_string()))
        .and_then(|()| {
            expect_eq(
                "players",
                &row.seats().to_string(),
                &game.seats.len().to_string(),
            )
        })
        .and_then(|()| check_seats(experiment, &game, row))
        .and_then(|()| {
            let expected = experiment.time_control.map(|tc| tc.to_string());
            expect_eq(
                "time_control",
                row.time_control.as_deref().unwrap_or(""),
                expected.as_deref().unwrap_or(""),
            )
        })
        .and_then(|()| {
            let opening = Opening {
                plies: experiment.opening_plies,
                seed: game.opening_seed,
            };
            let cap = experiment.max_plies;
            rules::with_game!(variant, |start| {
                let suite = game.suite_opening(experiment, &start);
                replay(&start, &suite, opening, cap, row)
            })
        })
        .map_err(mismatch)?;
    Ok(game)
}

/// Checks one row of a play record (read from line `line` of `path`): a game people played
/// (`arena play`, `arena serve`), with no schedule behind it. Its experiment is `play` or
/// `play-web`; its variant is an arena variant of as many seats as the row has; every seat has
/// a name and a spec, `human` or an agent spec; and its moves replay from the variant's start
/// (no opening, the game's own ply cap) to its termination, result, plies and scores. The
/// error names the file, the line and the column.
pub fn check_played_row(path: &Path, line: u64, row: &Row) -> Result<(), ArenaError> {
    let mismatch = |w: Wrong| ArenaError::Mismatch {
        path: path.to_path_buf(),
        line,
        game: row.game,
        column: w.column,
        problem: w.problem,
    };
    if ![played::TERMINAL, played::BROWSER].contains(&row.experiment.as_str()) {
        return Err(mismatch(wrong(
            "experiment",
            format!(
                "is `{}`: a play record holds games played in the terminal (`{}`) or the \
                 browser (`{}`)",
                row.experiment,
                played::TERMINAL,
                played::BROWSER
            ),
        )));
    }
    let variant: Variant = row
        .variant
        .parse()
        .map_err(|e| mismatch(wrong("variant", format!("is `{}`: {e}", row.variant))))?;
    if variant.players() != row.seats() {
        return Err(mismatch(wrong(
            "players",
            format!(
                "is {}, but `{variant}` seats {}",
                row.seats(),
                variant.players()
            ),
        )));
    }
    let seats = [
        (
            "first",
            "first_spec",
            Some(&row.first),
            Some(&row.first_spec),
        ),
        (
            "second",
            "second_spec",
            Some(&row.second),
            Some(&row.second_spec),
        ),
        (
            "third",
            "third_spec",
            row.third.as_ref(),
            row.third_spec.as_ref(),
        ),
        (
            "fourth",
            "fourth_spec",
            row.fourth.as_ref(),
            row.fourth_spec.as_ref(),
        ),
    ];
    for (seat, (name_column, spec_column, name, spec)) in seats.into_iter().enumerate() {
        let name = name.map_or("", String::as_str);
        let spec = spec.map_or("", String::as_str);
        if seat >= row.seats() {
            if !name.is_empty() || !spec.is_empty() {
                return Err(mismatch(wrong(
                    name_column,
                    format!("is filled, but the game has {} seats", row.seats()),
                )));
            }
            continue;
        }
        if name.is_empty() {
            return Err(mismatch(wrong(
                name_column,
                "is empty: every seat has a name",
            )));
        }
        if spec != played::HUMAN
            && let Err(error) = spec.parse::<agents::AgentSpec>()
        {
            return Err(mismatch(wrong(
                spec_column,
                format!(
                    "is `{spec}`: neither `{}` nor an agent spec: {error}",
                    played::HUMAN
                ),
            )));
        }
    }
    check_played_time_control(row).map_err(mismatch)?;
    let opening = Opening { plies: 0, seed: 0 };
    rules::with_game!(variant, |start| replay(&start, &[], opening, 0, row)).map_err(mismatch)
}

/// A play row's time control, if it has one, is one as the arena writes it (`tc=40/60+0.6`,
/// `st=1`, `tc=180 st=30`): no schedule says which.
fn check_played_time_control(row: &Row) -> Result<(), Wrong> {
    let Some(text) = row.time_control.as_deref() else {
        return Ok(());
    };
    let problem = match text.parse::<agents::clock::TimeControl>() {
        Ok(control) if control.is_limited() && control.to_string() == text => return Ok(()),
        Ok(control) if control.is_limited() => format!("the arena writes it `{control}`"),
        Ok(_) => "no time limit is written as an empty column".to_string(),
        Err(error) => error.reason,
    };
    Err(wrong(
        "time_control",
        format!(
            "is `{text}`: {problem} (a time control as the arena writes it: `tc=40/60+0.6`, \
             `st=1`, `tc=180 st=30`)"
        ),
    ))
}

fn result_of(outcome: Outcome) -> String {
    outcome.result_text().into_owned()
}

/// The agents and specs of every seat, against the schedule's seating.
fn check_seats(experiment: &Experiment, game: &ScheduledGame, row: &Row) -> Result<(), Wrong> {
    let columns: [(&'static str, &'static str, Option<&str>, Option<&str>); 4] = [
        (
            "first",
            "first_spec",
            Some(&row.first),
            Some(&row.first_spec),
        ),
        (
            "second",
            "second_spec",
            Some(&row.second),
            Some(&row.second_spec),
        ),
        (
            "third",
            "third_spec",
            row.third.as_deref(),
            row.third_spec.as_deref(),
        ),
        (
            "fourth",
            "fourth_spec",
            row.fourth.as_deref(),
            row.fourth_spec.as_deref(),
        ),
    ];
    for (seat, (name_column, spec_column, name, spec)) in columns.into_iter().enumerate() {
        let expected = game.seats.get(seat).map(|&a| &experiment.agents[a]);
        let (want_name, want_spec) = match expected {
            Some(agent) => (agent.name.clone(), agent.spec.to_string()),
            None => (String::new(), String::new()),
        };
        expect_eq(name_column, name.unwrap_or(""), &want_name)?;
        expect_eq(spec_column, spec.unwrap_or(""), &want_spec)?;
    }
    Ok(())
}

/// The random opening a game's moves begin with.
#[derive(Clone, Copy)]
struct Opening {
    plies: u32,
    seed: u64,
}

/// Replays the row's moves from `start` (after the suite's opening `suite` and the random
/// `opening`, under the ply cap `max_plies`, 0 for the game's default) and checks what they
/// lead to.
fn replay<G: Game>(
    start: &G,
    suite: &[G::Move],
    opening: Opening,
    max_plies: u32,
    row: &Row,
) -> Result<(), Wrong> {
    let termination = Termination::parse(&row.termination).ok_or_else(|| {
        wrong(
            "termination",
            format!(
                "is `{}`: expected {}",
                row.termination,
                Termination::EXPECTED
            ),
        )
    })?;
    let texts: Vec<&str> = row.moves.split_whitespace().collect();
    if row.moves != texts.join(" ") {
        return Err(wrong(
            "moves",
            "is not written as the arena writes it: moves separated by single spaces",
        ));
    }
    // An agent that could not start forfeits before the opening: no moves at all.
    let forfeit = termination == Termination::Crash && texts.is_empty();

    let mut position = start.clone();
    if !forfeit {
        // The suite's opening of the game's block, then the random one (an experiment has at
        // most one of the two).
        let suite: Vec<String> = suite
            .iter()
            .map(|&mv| {
                let text = position.format_move(mv);
                position.play_unchecked(mv);
                text
            })
            .collect();
        let recorded: Vec<&str> = texts.iter().take(suite.len()).copied().collect();
        if recorded != suite {
            return Err(wrong(
                "moves",
                format!(
                    "begin `{}`, but the game's opening from the suite is `{}`",
                    recorded.join(" "),
                    suite.join(" ")
                ),
            ));
        }
        let texts = &texts[suite.len()..];
        let Opening { plies, seed } = opening;
        let mut opening = Vec::new();
        play_opening(&mut position, plies, seed, &mut opening);
        let recorded: Vec<&str> = texts.iter().take(opening.len()).copied().collect();
        if recorded != opening {
            return Err(wrong(
                "moves",
                format!(
                    "begin `{}`, but the game's random opening ({} plies of opening seed {}) \
                     is `{}`",
                    recorded.join(" "),
                    opening.len(),
                    seed,
                    opening.join(" ")
                ),
            ));
        }
    }
    let opening_end = position.ply();
    let cap = if max_plies == 0 {
        position.default_max_plies()
    } else {
        max_plies
    };
    let skip = (opening_end - start.ply()) as usize;
    for (index, &text) in texts.iter().enumerate().skip(skip) {
        if position.ply() >= cap.max(opening_end) {
            return Err(wrong(
                "moves",
                format!(
                    "go on past the ply cap of {cap}: move {} (`{text}`) and later",
                    index + 1
                ),
            ));
        }
        let mv = position
            .parse_move(text)
            .map_err(|error| wrong("moves", format!("move {} (`{text}`): {error}", index + 1)))?;
        let canonical = position.format_move(mv);
        if canonical != text {
            return Err(wrong(
                "moves",
                format!(
                    "move {} is written `{text}`; the arena writes it `{canonical}`",
                    index + 1
                ),
            ));
        }
        position.play_unchecked(mv);
    }

    let outcome = position.outcome();
    let expected: (Termination, Option<Outcome>) = match (outcome, termination) {
        (Some(outcome), _) => (Termination::decided(outcome.is_draw()), Some(outcome)),
        (None, _) if position.ply() >= cap => (Termination::PlyCap, Some(position.adjudicate())),
        // A person gave up an unfinished game, on their turn or not: the result says which
        // seat, and that seat must lose (take the last place alone).
        (None, Termination::Resign) => {
            let seat = row
                .faulting_seat()
                .filter(|&seat| seat < position.num_players());
            let result = seat.map(|seat| forfeit_outcome(&position, Player::seat(seat)));
            (Termination::Resign, result)
        }
        // The game went on: only a fault could have ended it, on the turn of the side to move.
        (None, t) if t.is_fault() => {
            let loser = position.side_to_move();
            let result = if forfeit {
                // Any seat may have failed to start; the result says which.
                row.faulting_seat()
                    .filter(|&seat| seat < position.num_players())
                    .map(|seat| forfeit_outcome(&position, Player::seat(seat)))
            } else {
                Some(forfeit_outcome(&position, loser))
            };
            (t, result)
        }
        // The row says the rules ended the game, and its moves do not (one of the two columns
        // was changed).
        (None, _) => {
            return Err(wrong(
                "termination",
                format!(
                    "is `{}`, but the moves leave the game unfinished after {} plies (not \
                     over, the ply cap of {cap} not reached)",
                    row.termination,
                    position.ply(),
                ),
            ));
        }
    };
    if expected.0 != termination {
        return Err(wrong(
            "termination",
            format!(
                "is `{}`, the moves end the game by `{}`",
                row.termination,
                expected.0.as_str()
            ),
        ));
    }
    let Some(result) = expected.1 else {
        let who = if termination == Termination::Resign {
            "the seat that resigned loses"
        } else {
            "an agent that could not start loses"
        };
        let form = if position.num_players() == 2 {
            "`1-0` or `0-1`".to_string()
        } else {
            format!("alone in last place ({})", position.num_players())
        };
        return Err(wrong(
            "result",
            format!("is `{}`: {who}, {form}", row.result),
        ));
    };
    if row.result != result_of(result) {
        return Err(wrong(
            "result",
            format!(
                "is `{}`, the moves replay to `{}` ({})",
                row.result,
                result_of(result),
                termination.as_str()
            ),
        ));
    }
    if row.plies != position.ply() {
        return Err(wrong(
            "plies",
            format!("is {}, the moves make {}", row.plies, position.ply()),
        ));
    }
    let totals = position.totals();
    let total = |seat: usize| totals.as_ref().and_then(|t| t.get(seat).copied());
    for (column, found, expected) in [
        ("first_score", row.first_score, total(0)),
        ("second_score", row.second_score, total(1)),
        ("third_score", row.third_score, total(2)),
        ("fourth_score", row.fourth_score, total(3)),
    ] {
        if found != expected {
            let text = |v: Option<i32>| v.map_or("empty".to_string(), |v| format!("`{v}`"));
            return Err(wrong(
                column,
                format!("is {}, the moves give {}", text(found), text(expected)),
            ));
        }
    }
    Ok(())
}

/// What the recorded rows of a results file are.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// The games recorded, as positions within the shard.
    pub recorded: Recorded,
    /// Whether the rows are in schedule order.
    pub in_order: bool,
    /// The last row's game index.
    pub last: Option<u64>,
    /// Whether an unterminated last line was left out (readers that take no lock).
    pub partial_line: bool,
}

/// The experiment a results folder was written for: `experiment` if given, else the copy
/// `arena run` leaves in the folder. Its hash must be the one the CSV's meta file records.
pub fn folder_experiment(
    dir: &Path,
    meta: &Meta,
    experiment: Option<&Experiment>,
) -> Result<Experiment, ArenaError> {
    let experiment = match experiment {
        Some(experiment) => experiment.clone(),
        None => {
            let copy = dir.join("experiment.toml");
            if !copy.exists() {
                return Err(ArenaError::Io {
                    path: copy,
                    action: "find the experiment the rows are checked against (`arena run` \
                             leaves a copy there; give the file with --experiment)",
                    error: "no such file".into(),
                });
            }
            Experiment::from_file(&copy)?
        }
    };
    if experiment.hash() != meta.experiment_hash {
        return Err(ArenaError::Experiment {
            source_name: experiment.source.clone(),
            key: String::new(),
            location: None,
            message: format!(
                "this experiment (hash {}) is not the one the games in `{}` were recorded for \
                 (hash {}, in their meta file): give that one with --experiment",
                experiment.hash(),
                dir.display(),
                meta.experiment_hash
            ),
        });
    }
    Ok(experiment)
}

/// Checks that the header of `csv` is of the CSV schema its meta file `meta` records, which is
/// the schema `experiment`'s rows are written in: rows appended under the header of another
/// schema would make a file no reader takes (a games file that another command rewrote, or a
/// shard cut back to an older schema).
pub(crate) fn check_schema(
    csv: &Path,
    meta: &Meta,
    experiment: &Experiment,
) -> Result<(), ArenaError> {
    let found = record::schema_of(csv)?;
    let expected = experiment.csv_schema();
    let problem = if found != meta.csv_schema {
        format!(
            "the header is of CSV schema {found}, but its meta file `{}` says schema {}",
            meta_path(csv).display(),
            meta.csv_schema
        )
    } else if found != expected {
        format!(
            "the header and the meta file say CSV schema {found}, but this experiment's games \
             are written in schema {expected}"
        )
    } else {
        return Ok(());
    };
    Err(ArenaError::Csv {
        path: csv.to_path_buf(),
        line: 1,
        message: format!(
            "{problem}: rows of one schema cannot go under the header of another. The file \
             was rewritten or cut back by hand or by another command (`arena play --record` \
             takes play records only): restore it from a copy, or start over with --fresh (the \
             file is moved aside, not deleted)"
        ),
    })
}

/// Checks every row of `csv` as [`ResultsFile::check_rows`] says; `whole_only` leaves out an
/// unterminated last line (a reader that takes no lock while a run appends).
pub(crate) fn check_rows(
    csv: &Path,
    experiment: &Experiment,
    schedule: &Schedule,
    shard: Shard,
    whole_only: bool,
    mut each: impl FnMut(u64, &Row, &ScheduledGame) -> Result<(), ArenaError>,
) -> Result<Checked, ArenaError> {
    let mut checked = Checked {
        in_order: true,
        ..Checked::default()
    };
    let mut visit = |line: u64, row: Row| {
        check_in_shard(csv, line, &row, schedule, shard, &mut checked.recorded)?;
        let game = check_row(experiment, schedule, csv, line, &row)?;
        if checked.last.is_some_and(|l| l > row.game) {
            checked.in_order = false;
        }
        checked.last = Some(row.game);
        each(line, &row, &game)
    };
    if whole_only {
        let partial = record::read_complete_rows(csv, &mut visit)?;
        checked.partial_line = partial;
    } else {
        record::read_rows(csv, &mut visit)?;
    }
    Ok(checked)
}

/// The first game missing before a later recorded one, if the rows of `shard` are not a prefix
/// of its games: `(missing game, the line and game of the first row after it)`. Rows are written
/// in schedule order, so such a gap is a lost row, not a run in progress.
pub(crate) fn first_gap(
    csv: &Path,
    checked: &Checked,
    shard: Shard,
) -> Result<Option<(u64, u64, u64)>, ArenaError> {
    let Some(last) = checked.recorded.last() else {
        return Ok(None);
    };
    let Some(&missing) = checked.recorded.missing(last, 1).first() else {
        return Ok(None);
    };
    let index = |position: u64| u64::from(shard.index) + position * u64::from(shard.count);
    // Found again by a plain read: the first row beyond the gap.
    let mut after = None;
    record::read_complete_rows(csv, |line, row| {
        if after.is_none() && position_in_shard(row.game, shard) > missing {
            after = Some((line, row.game));
        }
        Ok(())
    })?;
    let (line, game) = after.unwrap_or((0, index(last)));
    Ok(Some((index(missing), line, game)))
}

/// Checks that `row` belongs to `shard` and was not seen before, and marks it seen (`seen`
/// holds positions within the shard, so a shard's rows in order take one range).
pub(crate) fn check_in_shard(
    path: &Path,
    line: u64,
    row: &Row,
    schedule: &Schedule,
    shard: Shard,
    seen: &mut Recorded,
) -> Result<(), ArenaError> {
    let index = row.game;
    if index >= schedule.len() || !shard.holds(index) {
        return Err(ArenaError::Csv {
            path: path.to_path_buf(),
            line,
            message: format!("game {index} is not in shard {shard} of this experiment's schedule"),
        });
    }
    if !seen.insert(schedule::position_in_shard(index, shard)) {
        return Err(ArenaError::Csv {
            path: path.to_path_buf(),
            line,
            message: format!("game {index} is recorded twice"),
        });
    }
    Ok(())
}
