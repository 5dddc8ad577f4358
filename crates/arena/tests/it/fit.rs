//! Texel-style fitting of the m,n,k pattern weights (`arena::fit`): the features are the
//! pattern evaluation's own, a fit recovers the probabilities of known weights, it is seeded,
//! and positions it cannot use are refused in words.

use crate::common;

use std::path::{Path, PathBuf};

use agents::AgentRng;
use agents::pattern::{PATTERNS, Patterns, WEIGHTS};
use arena::fit::{FREE, Sample, evaluation, features, fit, fit_ordering, fit_samples};
use arena::npz::{Array, Dtype, Npz, NpzWriter};
use arena::positions::{ExportOptions, export};
use arena::{Experiment, Shard, run};
use rand::{RngExt as _, SeedableRng as _};
use rules::{Game, Mnk, Variant};

/// Random positions of `id`, unfinished, of 4 to 40 stones.
fn random_positions(id: &str, count: usize, seed: u64) -> Vec<Mnk> {
    let variant: Variant = id.parse().unwrap();
    let config = variant.rules::<rules::MnkConfig>().unwrap();
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut game = config.start();
        let plies = rng.random_range(4..40);
        for _ in 0..plies {
            let Some(mv) = game.random_move(&mut rng) else {
                break;
            };
            game = game.play(mv).unwrap();
        }
        if !game.is_over() {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn the_features_give_the_pattern_evaluation_with_the_current_weights() {
    let weights: [f64; FREE] = std::array::from_fn(|i| f64::from(WEIGHTS[i + 1]));
    for game in random_positions("mnk-15x15k5", 200, 1) {
        let me = game.side_to_move();
        let expected = Patterns::new(&game).evaluate(me);
        let found = evaluation(&features(&game, me), &weights);
        // `evaluate` rounds 6/5 of its own sum down to an integer.
        assert!(
            (found - f64::from(expected)).abs() < 1.0,
            "{found} against {expected}"
        );
    }
}

#[test]
fn a_fit_recovers_the_win_probabilities_of_known_weights() {
    // Results drawn from a logistic model of weights unlike the current ones.
    let truth: [f64; FREE] = [3.0, 10.0, 6.0, 60.0, 40.0, 300.0, 700.0, 2500.0];
    let scale = 0.002;
    let mut rng = AgentRng::seed_from_u64(9);
    let samples: Vec<Sample> = random_positions("mnk-9x9k5", 20_000, 2)
        .iter()
        .map(|game| {
            let features = features(game, game.side_to_move());
            let p = 1.0 / (1.0 + (-scale * evaluation(&features, &truth)).exp());
            Sample {
                features,
                result: if rng.random_bool(p) { 1.0 } else { 0.0 },
                validation: false,
            }
        })
        .collect();
    let fitted = fit_samples("mnk-9x9k5".parse().unwrap(), &samples, 0.0).unwrap();
    let weights: [f64; FREE] = std::array::from_fn(|i| f64::from(fitted.weights[i + 1]));
    let mut gap = 0.0;
    for s in &samples {
        let p = |w: &[f64; FREE], k: f64| 1.0 / (1.0 + (-k * evaluation(&s.features, w)).exp());
        gap += (p(&weights, fitted.k) - p(&truth, scale)).abs();
    }
    let gap = gap / samples.len() as f64;
    assert!(gap < 0.02, "mean probability gap {gap}");
    assert!(fitted.after[0][0] < fitted.before[0][0]);
    assert_eq!(fitted.weights[0], 0, "a dead line stays worth nothing");
}

/// A positions file of a short gomoku-like run (7x7, k = 4), and one of Oware's.
fn positions_files(name: &str) -> (PathBuf, PathBuf) {
    let dir = common::scratch(name);
    let text = r#"
name = "fit"
seed = 4
games_per_pair = 6
variants = ["mnk-7x7k4", "oware"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "mcts"
spec = "mcts:iterations=40"
"#;
    let experiment = Experiment::from_toml(text, "fit.toml").unwrap();
    run(&experiment, &common::options(&dir, 2, Shard::WHOLE)).unwrap();
    let mut files = Vec::new();
    for id in ["mnk-7x7k4", "oware"] {
        let out = dir.join(format!("{id}.npz"));
        let options = ExportOptions {
            variant: Some(id.parse().unwrap()),
            ..ExportOptions::default()
        };
        export(std::slice::from_ref(&dir), &out, &options).unwrap();
        files.push(out);
    }
    (files[0].clone(), files[1].clone())
}

#[test]
fn the_same_files_and_seed_give_the_same_weights_and_bad_inputs_are_refused() {
    let (mnk, oware) = positions_files("fit");
    let files = [mnk.clone()];
    let first = fit(&files, 3, 0.25, 0.001).unwrap();
    assert_eq!(fit(&files, 3, 0.25, 0.001).unwrap(), first);
    let other = fit(&files, 4, 0.25, 0.001).unwrap();
    assert_ne!(
        other.validation, first.validation,
        "another seed, another split"
    );
    assert!(first.validation > 0 && first.training > first.validation);
    assert_eq!(first.weights.len(), PATTERNS);
    let text = first.to_toml(&files, 3, 0.001);
    assert!(text.contains("variant = \"mnk-7x7k4\""), "{text}");
    assert!(text.contains("weights = [0, "), "{text}");
    let spec = text
        .lines()
        .find_map(|l| l.strip_prefix("spec = "))
        .unwrap();
    let spec: agents::AgentSpec = spec.trim_matches('"').parse().unwrap();
    agents::build::<rules::Mnk>(&spec).unwrap();

    let error = fit(&[oware], 3, 0.25, 0.001).unwrap_err().to_string();
    assert!(error.contains("not an m,n,k variant"), "{error}");
    let error = fit(&files, 3, 1.0, 0.001).unwrap_err().to_string();
    assert!(error.contains("validation share"), "{error}");
    let error = fit(&files, 3, 0.2, -1.0).unwrap_err().to_string();
    assert!(error.contains("ridge"), "{error}");
    let error = fit(&[mnk.with_extension("csv")], 3, 0.2, 0.0)
        .unwrap_err()
        .to_string();
    assert!(error.contains("read the positions file"), "{error}");
}

#[test]
fn an_ordering_fit_is_seeded_and_writes_every_class_and_bad_inputs_are_refused() {
    let (mnk, oware) = positions_files("fit-ordering");
    let files = [mnk.clone()];
    let first = fit_ordering(&files, 3, 0.25).unwrap();
    assert_eq!(fit_ordering(&files, 3, 0.25).unwrap(), first);
    let other = fit_ordering(&files, 4, 0.25).unwrap();
    assert_ne!(other.before[1].positions, first.before[1].positions);
    assert!(first.before[0].positions > first.before[1].positions);
    assert!(first.before[1].positions > 0);
    // The fitted keys rank the moves played better than the pattern values on the games fitted.
    assert!(first.after[0].top3 > first.before[0].top3, "{first:?}");
    let text = first.to_text(&files, 3, 0.25);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), agents::policy::CLASSES);
    assert!(
        lines.iter().all(|l| l.split_whitespace().count() == 6),
        "{text}"
    );
    assert!(text.contains("mnk-7x7k4"), "{text}");

    let error = fit_ordering(&[oware], 3, 0.25).unwrap_err().to_string();
    assert!(error.contains("not an m,n,k variant"), "{error}");
    let error = fit_ordering(&files, 3, 1.0).unwrap_err().to_string();
    assert!(error.contains("validation share"), "{error}");
    let out = mnk.with_file_name("swapped.npz");
    rewritten(&mnk, &out, |name, array| {
        if name == "side_to_move" {
            let seat = array.numbers()[4];
            set(array, 4, 1.0 - seat);
        }
    });
    let error = fit_ordering(std::slice::from_ref(&out), 3, 0.25)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("position 4: the side to move is seat"),
        "{error}"
    );
}

