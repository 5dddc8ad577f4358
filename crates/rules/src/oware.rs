//! Oware abapa, the international mancala (`docs/oware.md` states the rules, the notation and
//! the golden traces).
//!
//! The board is a ring of 12 houses in sowing order (counter-clockwise): South, the first
//! player, owns houses 0-5 (`A`-`F`, left to right as South sees them), North owns houses
//! 6-11 (`a`-`f`, left to right as North sees them). Each starts with 4 seeds; the captures
//! go to each player's store. A move names one of the mover's houses.
//!
//! ```
//! use rules::Game;
//! use rules::oware::Oware;
//!
//! let game = Oware::start().play_line("F b")?;
//! assert_eq!(game.to_string(), "[5, 4, 4, 4, 4, 0] [5, 0, 6, 6, 5, 5] (0 || 0)");
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MoveError, MoveList, MovePlace, Outcome, Place, Player, Step, Totals, Trace,
    TwoPlayer, Variant, View, splitmix64,
};

/// Houses per player.
pub const PER_SIDE: usize = 6;
/// Houses on the board.
pub const HOUSES: usize = 2 * PER_SIDE;
/// Seeds in each house at the start.
pub const START_SEEDS: u8 = 4;
/// Seeds in the game: on the board and in the stores, at every ply.
pub const TOTAL_SEEDS: u8 = HOUSES as u8 * START_SEEDS;
/// The captures that win: more than half the seeds.
pub const WINNING_STORE: u8 = TOTAL_SEEDS / 2 + 1;

/// Oware's rules. Abapa has no parameters worth a variant here (`docs/oware.md` says which
/// rule is followed at each point where sources differ), so this is the one variant `oware`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct OwareRules;

impl OwareRules {
    /// The starting position.
    pub fn start(self) -> Oware {
        Oware::start()
    }
}

impl fmt::Display for OwareRules {
    /// The variant id, `oware`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("oware")
    }
}

/// A move: sow one house of the player to move. Like every move it means something only with
/// its position (whose turn it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct House(u8);

impl House {
    /// The house at ring index `index` (0-11: South's `A`-`F`, then North's `a`-`f`).
    ///
    /// # Panics
    /// If `index` is not below [`HOUSES`].
    pub const fn new(index: usize) -> House {
        assert!(index < HOUSES, "a ring of 12 houses");
        House(index as u8)
    }

    /// The ring index, 0-11.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player who owns the house.
    pub const fn owner(self) -> Player {
        Player::seat(self.index() / PER_SIDE)
    }

    /// The house's letter: `A`-`F` for South's, `a`-`f` for North's.
    pub const fn letter(self) -> char {
        let rank = (self.0 as usize % PER_SIDE) as u8;
        if self.index() < PER_SIDE {
            (b'A' + rank) as char
        } else {
            (b'a' + rank) as char
        }
    }

    /// The house a letter names: `A`-`F` South's, `a`-`f` North's; `None` for another.
    pub fn of_letter(letter: char) -> Option<House> {
        match letter {
            'A'..='F' => Some(House(letter as u8 - b'A')),
            'a'..='f' => Some(House(PER_SIDE as u8 + (letter as u8 - b'a'))),
            _ => None,
        }
    }
}

/// The first ring index of `player`'s houses.
#[inline]
const fn base(player: Player) -> usize {
    PER_SIDE * (player.index() & 1)
}

/// The house after `index` in sowing order.
#[inline]
const fn next(index: usize) -> usize {
    if index + 1 == HOUSES { 0 } else { index + 1 }
}

/// A position of Oware.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Oware {
    /// Seeds per house, in ring order.
    houses: [u8; HOUSES],
    /// Captured seeds per seat.
    stores: [u8; 2],
    to_move: Player,
    plies: u32,
    result: Option<Outcome>,
}

/// Why [`Oware::from_parts`] refused a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartsError {
    /// The seeds on the board and in the stores are not the game's 48.
    #[error("the board and the stores hold {0} seeds; an Oware position holds 48")]
    Seeds(u32),
    /// A seat that is not South or North.
    #[error("Oware has two seats, South and North")]
    Seat,
}

impl Oware {
    /// The starting position: 4 seeds in each house, South to move.
    pub fn start() -> Oware {
        Oware {
            houses: [START_SEEDS; HOUSES],
            stores: [0; 2],
            to_move: Player::First,
            plies: 0,
            result: None,
        }
    }

