//! `arena tune` (SPSA): on a synthetic agent whose best parameters are known, the tune finds
//! them; the same tune gives the same games and trajectory whatever the thread count and after
//! an interruption.

use crate::common;

use std::collections::HashMap;
use std::sync::Arc;

use agents::{AgentSpec, Choice, Context, Kind, ParamDoc, Params, Plays, SpecError};
use arena::tune::{TuneOptions, TuneSettings, run_tune};
use protocol::{AnyAgent, ExtraKinds};
use rand::RngExt as _;
use rules::{AnyGame, Game, MoveList, Outcome};

/// Where the synthetic agent is strongest.
const OPTIMUM: [f64; 2] = [6.0, 4.0];

/// Plays the best move with probability `exp(-d^2 / 18)`, `d` its parameters' distance from
/// [`OPTIMUM`], and a random legal move otherwise: its strength peaks at the optimum.
struct Bowl {
    best: f64,
    values: HashMap<u64, i32>,
}

/// The value of `game` for the side to move (1 win, 0 draw, -1 loss), by exhaustive search
/// with a table (tic-tac-toe has 5,478 positions).
fn value<G: Game>(game: &G, values: &mut HashMap<u64, i32>) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Win(winner) if winner == game.side_to_move() => 1,
            Outcome::Win(_) => -1,
            _ => 0,
        };
    }
    if let Some(&v) = values.get(&game.hash_key()) {
        return v;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let v = moves
        .iter()
        .map(|&m| -value(&game.child(m), values))
        .max()
        .expect("not over");
    values.insert(game.hash_key(), v);
    v
}

impl AnyAgent for Bowl {
    fn choose(
        &mut self,
        position: &AnyGame,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<u32>, agents::AgentError> {
        rules::with_position!(position, |game| {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let chosen = if ctx.rng.random_bool(self.best) {
                *moves
                    .iter()
                    .max_by_key(|&&m| -value(&game.child(m), &mut self.values))
                    .expect("not over")
            } else {
                moves[ctx.rng.random_range(0..moves.len())]
            };
            Ok(Choice::new(game.action(chosen).expect("the mover's"), 1))
        })
    }
}

const BOWL: Kind = Kind {
    name: "bowl",
    summary: "strongest at x=6, y=4",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[
        ParamDoc {
            name: "x",
            default: "0",
            doc: "first coordinate",
        },
        ParamDoc {
            name: "y",
            default: "0",
            doc: "second coordinate",
        },
    ],
    multiplayer: false,
    listed: true,
    memory: None,
};

struct Factory;

impl ExtraKinds for Factory {
    fn kinds(&self) -> &'static [Kind] {
        &[BOWL]
    }

    fn build(&self, _name: &str, spec: &AgentSpec) -> Result<Box<dyn AnyAgent>, SpecError> {
        let params = Params::new(spec, BOWL.params)?;
        let x = params.f64("x", 0.0, 0.0..=10.0)?;
        let y = params.f64("y", 0.0, 0.0..=10.0)?;
        let d2 = (x - OPTIMUM[0]).powi(2) + (y - OPTIMUM[1]).powi(2);
        Ok(Box::new(Bowl {
            best: (-d2 / 18.0).exp(),
            values: HashMap::new(),
        }))
    }
}

const TUNE: &str = r#"
name = "bowl"
seed = 11
variant = "tictactoe"
spec = "bowl:x={x},y={y}"
iterations = 200
pairs_per_iteration = 2

[params.x]
start = 1
min = 0
max = 10
c_end = 1
r_end = 0.05

[params.y]
start = 9
min = 0
max = 10
c_end = 1
r_end = 0.05
"#;

