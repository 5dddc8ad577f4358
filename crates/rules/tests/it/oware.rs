//! Oware against `docs/oware.md`: the golden traces, one test per rule, perft against a
//! deliberately plain implementation written here from the rules' text, and thousands of
//! random games played by both side by side, checking seed conservation and counting every
//! rule path.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules::oware::{House, Oware, PartsError};
use rules::{Game, MoveError, MoveList, Outcome, Player, Step, TwoPlayer, Variant};

/// A position written as the game prints it (`[A..F] [a..f] (South || North)`), `to_move`
/// to play.
fn position(display: &str, to_move: Player) -> Oware {
    let numbers: Vec<u8> = display
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 14, "{display}");
    let houses: [u8; 12] = numbers[..12].try_into().unwrap();
    let game = Oware::from_parts(houses, [numbers[12], numbers[13]], to_move).unwrap();
    assert_eq!(
        game.to_string(),
        display,
        "the position prints as it was written"
    );
    game
}

fn play(game: &Oware, moves: &str) -> Oware {
    game.play_line(moves)
        .unwrap_or_else(|error| panic!("{moves} in {game}: {error}"))
}

fn legal(game: &Oware) -> String {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&mv| game.format_move(mv)).collect()
}

const SOUTH: Player = Player::First;
const NORTH: Player = Player::Second;

#[test]
fn the_variant_id_is_oware_and_takes_no_parameters() {
    let variant: Variant = "oware".parse().unwrap();
    assert_eq!(variant.to_string(), "oware");
    assert_eq!("abapa".parse::<Variant>(), Ok(variant));
    assert_eq!(variant.players(), 2);
    assert_eq!(variant.board_size(), 12);
    let error = "oware-6x4".parse::<Variant>().unwrap_err().to_string();
    assert!(error.contains("no variant parameters"), "{error}");
}

#[test]
fn the_start_has_four_seeds_in_every_house_and_south_to_move() {
    let start = Oware::start();
    assert_eq!(
        start.to_string(),
        "[4, 4, 4, 4, 4, 4] [4, 4, 4, 4, 4, 4] (0 || 0)"
    );
    assert_eq!(start.side_to_move(), SOUTH);
    assert_eq!(legal(&start), "ABCDEF");
    assert_eq!(legal(&play(&start, "A")), "abcdef");
    assert_eq!(start.seat_name(SOUTH), "South");
    assert_eq!(start.seat_name(NORTH), "North");
}

/// The golden traces of `docs/oware.md`, derived there by hand: the position before, who
/// moves, the moves, the position after and the outcome.
/// What, from, to move, moves, after, outcome.
type Trace = (
    &'static str,
    &'static str,
    Player,
    &'static str,
    &'static str,
    Option<Outcome>,
);