    /// A position from its parts, for tests and tools: seeds per house in ring order, the
    /// stores (South's, North's) and the player to move. The ply count starts at 0. A position
    /// where a store holds 25 or more is over; so is one where the player to move has no
    /// legal move, after each player took the seeds on their own side (the rules' end).
    pub fn from_parts(
        houses: [u8; HOUSES],
        stores: [u8; 2],
        to_move: Player,
    ) -> Result<Oware, PartsError> {
        let seeds: u32 = houses.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        if seeds != u32::from(TOTAL_SEEDS) {
            return Err(PartsError::Seeds(seeds));
        }
        if to_move.index() > 1 {
            return Err(PartsError::Seat);
        }
        let mut position = Oware {
            houses,
            stores,
            to_move,
            plies: 0,
            result: None,
        };
        if let Some(winner) = [Player::First, Player::Second]
            .into_iter()
            .find(|&p| stores[p.index()] >= WINNING_STORE)
        {
            position.result = Some(Outcome::Win(winner));
        } else if !position.has_move() {
            position.settle(&mut ());
        }
        Ok(position)
    }

    /// The seeds in the house at ring index `index` (0-11).
    pub fn seeds(&self, index: usize) -> u8 {
        self.houses[index]
    }

    /// The seeds `player` has captured.
    pub fn store(&self, player: Player) -> u8 {
        self.stores[player.index() & 1]
    }

    /// The seeds in `player`'s six houses.
    #[inline]
    pub fn side_seeds(&self, player: Player) -> u8 {
        self.side(player).iter().sum()
    }

    /// `player`'s six houses, in ring order.
    #[inline]
    fn side(&self, player: Player) -> &[u8; PER_SIDE] {
        self.houses[base(player)..][..PER_SIDE]
            .try_into()
            .expect("six houses")
    }

    /// Whether `house` (of the player to move, holding seeds) may be sown: always, unless the
    /// opponent has no seeds, when only a sowing that reaches them is allowed (feeding).
    #[inline]
    fn sowable(&self, house: usize, opponent_empty: bool) -> bool {
        let seeds = self.houses[house];
        // The houses of the mover's side after this one: a sowing must pass them to feed.
        let before_opponent = PER_SIDE - 1 - house % PER_SIDE;
        seeds > 0 && (!opponent_empty || usize::from(seeds) > before_opponent)
    }

    /// Whether the player to move has a legal move.
    fn has_move(&self) -> bool {
        let mover = self.to_move;
        let opponent_empty = self.side_seeds(Oware::opponent(mover)) == 0;
        (base(mover)..base(mover) + PER_SIDE).any(|house| self.sowable(house, opponent_empty))
    }

    /// The end when the player to move has no legal move: each player takes the seeds on
    /// their own side (in practice the mover takes theirs: the opponent has none), and the
    /// stores decide.
    fn settle<T: Trace>(&mut self, trace: &mut T) {
        for (index, house) in self.houses.iter_mut().enumerate() {
            if *house > 0 {
                let owner = House::new(index).owner();
                trace.step(Step::Capture {
                    place: index,
                    value: i32::from(*house),
                    seat: owner,
                });
                self.stores[owner.index()] += std::mem::take(house);
            }
        }
        self.result = Some(by_stores(self.stores[0].into(), self.stores[1].into()));
    }

    /// Sows `house` (the mover's, legal), captures, and ends the game if it ends.
    #[inline]
    fn play_with<T: Trace>(&mut self, house: House, trace: &mut T) {
        debug_assert!(self.is_legal(house), "illegal move {house:?} in {self}");
        let mover = self.to_move;
        let origin = house.index();
        let seeds = std::mem::take(&mut self.houses[origin]);
        trace.step(Step::Pick {
            place: origin,
            seeds: u16::from(seeds),
        });
        let mut last = origin;
        for _ in 0..seeds {
            last = next(last);
            if last == origin {
                // A lap of 12 or more seeds passes over the house it was taken from.
                last = next(last);
            }
            self.houses[last] += 1;
            trace.step(Step::Drop { place: last });
        }
        self.capture(mover, last, trace);
        self.plies += 1;
        self.to_move = Oware::opponent(mover);
        if self.stores[mover.index()] >= WINNING_STORE {
            self.result = Some(Outcome::Win(mover));
        } else if !self.has_move() {
            self.settle(trace);
        }
    }

