//! The position export (`arena::positions`): what it writes reads back as the recorded games'
//! positions, moves and results; sampling and deduplication are seeded; bad inputs are
//! refused in words.

use crate::common;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use agents::AgentGame as _;
use arena::npz::{Dtype, Npz};
use arena::positions::{ExportOptions, ExportSummary, Sample, export};
use arena::{Experiment, Shard, run};
use common::scratch;
use rules::{Game, Outcome, Player, Variant, encoding};

const EXPERIMENT: &str = r#"
name = "learning"
seed = 11
games_per_pair = 4
variants = ["tictactoe", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "easy"
spec = "easy"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "crashes"
spec = "fault:mode=panic,after=2"
"#;

/// A finished run (a crashing agent among the others, so some games end by a fault).
fn finished(name: &str) -> PathBuf {
    let out = scratch(name);
    let experiment = Experiment::from_toml(EXPERIMENT, "learning.toml").unwrap();
    run(&experiment, &common::options(&out, 2, Shard::WHOLE)).unwrap();
    out
}

fn options(variant: &str) -> ExportOptions {
    ExportOptions {
        variant: Some(variant.parse().unwrap()),
        ..ExportOptions::default()
    }
}

fn export_to(run: &Path, name: &str, options: &ExportOptions) -> (PathBuf, ExportSummary) {
    let out = run.join(name);
    let summary = export(&[run.to_path_buf()], &out, options).unwrap();
    (out, summary)
}

/// One position as the test rebuilds it from the CSV alone.
#[derive(Debug, PartialEq)]
struct Expected {
    observation: Vec<f64>,
    side: f64,
    ply: f64,
    action: f64,
    text: String,
    result: f64,
    outcome: Vec<f64>,
    game: f64,
}

/// Every position of the run's games of `variant` that no fault ended, from the CSV.
fn expected<G: Game>(start: &G, csv: &Path) -> Vec<Expected> {
    let mut all = Vec::new();
    let mut game = 0;
    arena::record::read_rows(csv, |_, row| {
        if row.variant != start.variant().to_string()
            || ["crash", "timeout", "illegal-move"].contains(&row.termination.as_str())
        {
            return Ok(());
        }
        let outcome = Outcome::parse_result(&row.result, start.num_players()).unwrap();
        let mut position = start.clone();
        let mut values = Vec::new();
        for text in row.moves.split_whitespace() {
            let mv = position.parse_move(text).unwrap();
            let side = position.side_to_move();
            encoding::observe(&position.view(), side, &mut values);
            all.push(Expected {
                observation: values.iter().map(|&v| f64::from(v)).collect(),
                side: side.index() as f64,
                ply: f64::from(position.ply()),
                action: f64::from(position.action(mv).unwrap()),
                text: text.to_string(),
                result: outcome.score(side),
                outcome: Player::all(start.num_players())
                    .map(|seat| outcome.score(seat))
                    .collect(),
                game: f64::from(game),
            });
            position.play_unchecked(mv);
        }
        game += 1;
        Ok(())
    })
    .unwrap();
    all
}

/// The positions of an exported file, read back.
fn read_back(file: &Path, players: usize) -> Vec<Expected> {
    let npz = Npz::open(file).unwrap();
    let observation = npz.array("observation").unwrap();
    let n = observation.shape[0];
    let size: usize = observation.shape[1..].iter().product();
    let values = observation.numbers();
    let number = |name: &str| npz.array(name).unwrap().numbers();
    let (side, ply, action) = (number("side_to_move"), number("ply"), number("action"));
    let (result, outcome, game) = (number("result"), number("outcome"), number("game"));
    let texts = npz.array("move").unwrap().texts();
    (0..n)
        .map(|i| Expected {
            observation: values[i * size..(i + 1) * size].to_vec(),
            side: side[i],
            ply: ply[i],
            action: action[i],
            text: texts[i].clone(),
            result: result[i],
            outcome: outcome[i * players..(i + 1) * players].to_vec(),
            game: game[i],
        })
        .collect()
}

#[test]
fn every_position_reads_back_as_the_recorded_games_replay_it() {
    let run = finished("positions-every");
    let csv = run.join("games.csv");
    for (id, dtype) in [("tictactoe", Dtype::U8), ("oanquan", Dtype::I16)] {
        let variant: Variant = id.parse().unwrap();
        let (file, summary) = export_to(&run, &format!("{id}.npz"), &options(id));
        let npz = Npz::open(&file).unwrap();
        assert_eq!(npz.array("variant").unwrap().texts(), [variant.to_string()]);
        assert_eq!(npz.array("version").unwrap().numbers(), [1.0]);
        let observation = npz.array("observation").unwrap();
        assert_eq!(observation.dtype, dtype, "{id}");
        let (wanted, players) = rules::with_game!(variant, |start| (
            expected(&start, &csv),
            start.num_players()
        ));
        assert!(wanted.len() > 20, "{id}: {} positions", wanted.len());
        assert_eq!(read_back(&file, players), wanted, "{id}");
        assert_eq!(summary.positions, wanted.len() as u64);
        assert!(
            summary.faulted > 0,
            "the crashing agent's games are left out"
        );
        assert!(summary.other_variants > 0);
    }
}

#[test]
fn sampling_is_seeded_and_draws_from_the_games_positions() {
    let run = finished("positions-sampled");
    let every = read_back(&export_to(&run, "every.npz", &options("tictactoe")).0, 2);
    let sampled = |name: &str, sample: Sample, seed: u64| {
        let options = ExportOptions {
            sample,
            seed,
            ..options("tictactoe")
        };
        let (file, _) = export_to(&run, name, &options);
        (fs::read(&file).unwrap(), read_back(&file, 2))
    };
    for sample in [Sample::PerGame(2), Sample::Fraction(0.4)] {
        let (bytes, positions) = sampled("a.npz", sample, 7);
        let (again, _) = sampled("b.npz", sample, 7);
        let (other, _) = sampled("c.npz", sample, 8);
        assert!(bytes == again, "{sample:?}: the same seed, the same file");
        assert!(bytes != other, "{sample:?}: another seed, other positions");
        assert!(!positions.is_empty() && positions.len() < every.len());
        for position in &positions {
            assert!(every.contains(position), "{sample:?}: {position:?}");
        }
        if sample == Sample::PerGame(2) {
            let games: HashSet<u64> = every.iter().map(|p| p.game as u64).collect();
            for game in games {
                let count = positions.iter().filter(|p| p.game as u64 == game).count();
                assert_eq!(
                    count, 2,
                    "game {game}: tic-tac-toe games last 5 plies or more"
                );
            }
        }
    }
}

#[test]
fn deduplication_keeps_one_position_per_symmetry_class() {
    let run = finished("positions-dedup");
    let (every_file, every) = export_to(&run, "every.npz", &options("tictactoe"));
    let dedup = ExportOptions {
        dedup: true,
        ..options("tictactoe")
    };
    let (file, summary) = export_to(&run, "dedup.npz", &dedup);
    let kept = read_back(&file, 2);
    assert_eq!(summary.positions + summary.duplicates, every.positions);
    assert!(summary.duplicates > 0);
    // The empty board once; after one stone, at most the corner, the edge and the centre.
    assert_eq!(kept.iter().filter(|p| p.ply == 0.0).count(), 1);
    let after_one = kept.iter().filter(|p| p.ply == 1.0).count();
    assert!((1..=3).contains(&after_one), "{after_one}");
    // Every kept position is one of the run's, and no two are the same up to a symmetry.
    let all = read_back(&every_file, 2);
    let variant: Variant = "tictactoe".parse().unwrap();
    let mut keys = HashSet::new();
    for position in &kept {
        assert!(all.contains(position));
        let game = rules::with_game!(variant, |start| {
            let moves: Vec<&str> = all
                .iter()
                .filter(|p| p.game == position.game && p.ply < position.ply)
                .map(|p| p.text.as_str())
                .collect();
            start.play_line(&moves.join(" ")).unwrap().solver_key().0
        });
        assert!(keys.insert(game), "a position twice up to a symmetry");
    }
    let again = export_to(&run, "again.npz", &dedup).0;
    assert!(fs::read(&file).unwrap() == fs::read(again).unwrap());
}

#[test]
fn bad_inputs_are_refused_in_words() {
    let run = finished("positions-bad");
    let out = run.join("out.npz");
    let one = [run.clone()];
    let refused = |inputs: &[PathBuf], options: &ExportOptions| {
        export(inputs, &out, options).unwrap_err().to_string()
    };
    let both = ExportOptions::default();
    let error = refused(&one, &both);
    assert!(
        error.contains("`oanquan`") && error.contains("--variant"),
        "{error}"
    );
    let error = refused(&one, &options("mnk-15x15k5"));
    assert!(error.contains("no game of `mnk-15x15k5`"), "{error}");
    for sample in [Sample::Fraction(0.0), Sample::Fraction(1.5)] {
        let options = ExportOptions {
            sample,
            ..options("tictactoe")
        };
        assert!(refused(&one, &options).contains("more than 0 and at most 1"));
    }
    let options = ExportOptions {
        sample: Sample::PerGame(0),
        ..options("tictactoe")
    };
    assert!(refused(&one, &options).contains("1 or more"));
    let empty = scratch("positions-empty");
    let error = refused(&[empty], &self::options("tictactoe"));
    assert!(error.contains("no games.csv"), "{error}");
    // A result edited by hand is not learnt from: the record is checked first.
    let csv = run.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let id = "tictactoe".parse::<Variant>().unwrap().to_string();
    let line = text
        .lines()
        .position(|l| l.contains(&format!(",{id},")) && l.contains(",1-0,win,"))
        .unwrap();
    let edited: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| match i == line {
            true => l.replacen(",1-0,win,", ",0-1,win,", 1),
            false => l.to_string(),
        })
        .collect();
    fs::write(&csv, edited.join("\n") + "\n").unwrap();
    let error = refused(&one, &self::options("tictactoe"));
    assert!(error.contains("result"), "{error}");
    assert!(!out.exists(), "nothing written from a refused record");
}