#[test]
fn golden_traces() {
    let start = "[4, 4, 4, 4, 4, 4] [4, 4, 4, 4, 4, 4] (0 || 0)";
    let traces: [Trace; 9] = [
        (
            "a plain sowing",
            start,
            SOUTH,
            "F",
            "[4, 4, 4, 4, 4, 0] [5, 5, 5, 5, 4, 4] (0 || 0)",
            None,
        ),
        (
            "North answers onto South's side",
            start,
            SOUTH,
            "F b",
            "[5, 4, 4, 4, 4, 0] [5, 0, 6, 6, 5, 5] (0 || 0)",
            None,
        ),
        (
            "a lap skips the house it started from",
            "[1, 0, 12, 0, 0, 0] [4, 4, 4, 4, 4, 4] (6 || 5)",
            SOUTH,
            "C",
            "[2, 1, 0, 2, 1, 1] [5, 5, 5, 5, 5, 5] (6 || 5)",
            None,
        ),
        (
            "a capture of three houses, backwards until a house of 4",
            "[2, 1, 0, 0, 0, 4] [3, 1, 2, 1, 0, 1] (15 || 18)",
            SOUTH,
            "F",
            "[2, 1, 0, 0, 0, 0] [4, 0, 0, 0, 0, 1] (22 || 18)",
            None,
        ),
        (
            "a grand slam captures nothing",
            "[5, 0, 0, 0, 0, 3] [1, 2, 1, 0, 0, 0] (18 || 18)",
            SOUTH,
            "F",
            "[5, 0, 0, 0, 0, 0] [2, 3, 2, 0, 0, 0] (18 || 18)",
            None,
        ),
        (
            "North sows its last seed; South must feed and only E reaches",
            "[4, 0, 0, 1, 2, 0] [0, 0, 0, 0, 0, 1] (20 || 20)",
            NORTH,
            "f E",
            "[5, 0, 0, 1, 0, 1] [1, 0, 0, 0, 0, 0] (20 || 20)",
            None,
        ),
        (
            "South cannot feed: the game ends and South takes its own seeds",
            "[0, 3, 0, 1, 0, 0] [0, 0, 0, 0, 0, 1] (21 || 22)",
            NORTH,
            "f",
            "[0, 0, 0, 0, 0, 0] [0, 0, 0, 0, 0, 0] (26 || 22)",
            Some(Outcome::Win(SOUTH)),
        ),
        (
            "the 25th seed wins at once, the seeds left on the board uncounted",
            "[4, 0, 0, 0, 0, 1] [1, 0, 0, 0, 3, 2] (23 || 14)",
            SOUTH,
            "F",
            "[4, 0, 0, 0, 0, 0] [0, 0, 0, 0, 3, 2] (25 || 14)",
            Some(Outcome::Win(SOUTH)),
        ),
        (
            "24 each: a draw, the board empty",
            "[0, 0, 0, 0, 0, 0] [0, 0, 0, 0, 0, 1] (23 || 24)",
            NORTH,
            "f",
            "[0, 0, 0, 0, 0, 0] [0, 0, 0, 0, 0, 0] (24 || 24)",
            Some(Outcome::Draw),
        ),
    ];
    for (what, before, to_move, moves, after, outcome) in traces {
        let end = play(&position(before, to_move), moves);
        assert_eq!(end.to_string(), after, "{what}: {moves}");
        assert_eq!(end.outcome(), outcome, "{what}");
    }
}

#[test]
fn a_move_names_a_house_of_the_mover_by_its_letter() {
    let start = Oware::start();
    assert_eq!(start.parse_move(" C "), Ok(House::new(2)));
    assert_eq!(start.format_move(House::new(2)), "C");
    let north = play(&start, "C");
    assert_eq!(north.parse_move("c"), Ok(House::new(8)));
    let bad = |game: &Oware, text: &str| game.parse_move(text).unwrap_err().to_string();
    for text in ["", "G", "g", "1", "CC", "c3"] {
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
    assert!(bad(&start, "G").contains("A-F for South"));
    assert!(bad(&start, "c").contains("house c is North's; South sows A-F"));
    assert!(bad(&north, "C").contains("house C is South's; North sows a-f"));
    assert!(bad(&play(&start, "C b"), "C").contains("house C is empty"));
}

#[test]
fn a_move_that_does_not_feed_an_empty_opponent_is_illegal_and_says_why() {
    let game = position("[5, 0, 0, 1, 2, 0] [0, 0, 0, 0, 0, 0] (20 || 20)", SOUTH);
    assert_eq!(legal(&game), "E");
    let error = game.parse_move("A").unwrap_err().to_string();
    assert!(
        error.contains("North has no seeds, and South must sow a house that reaches them (E)"),
        "{error}"
    );
    // Six seeds in A reach North's a, two in E too.
    let game = position("[6, 0, 0, 0, 2, 0] [0, 0, 0, 0, 0, 0] (20 || 20)", SOUTH);
    assert_eq!(legal(&game), "AE");
}

#[test]
fn a_position_where_the_mover_cannot_feed_is_over_from_the_start() {
    let game = position("[0, 0, 0, 0, 0, 0] [0, 0, 0, 0, 0, 0] (30 || 18)", NORTH);
    assert_eq!(game.outcome(), Some(Outcome::Win(SOUTH)));
    let game = Oware::from_parts([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], [23, 24], SOUTH).unwrap();
    // F reaches North's a: South can feed, so the game goes on.
    assert_eq!(game.outcome(), None);
    let game = Oware::from_parts([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], [23, 24], SOUTH).unwrap();
    // D cannot reach: South takes its seed, 24 each.
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.store(SOUTH), 24);
    assert_eq!(
        Oware::from_parts([4; 12], [1, 0], SOUTH),
        Err(PartsError::Seeds(49))
    );
}