/// `path`'s arrays, with `change` applied to each one's elements, written to `out`.
fn rewritten(path: &Path, out: &Path, change: impl Fn(&str, &mut Array)) {
    let npz = Npz::open(path).unwrap();
    let names: Vec<String> = npz.names().map(str::to_string).collect();
    let mut writer = NpzWriter::create(out).unwrap();
    for name in names {
        let mut array = npz.array(&name).unwrap();
        change(&name, &mut array);
        writer
            .array(&name, array.dtype, &array.shape, &array.data)
            .unwrap();
    }
    writer.finish().unwrap();
}

/// Sets element `i` of a numeric array to `value`, in the array's own type.
fn set(array: &mut Array, i: usize, value: f64) {
    let size = array.dtype.size();
    let bytes = match array.dtype {
        Dtype::U8 => vec![value as u8],
        Dtype::I16 => (value as i16).to_le_bytes().to_vec(),
        Dtype::U32 => (value as u32).to_le_bytes().to_vec(),
        Dtype::I32 => (value as i32).to_le_bytes().to_vec(),
        Dtype::F32 => (value as f32).to_le_bytes().to_vec(),
        Dtype::Str(_) => unreachable!("a numeric array"),
    };
    array.data[i * size..(i + 1) * size].copy_from_slice(&bytes);
}

/// A positions file that another program wrote (or damaged): a side to move of no seat, a cell
/// in both players' planes, a result out of range: each refused with the position's number,
/// never a panic.
#[test]
fn a_fit_refuses_positions_no_game_has() {
    let (mnk, _) = positions_files("fit-bad");
    let out = mnk.with_file_name("bad.npz");
    rewritten(&mnk, &out, |name, array| {
        if name == "side_to_move" {
            set(array, 3, 2.0);
        }
    });
    let error = fit(std::slice::from_ref(&out), 3, 0.25, 0.0)
        .unwrap_err()
        .to_string();
    assert!(error.contains("position 3: side_to_move is 2"), "{error}");
    rewritten(&mnk, &out, |name, array| {
        if name == "result" {
            set(array, 5, 7.0);
        }
    });
    let error = fit(std::slice::from_ref(&out), 3, 0.25, 0.0)
        .unwrap_err()
        .to_string();
    assert!(error.contains("position 5: result is 7"), "{error}");
    rewritten(&mnk, &out, |name, array| {
        if name == "observation" {
            // Position 0's first cell in both stone planes (planes 0 and 1 of 3, 7x7 each).
            set(array, 0, 1.0);
            set(array, 49, 1.0);
        }
    });
    let error = fit(std::slice::from_ref(&out), 3, 0.25, 0.0)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("position 0: row 0, column 0 holds a stone of each player"),
        "{error}"
    );
}