    /// Captures backwards from `last`, the house the last seed fell in: while it is the
    /// opponent's and holds 2 or 3 seeds. A capture that would take every seed of the
    /// opponent (a grand slam) takes nothing.
    #[inline]
    fn capture<T: Trace>(&mut self, mover: Player, last: usize, trace: &mut T) {
        let opponent = base(Oware::opponent(mover));
        if !(opponent..opponent + PER_SIDE).contains(&last) {
            return;
        }
        let mut first = last + 1;
        let mut taken = 0;
        while first > opponent && matches!(self.houses[first - 1], 2 | 3) {
            first -= 1;
            taken += self.houses[first];
        }
        if taken == 0 || taken == self.side_seeds(Oware::opponent(mover)) {
            return;
        }
        for index in (first..=last).rev() {
            trace.step(Step::Capture {
                place: index,
                value: i32::from(self.houses[index]),
                seat: mover,
            });
            self.stores[mover.index()] += std::mem::take(&mut self.houses[index]);
        }
    }

    /// The letters `player` sows, for messages: `A-F` or `a-f`.
    fn letters(player: Player) -> &'static str {
        if player == Player::First {
            "A-F"
        } else {
            "a-f"
        }
    }
}

fn by_stores(south: i32, north: i32) -> Outcome {
    match south.cmp(&north) {
        std::cmp::Ordering::Greater => Outcome::Win(Player::First),
        std::cmp::Ordering::Less => Outcome::Win(Player::Second),
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

impl Game for Oware {
    type Move = House;

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::Oware(OwareRules)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.plies
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn legal_moves(&self, out: &mut MoveList<House>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let mover = self.to_move;
        let opponent_empty = self.side_seeds(Oware::opponent(mover)) == 0;
        for house in base(mover)..base(mover) + PER_SIDE {
            if self.sowable(house, opponent_empty) {
                out.push(House(house as u8));
            }
        }
    }

    #[inline]
    fn is_legal(&self, house: House) -> bool {
        self.result.is_none()
            && house.index() < HOUSES
            && house.owner() == self.to_move
            && self.sowable(
                house.index(),
                self.side_seeds(Oware::opponent(self.to_move)) == 0,
            )
    }

    fn play_unchecked(&mut self, house: House) {
        self.play_with(house, &mut ());
    }

    fn play_traced<T: Trace>(&mut self, house: House, trace: &mut T) {
        self.play_with(house, trace);
    }

    fn hash_key(&self) -> u64 {
        let mut h = splitmix64(self.to_move.index() as u64);
        for chunk in self.houses.chunks(4) {
            let word = chunk
                .iter()
                .fold(0u64, |acc, &s| (acc << 16) | u64::from(s));
            h = splitmix64(h ^ word);
        }
        splitmix64(h ^ (u64::from(self.stores[0]) << 8 | u64::from(self.stores[1])))
    }

    fn parse_move(&self, text: &str) -> Result<House, MoveError> {
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let house = match (chars.next(), chars.next()) {
            (Some(letter), None) => House::of_letter(letter),
            _ => None,
        }
        .ok_or_else(|| MoveError::Syntax {
            text: trimmed.to_string(),
            expected: "a move is a house letter: A-F for South (the first player), a-f for \
                       North, like `C`"
                .to_string(),
        })?;
        if self.result.is_some() {
            return Err(MoveError::GameOver {
                text: trimmed.to_string(),
            });
        }
        let mover = self.to_move;
        if house.owner() != mover {
            return Err(MoveError::Illegal {
                text: trimmed.to_string(),
                reason: format!(
                    "house {trimmed} is {}'s; {} sows {}",
                    self.seat_name(house.owner()),
                    self.seat_name(mover),
                    Oware::letters(mover)
                ),
            });
        }
        if self.houses[house.index()] == 0 {
            return Err(MoveError::Illegal {
                text: trimmed.to_string(),
                reason: format!("house {trimmed} is empty"),
            });
        }
        if !self.is_legal(house) {
            let mut moves = MoveList::new();
            self.legal_moves(&mut moves);
            let feeding: Vec<String> = moves.iter().map(|m| m.letter().to_string()).collect();
            return Err(MoveError::Illegal {
                text: trimmed.to_string(),
                reason: format!(
                    "{} has no seeds, and {} must sow a house that reaches them ({})",
                    self.seat_name(Oware::opponent(mover)),
                    self.seat_name(mover),
                    feeding.join(", ")
                ),
            });
        }
        Ok(house)
    }

    fn format_move(&self, house: House) -> String {
        house.letter().to_string()
    }

    fn write_move(&self, house: House, out: &mut String) {
        out.push(house.letter());
    }

    /// At the ply cap, as when the players agree that the game goes round in a cycle: each
    /// player takes the seeds on their own side, and the stores decide.
    fn adjudicate(&self) -> Outcome {
        self.result.unwrap_or_else(|| {
            let totals = self.final_totals();
            by_stores(totals[0], totals[1])
        })
    }

    /// The stores once the game is over; before, the stores with each player's own seeds
    /// added (the settlement of the ply cap).
    fn totals(&self) -> Option<Totals> {
        Some(self.final_totals())
    }

    fn default_max_plies(&self) -> u32 {
        DEFAULT_MAX_PLIES
    }

    fn totals_rule(&self) -> Option<String> {
        Some(
            "The stores decide: 25 seeds win at once, the seeds still on the board not \
             counted; a player with no move ends the game, and each player takes the seeds \
             on their own side. 24 each is a draw."
                .to_string(),
        )
    }

    fn rule_line(&self) -> Option<String> {
        Some(
            "25 seeds in the store win at once; a player whose side is empty must be given \
             seeds when a move can; a capture of every seed on a side captures nothing."
                .to_string(),
        )
    }

    fn seat_name(&self, seat: Player) -> String {
        match seat.index() {
            0 => "South",
            _ => "North",
        }
        .to_string()
    }

    fn view(&self) -> View {
        let places = self
            .houses
            .iter()
            .enumerate()
            .map(|(index, &seeds)| Place::Pit {
                seeds: u16::from(seeds),
                piece: false,
                label: Some(House::new(index).letter().to_string()),
            })
            .collect();
        View {
            layout: Layout::Ring {
                per_side: PER_SIDE as u8,
                big_last: false,
                forward: vec![true, true],
            },
            places,
            players: 2,
            scores: Some(self.stores.iter().map(|&s| i32::from(s)).collect()),
            last: None,
            last_from: None,
            line: Vec::new(),
            to_move: self.result.is_none().then_some(self.to_move),
            ply: self.plies,
            notes: Vec::new(),
        }
    }

    fn move_place(&self, house: House) -> MovePlace {
        MovePlace {
            place: house.index(),
            forward: Some(true),
        }
    }

    /// From the view of the player to move: the rank of the house on their side, 0 for `A`
    /// (or `a`) to 5 for `F` (or `f`), as OpenSpiel numbers them.
    fn num_actions(&self) -> usize {
        PER_SIDE
    }

    #[inline]
    fn action(&self, house: House) -> Option<u32> {
        (house.owner() == self.to_move).then_some((house.index() % PER_SIDE) as u32)
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<House> {
        ((action as usize) < PER_SIDE).then(|| House::new(base(self.to_move) + action as usize))
    }
}

impl Oware {
    fn final_totals(&self) -> Totals {
        [Player::First, Player::Second]
            .into_iter()
            .map(|p| {
                let own = if self.result.is_some() {
                    0
                } else {
                    self.side_seeds(p)
                };
                i32::from(self.store(p) + own)
            })
            .collect()
    }
}

/// The ply cap when an experiment sets none: far beyond the longest random game measured
/// (`docs/oware.md`), so it stops only games that go round in a cycle.
const DEFAULT_MAX_PLIES: u32 = 1000;

impl fmt::Display for Oware {
    /// `[4, 4, 4, 4, 4, 4] [4, 4, 4, 4, 4, 4] (0 || 0)`: South's houses `A`-`F`, North's
    /// houses `a`-`f` (each in sowing order), then the stores, South's first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: &[u8]| {
            side.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(
            f,
            "[{}] [{}] ({} || {})",
            row(&self.houses[..PER_SIDE]),
            row(&self.houses[PER_SIDE..]),
            self.stores[0],
            self.stores[1]
        )
    }
}

/// Oware in the registry.
pub const FAMILY: Family = Family {
    name: "oware",
    title: "Oware",
    ids: "`oware` (abapa)",
    example: "oware",
    aliases: &[("abapa", "oware"), ("oware-abapa", "oware")],
    players: (2, 2),
    presets: &[],
    help: &[
        "Oware: oware  (abapa: 2 x 6 houses of 4 seeds, captures of 2 or 3, 25 seeds win; alias abapa)",
        "    moves: the letter of a house to sow, A-F for South (moves first), a-f for North,",
        "           each row lettered left to right from its owner's seat, like C",
    ],
    parse: |given, id| {
        if id == "oware" {
            Some(Ok(Variant::Oware(OwareRules)))
        } else {
            id.starts_with("oware-").then(|| {
                Err(malformed(
                    given,
                    "Oware (abapa) has no variant parameters: its id is `oware`",
                ))
            })
        }
    },
};

/// Oware seats two: South (`First`) and North (`Second`).
impl TwoPlayer for Oware {}