#[test]
fn the_ply_cap_settles_as_the_players_would_each_taking_their_own_seeds() {
    let game = position("[2, 1, 0, 0, 0, 0] [4, 0, 0, 0, 0, 1] (22 || 18)", NORTH);
    assert_eq!(game.totals().unwrap().as_slice(), [25, 23]);
    assert_eq!(game.adjudicate(), Outcome::Win(SOUTH));
    assert_eq!(Oware::start().adjudicate(), Outcome::Draw);
    // Once the game is over the stores are the totals, whatever is left on the board.
    let won = play(
        &position("[4, 0, 0, 0, 0, 1] [1, 0, 0, 0, 3, 2] (23 || 14)", SOUTH),
        "F",
    );
    assert_eq!(won.totals().unwrap().as_slice(), [25, 14]);
}

#[test]
fn the_trace_of_a_lap_skips_the_origin_and_the_end_settles_seed_by_house() {
    let game = position("[1, 0, 12, 0, 0, 0] [4, 4, 4, 4, 4, 4] (6 || 5)", SOUTH);
    let mut steps = Vec::new();
    game.clone().play_traced(House::new(2), &mut steps);
    let drops: Vec<usize> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Drop { place } => Some(*place),
            _ => None,
        })
        .collect();
    assert_eq!(
        steps[0],
        Step::Pick {
            place: 2,
            seeds: 12
        }
    );
    assert_eq!(drops, [3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 3]);

    let game = position("[0, 3, 0, 1, 0, 0] [0, 0, 0, 0, 0, 1] (21 || 22)", NORTH);
    let mut steps = Vec::new();
    game.clone().play_traced(House::new(11), &mut steps);
    let settled: Vec<Step> = steps[2..].to_vec();
    let take = |place, value| Step::Capture {
        place,
        value,
        seat: SOUTH,
    };
    assert_eq!(settled, [take(0, 1), take(1, 3), take(3, 1)]);
}

#[test]
fn captures_are_traced_backwards_from_the_last_house() {
    let game = position("[2, 1, 0, 0, 0, 4] [3, 1, 2, 1, 0, 1] (15 || 18)", SOUTH);
    let mut steps = Vec::new();
    game.clone().play_traced(House::new(5), &mut steps);
    let captures: Vec<(usize, i32)> = steps
        .iter()
        .filter_map(|s| match *s {
            Step::Capture { place, value, .. } => Some((place, value)),
            _ => None,
        })
        .collect();
    assert_eq!(captures, [(9, 2), (8, 3), (7, 2)]);
}

#[test]
fn actions_are_the_houses_rank_for_the_mover() {
    let start = Oware::start();
    assert_eq!(start.num_actions(), 6);
    assert_eq!(start.action(House::new(0)), Some(0));
    assert_eq!(start.action(House::new(6)), None);
    let north = play(&start, "A");
    assert_eq!(north.action(House::new(11)), Some(5));
    assert_eq!(north.move_of(0), Some(House::new(6)));
    assert_eq!(north.move_of(6), None);
}

// ---------------------------------------------------------------------------------------
// A deliberately plain Oware, from the rules' text alone: vectors, a seed at a time, the
// feeding rule and the grand slam found by trying the move on a copy.

#[derive(Clone, Debug)]
struct Plain {
    houses: Vec<i32>,
    stores: [i32; 2],
    player: usize,
    winner: Option<Option<usize>>,
}

/// What one plain move did, for counting the rule paths.
#[derive(Default)]
struct Happened {
    lap: bool,
    captured_houses: usize,
    grand_slam: bool,
    fed: bool,
    /// The feeding rule left out a house with seeds.
    fed_not_every_house: bool,
    end: Option<&'static str>,
}

impl Plain {
    fn start() -> Plain {
        Plain {
            houses: vec![4; 12],
            stores: [0, 0],
            player: 0,
            winner: None,
        }
    }

    fn of(game: &Oware) -> Plain {
        Plain {
            houses: (0..12).map(|h| i32::from(game.seeds(h))).collect(),
            stores: [game.store(SOUTH).into(), game.store(NORTH).into()],
            player: game.side_to_move().index(),
            winner: None,
        }
    }

    fn owner(house: usize) -> usize {
        house / 6
    }

    fn side(&self, player: usize) -> i32 {
        (0..12)
            .filter(|&h| Plain::owner(h) == player)
            .map(|h| self.houses[h])
            .sum()
    }