fn settings(text: &str) -> TuneSettings {
    TuneSettings::from_toml(text, "bowl.toml", None, Some(Arc::new(Factory)))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn options(out: &std::path::Path, threads: usize) -> TuneOptions {
    TuneOptions {
        out_dir: out.to_path_buf(),
        threads: Some(threads),
        fresh: false,
        shard: arena::schedule::Shard::WHOLE,
    }
}

#[test]
fn spsa_finds_the_synthetic_agent_s_best_parameters() {
    let settings = settings(TUNE);
    let out = common::scratch("tune-bowl");
    let summary = run_tune(&settings, &options(&out, 2), |_| {}).unwrap();
    let theta = &summary.theta;
    eprintln!("{}: {:?}", summary.spec, theta);
    for (found, best) in theta.iter().zip(OPTIMUM) {
        assert!((found - best).abs() < 1.0, "{theta:?}, best {OPTIMUM:?}");
    }
    assert_eq!(summary.iterations.len(), 200);
    assert_eq!(summary.played, 800);
    let trajectory = std::fs::read_to_string(out.join("trajectory.csv")).unwrap();
    assert_eq!(trajectory.lines().count(), 1 + 1 + 200);
}

#[test]
fn a_tune_does_not_depend_on_threads_nor_on_interruptions() {
    let text = TUNE.replace("iterations = 200", "iterations = 40");
    let settings = settings(&text);
    let whole = common::scratch("tune-whole");
    let first = run_tune(&settings, &options(&whole, 3), |_| {}).unwrap();
    let games = common::without_timing(&whole.join("games.csv"));
    let trajectory = std::fs::read_to_string(whole.join("trajectory.csv")).unwrap();

    let one = common::scratch("tune-one-thread");
    let again = run_tune(&settings, &options(&one, 1), |_| {}).unwrap();
    assert_eq!(common::without_timing(&one.join("games.csv")), games);
    assert_eq!(
        std::fs::read_to_string(one.join("trajectory.csv")).unwrap(),
        trajectory
    );
    assert_eq!(again.spec, first.spec);

    // Cut mid-iteration, with half a row written: the resumed tune ends where the whole one did.
    let csv = one.join("games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let cut: usize = text.match_indices('\n').nth(1 + 61).unwrap().0 + 1;
    std::fs::write(&csv, &text.as_bytes()[..cut + 30]).unwrap();
    std::fs::remove_file(one.join("trajectory.csv")).unwrap();
    let resumed = run_tune(&settings, &options(&one, 2), |_| {}).unwrap();
    assert_eq!(resumed.resumed, 62);
    assert_eq!(resumed.played, 160 - 62);
    assert_eq!(common::without_timing(&csv), games);
    assert_eq!(
        std::fs::read_to_string(one.join("trajectory.csv")).unwrap(),
        trajectory
    );
    assert_eq!(resumed.spec, first.spec);
    assert_eq!(resumed.iterations, first.iterations);

    // A row edited to another result is caught, naming its line and column.
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let result = ["1-0", "0-1", "1/2-1/2"]
        .into_iter()
        .find(|r| rows[5].contains(&format!(",{r},")))
        .unwrap();
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    rows[5] = rows[5].replacen(&format!(",{result},"), &format!(",{other},"), 1);
    let edited = common::scratch("tune-edited");
    for name in ["games.meta.toml", "tune.toml"] {
        std::fs::copy(one.join(name), edited.join(name)).unwrap();
    }
    std::fs::write(edited.join("games.csv"), rows.join("\n") + "\n").unwrap();
    let error = run_tune(&settings, &options(&edited, 1), |_| {})
        .unwrap_err()
        .to_string();
    assert!(error.contains("games.csv:6"), "{error}");

    // Another tune file in the same folder is refused.
    let other = settings_with_r_end(&TUNE.replace("iterations = 200", "iterations = 40"));
    let error = run_tune(&other, &options(&one, 1), |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("another version of this tune file"),
        "{error}"
    );
}

fn settings_with_r_end(text: &str) -> TuneSettings {
    settings(&text.replacen("r_end = 0.05", "r_end = 0.04", 1))
}

fn shard_options(out: &std::path::Path, index: u32, count: u32) -> TuneOptions {
    TuneOptions {
        shard: arena::schedule::Shard { index, count },
        ..options(out, 1)
    }
}

/// Plays every shard of `settings` at once into `out`, each on a thread of its own; returns
/// each shard's tuned spec.
fn play_shards(settings: &TuneSettings, out: &std::path::Path, count: u32) -> Vec<String> {
    std::thread::scope(|scope| {
        let shards: Vec<_> = (0..count)
            .map(|index| {
                scope.spawn(move || {
                    run_tune(settings, &shard_options(out, index, count), |_| {})
                        .unwrap()
                        .spec
                })
            })
            .collect();
        shards.into_iter().map(|s| s.join().unwrap()).collect()
    })
}

#[test]
fn a_tune_in_shards_merges_to_the_whole_tune_and_resumes_a_cut_shard() {
    let text = TUNE.replace("iterations = 200", "iterations = 30");
    let settings = settings(&text);
    let whole = common::scratch("tune-unsharded");
    let first = run_tune(&settings, &options(&whole, 2), |_| {}).unwrap();
    let games = common::without_timing(&whole.join("games.csv"));
    let trajectory = std::fs::read_to_string(whole.join("trajectory.csv")).unwrap();

    let out = common::scratch("tune-sharded");
    // Every shard moves the parameters as the whole tune does.
    assert_eq!(play_shards(&settings, &out, 3), vec![first.spec.clone(); 3]);
    // Before the merge there is no games.csv to verify.
    let error = arena::tune::verify_with(&out, &settings)
        .unwrap_err()
        .to_string();
    assert!(error.contains("arena merge"), "{error}");
    let merged = arena::tune::merge_with(&out, &settings).unwrap();
    assert_eq!((merged.games, merged.shards), (120, 3));
    assert_eq!(merged.spec, first.spec);
    assert_eq!(common::without_timing(&out.join("games.csv")), games);
    assert_eq!(
        std::fs::read_to_string(out.join("trajectory.csv")).unwrap(),
        trajectory
    );
    assert_eq!(
        arena::tune::verify_with(&out, &settings).unwrap().spec,
        first.spec
    );

    // Shard 1 cut after 10 of its 40 games, a half row left: the merge names the first game
    // missing, and the three shards started again finish the tune as before.
    let shard1 = out.join("games.shard-1-of-3.csv");
    let text = std::fs::read_to_string(&shard1).unwrap();
    let cut: usize = text.match_indices('\n').nth(10).unwrap().0 + 1;
    std::fs::write(&shard1, &text.as_bytes()[..cut + 20]).unwrap();
    let error = arena::tune::merge_with(&out, &settings)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("game 31 (shard 1/3) is not recorded"),
        "{error}"
    );
    assert_eq!(play_shards(&settings, &out, 3), vec![first.spec.clone(); 3]);
    arena::tune::merge_with(&out, &settings).unwrap();
    assert_eq!(common::without_timing(&out.join("games.csv")), games);

    // A shard's row edited to another result is caught at the merge, naming its file and line.
    let text = std::fs::read_to_string(&shard1).unwrap();
    let mut rows: Vec<String> = text.lines().map(String::from).collect();
    let result = ["1-0", "0-1", "1/2-1/2"]
        .into_iter()
        .find(|r| rows[3].contains(&format!(",{r},")))
        .unwrap();
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    rows[3] = rows[3].replacen(&format!(",{result},"), &format!(",{other},"), 1);
    std::fs::write(&shard1, rows.join("\n") + "\n").unwrap();
    let error = arena::tune::merge_with(&out, &settings)
        .unwrap_err()
        .to_string();
    assert!(error.contains("games.shard-1-of-3.csv:4"), "{error}");
}
