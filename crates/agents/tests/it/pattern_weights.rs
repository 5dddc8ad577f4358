//! Pattern weights other than the built-in ones (`Patterns::with_weights`, the `threat`
//! agent's `weights=`): the evaluation kept up to date move by move with them, the default
//! unchanged, and the parameter checked.

use agents::pattern::{MAX_WEIGHT, PATTERNS, Patterns, WEIGHTS};
use agents::score::EVAL_LIMIT;
use agents::{AgentRng, AgentSpec, Context, build};
use rand::{RngExt, SeedableRng};
use rules::{Game, Mnk, Variant};

const FITTED: [i32; PATTERNS] = [0, 2, 4, 1, 42, 389, 282, 1270, 3846];

fn random_position(id: &str, plies: usize, rng: &mut AgentRng) -> Mnk {
    let mut game = id
        .parse::<Variant>()
        .unwrap()
        .rules::<rules::MnkConfig>()
        .unwrap()
        .start();
    for _ in 0..plies {
        match game.random_move(rng) {
            Some(mv) if !game.play(mv).unwrap().is_over() => game = game.play(mv).unwrap(),
            _ => break,
        }
    }
    game
}

#[test]
fn other_weights_are_kept_up_to_date_move_by_move() {
    let mut rng = AgentRng::seed_from_u64(5);
    for _ in 0..30 {
        let plies = rng.random_range(0..30);
        let game = random_position("mnk-15x15k5", plies, &mut rng);
        let mut patterns = Patterns::new(&game).with_weights(FITTED);
        let mut after = game.clone();
        for _ in 0..6 {
            let Some(mv) = after.random_move(&mut rng) else {
                break;
            };
            patterns.play(mv, after.side_to_move());
            after = after.play(mv).unwrap();
            let fresh = Patterns::new(&after).with_weights(FITTED);
            let me = after.side_to_move();
            assert_eq!(patterns.evaluate(me), fresh.evaluate(me));
            if after.is_over() {
                break;
            }
        }
        // The built-in weights through the same door are the plain patterns.
        let me = game.side_to_move();
        assert_eq!(
            Patterns::new(&game).with_weights(WEIGHTS).evaluate(me),
            Patterns::new(&game).evaluate(me)
        );
    }
}

#[test]
fn other_weights_give_another_evaluation() {
    let mut rng = AgentRng::seed_from_u64(6);
    let game = random_position("mnk-15x15k5", 12, &mut rng);
    let me = game.side_to_move();
    let plain = Patterns::new(&game);
    let doubled = WEIGHTS.map(|w| 2 * w);
    let twice = Patterns::new(&game).with_weights(doubled);
    assert_eq!(twice.sum(me), 2 * plain.sum(me));
}

fn choose(spec: &str, position: &Mnk) -> String {
    let agent = build::<Mnk>(&spec.parse::<AgentSpec>().unwrap()).unwrap();
    let mut rng = AgentRng::seed_from_u64(1);
    let mut agent = agent;
    let choice = agent.choose(position, &mut Context::new(&mut rng)).unwrap();
    position.format_move(choice.mv)
}

#[test]
fn threat_takes_weights_and_its_default_is_the_built_in_table() {
    let mut rng = AgentRng::seed_from_u64(7);
    let default = WEIGHTS[1..]
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join("/");
    let mut differs = false;
    for _ in 0..6 {
        let game = random_position("mnk-15x15k5", 8, &mut rng);
        let plain = choose("threat:nodes=3000", &game);
        assert_eq!(choose("threat:nodes=3000,weights=default", &game), plain);
        assert_eq!(
            choose(&format!("threat:nodes=3000,weights={default}"), &game),
            plain
        );
        differs |= choose(
            "threat:nodes=3000,weights=-1/-4/-12/-20/-90/-110/-500/-5000",
            &game,
        ) != plain;
    }
    assert!(
        differs,
        "weights that reverse the evaluation change some move"
    );
    for bad in [
        "1/2/3",
        "a/b/c/d/e/f/g/h",
        "1/2/3/4/5/6/7/8/9",
        "1/2/3/4/5/6/7/99999999",
        "1/2/3/4/5/6/7/100001",
        "-100001/2/3/4/5/6/7/8",
    ] {
        let spec: AgentSpec = format!("threat:weights={bad}").parse().unwrap();
        let error = build::<Mnk>(&spec).err().unwrap().to_string();
        assert!(
            error.contains("weights") && error.contains("eight integers"),
            "{error}"
        );
    }
}

/// The largest weights the parameter takes keep the evaluation of any position of the largest
/// board inside [`EVAL_LIMIT`] (and `i32`: the tests run with overflow checks), move by move.
#[test]
fn the_largest_weights_stay_inside_the_evaluation_limit() {
    let mut rng = AgentRng::seed_from_u64(8);
    for sign in [1, -1] {
        let mut weights = [sign * MAX_WEIGHT; PATTERNS];
        weights[0] = 0;
        for plies in [0, 1, 40, 200] {
            let game = random_position("mnk-19x19k5", plies, &mut rng);
            let mut patterns = Patterns::new(&game).with_weights(weights);
            let mut after = game.clone();
            for _ in 0..4 {
                for me in [
                    after.side_to_move(),
                    <Mnk as rules::TwoPlayer>::opponent(after.side_to_move()),
                ] {
                    assert!(patterns.evaluate(me).abs() < EVAL_LIMIT);
                }
                let Some(mv) = after.random_move(&mut rng) else {
                    break;
                };
                patterns.play(mv, after.side_to_move());
                after = after.play(mv).unwrap();
            }
        }
    }
    let top = [MAX_WEIGHT; PATTERNS - 1].map(|w| w.to_string()).join("/");
    let game = random_position("mnk-19x19k5", 10, &mut rng);
    choose(&format!("threat:nodes=2000,weights={top}"), &game);
}