    /// Sows `house` and returns the last house sown.
    fn sow(&mut self, house: usize) -> usize {
        let mut hand = self.houses[house];
        self.houses[house] = 0;
        let mut at = house;
        while hand > 0 {
            at = (at + 1) % 12;
            if at != house {
                self.houses[at] += 1;
                hand -= 1;
            }
        }
        at
    }

    fn moves(&self) -> Vec<usize> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let me = self.player;
        let mine: Vec<usize> = (0..12)
            .filter(|&h| Plain::owner(h) == me && self.houses[h] > 0)
            .collect();
        if self.side(1 - me) > 0 {
            return mine;
        }
        mine.into_iter()
            .filter(|&h| {
                let mut copy = self.clone();
                copy.sow(h);
                copy.side(1 - me) > 0
            })
            .collect()
    }

    fn play(&mut self, house: usize) -> Happened {
        let me = self.player;
        let fed = self.side(1 - me) == 0;
        let sowable = (0..12)
            .filter(|&h| Plain::owner(h) == me && self.houses[h] > 0)
            .count();
        let mut happened = Happened {
            lap: self.houses[house] >= 12,
            fed,
            fed_not_every_house: fed && self.moves().len() < sowable,
            ..Happened::default()
        };
        let last = self.sow(house);
        let mut chain = Vec::new();
        let mut at = last;
        while Plain::owner(at) != me && (self.houses[at] == 2 || self.houses[at] == 3) {
            chain.push(at);
            if at.is_multiple_of(6) {
                break;
            }
            at -= 1;
        }
        let taken: i32 = chain.iter().map(|&h| self.houses[h]).sum();
        if !chain.is_empty() && taken == self.side(1 - me) {
            happened.grand_slam = true;
        } else {
            for &h in &chain {
                self.stores[me] += self.houses[h];
                self.houses[h] = 0;
            }
            happened.captured_houses = chain.len();
        }
        self.player = 1 - me;
        if self.stores[me] >= 25 {
            self.winner = Some(Some(me));
            happened.end = Some("25");
        } else if self.moves().is_empty() {
            for h in 0..12 {
                self.stores[Plain::owner(h)] += self.houses[h];
                self.houses[h] = 0;
            }
            self.winner = Some(match self.stores[0].cmp(&self.stores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            });
            happened.end = Some("no move");
        }
        happened
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|h| {
                let mut child = self.clone();
                child.play(h);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn agrees_with(&self, game: &Oware) -> bool {
        let outcome = self.winner.map(|w| match w {
            Some(seat) => Outcome::Win(Player::seat(seat)),
            None => Outcome::Draw,
        });
        (0..12).all(|h| i32::from(game.seeds(h)) == self.houses[h])
            && [SOUTH, NORTH]
                .iter()
                .all(|&p| i32::from(game.store(p)) == self.stores[p.index()])
            && game.side_to_move().index() == self.player
            && game.outcome() == outcome
    }
}

/// Perft from the start, depths 1 to 9, as the plain implementation above counts them (to
/// depth 8 in the test; 9 was checked once the same way).
const PERFT: [u64; 9] = [
    6, 36, 190, 1_014, 5_219, 27_332, 139_157, 711_414, 3_592_872,
];

#[test]
fn perft_from_the_start_matches_the_plain_implementation() {
    let start = Oware::start();
    let plain = Plain::start();
    for (depth, &expected) in (1..).zip(PERFT.iter()) {
        let count = rules::perft(&start, depth);
        if depth <= 8 {
            assert_eq!(plain.perft(depth), count, "depth {depth}");
        }
        assert_eq!(count, expected, "depth {depth}");
    }
    // Positions where captures, grand slams and feeding come at once.
    for (display, to_move) in [
        ("[2, 1, 0, 0, 0, 4] [3, 1, 2, 1, 0, 1] (15 || 18)", SOUTH),
        ("[5, 0, 0, 0, 0, 3] [1, 2, 1, 0, 0, 0] (18 || 18)", SOUTH),
        ("[4, 0, 0, 1, 2, 0] [0, 0, 0, 0, 0, 1] (20 || 20)", NORTH),
        ("[1, 0, 12, 0, 0, 0] [4, 4, 4, 4, 4, 4] (6 || 5)", SOUTH),
    ] {
        let game = position(display, to_move);
        for depth in 1..=7 {
            assert_eq!(
                rules::perft(&game, depth),
                Plain::of(&game).perft(depth),
                "{display} at depth {depth}"
            );
        }
    }
}

/// Thousands of random games played by the game and by the plain implementation side by
/// side: the same position after every move, 48 seeds on the board and in the stores at every
/// ply, and every rule path taken many times.
#[test]
fn random_games_conserve_seeds_and_take_every_rule_path() {
    const GAMES: usize = 5_000;
    let cap = Oware::start().default_max_plies();
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    let mut moves = MoveList::new();
    let (mut laps, mut multi, mut grand_slams) = (0, 0, 0);
    let (mut feedings, mut feedings_ruling_out) = (0, 0);
    let (mut by_25, mut by_no_move, mut by_cap) = (0, 0, 0);
    let mut lengths = Vec::new();
    for _ in 0..GAMES {
        let mut game = Oware::start();
        let mut plain = Plain::start();
        while !game.is_over() && game.ply() < cap {
            game.legal_moves(&mut moves);
            let houses: Vec<usize> = moves.iter().map(|m| m.index()).collect();
            assert_eq!(houses, plain.moves(), "legal moves in {game}");
            let mv = moves[rng.random_range(0..moves.len())];
            let (before, mover) = (game.clone(), game.side_to_move());
            game.play_unchecked(mv);
            let happened = plain.play(mv.index());
            assert!(plain.agrees_with(&game), "{game} against {plain:?}");
            if happened.lap && happened.end.is_none() {
                assert_eq!(
                    game.seeds(mv.index()),
                    0,
                    "a lap sowed its origin: {before} {mv:?}"
                );
            }
            // (Unless the game ends at once: then each side's seeds go to its owner.)
            if happened.grand_slam && happened.end.is_none() {
                assert_eq!(
                    game.store(mover),
                    before.store(mover),
                    "a grand slam took: {before}"
                );
                assert!(
                    game.side_seeds(Oware::opponent(mover)) > 0,
                    "{before} {mv:?}"
                );
            }
            let seeds: u32 = (0..12).map(|h| u32::from(game.seeds(h))).sum::<u32>()
                + u32::from(game.store(SOUTH))
                + u32::from(game.store(NORTH));
            assert_eq!(seeds, 48, "seeds lost or made in {game}");
            laps += usize::from(happened.lap);
            multi += usize::from(happened.captured_houses >= 2);
            grand_slams += usize::from(happened.grand_slam);
            feedings += usize::from(happened.fed);
            feedings_ruling_out += usize::from(happened.fed_not_every_house);
            match happened.end {
                Some("25") => {
                    by_25 += 1;
                    assert!(game.store(game.outcome().unwrap().winner().unwrap()) >= 25);
                }
                Some(_) => {
                    by_no_move += 1;
                    assert!((0..12).all(|h| game.seeds(h) == 0), "settled: {game}");
                }
                None => {}
            }
        }
        if game.is_over() {
            lengths.push(game.ply());
        } else {
            by_cap += 1;
            // The cap's settlement: each player's store and own seeds, the higher wins.
            let totals = game.totals().unwrap();
            assert_eq!(totals.iter().sum::<i32>(), 48);
            let expected = match totals[0].cmp(&totals[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(SOUTH),
                std::cmp::Ordering::Less => Outcome::Win(NORTH),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            assert_eq!(game.adjudicate(), expected);
        }
    }
    lengths.sort_unstable();
    let at = |q: f64| lengths[((lengths.len() - 1) as f64 * q) as usize];
    eprintln!(
        "{GAMES} random games: ended by 25 {by_25}, by no move {by_no_move}, at the cap of \
         {cap} {by_cap}; plies of those that ended: median {}, 10% {}, 90% {}, 99% {}, longest \
         {}; moves with a lap {laps}, a capture of 2+ houses {multi}, a grand slam \
         {grand_slams}, a forced feeding {feedings} (ruling out a house with seeds \
         {feedings_ruling_out})",
        at(0.5),
        at(0.1),
        at(0.9),
        at(0.99),
        lengths.last().unwrap()
    );
    for (path, count) in [
        ("lap skipping the origin", laps),
        ("capture of several houses", multi),
        ("grand slam", grand_slams),
        ("forced feeding", feedings),
        (
            "feeding that rules out a house with seeds",
            feedings_ruling_out,
        ),
        ("end by 25", by_25),
        ("end by no move", by_no_move),
        ("end at the cap", by_cap),
    ] {
        assert!(count >= 10, "{path}: {count} times in {GAMES} games");
    }
}
