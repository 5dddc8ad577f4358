//! Threat-space search for m,n,k games: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes), on a [`Board`] that keeps the line patterns of
//! [`crate::pattern`] up to date stone by stone.
//!
//! A *four* is a stone after which its player wins at the next move unless stopped; an *open
//! three* one after which its player makes an open four unless stopped. In a VCF every move of
//! the attacker is a four, so the defender's replies are forced: the cells that stop every
//! immediate win (under `freestyle` and `exact` the one win cell; under `caro` also a stone at
//! the far end of the line, which blocks it at both ends), unless the defender can win at once.
//! A defender's reply that is itself a four must be blocked by the attacker's next move, which
//! must again be a four. Wins and the defences against them are decided by the game's own rule
//! ([`Mnk::wins_at`]), never by the patterns alone, so a VCF found here is a proof: the
//! attacker wins against every defence.
//!
//! A VCT also lets the attacker play open threes. The defender then is not forced to one cell:
//! its replies are every cell where the attacker would make a four (which includes the cells
//! that stop the open four) and every four of its own; and if the defender has a VCF of its own
//! the three fails. That is the usual threat-space search of gomoku programs, and not a proof
//! (a quiet defence elsewhere can sometimes refute a three), so the agent uses a VCT to choose
//! its move and the solver uses only VCF.

use std::collections::HashMap;
use std::time::Instant;

use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, Player, TwoPlayer, WinRule};

use super::pattern::Patterns;

/// A key that tells the side to move apart in [`Board::key`].
const SIDE_KEY: u64 = 0x9d39_247e_3377_6d41;

/// An m,n,k position for threat search: the stones (in an [`Mnk`] per ply, for the rules'
/// own win test), their patterns, and the side to move, which a pass can change.
#[derive(Clone, Debug)]
pub struct Board {
    stack: Vec<Mnk>,
    patterns: Patterns,
    to_move: Player,
    moves: Vec<(Cell, Player)>,
    rule: WinRule,
    k: usize,
}

impl Board {
    /// The board of `game` with its side to move.
    pub fn new(game: &Mnk) -> Board {
        Board {
            stack: vec![game.clone()],
            patterns: Patterns::new(game),
            to_move: game.side_to_move(),
            moves: Vec::new(),
            rule: game.config().rule(),
            k: usize::from(game.config().k()),
        }
    }

    /// This board evaluated with the pattern `weights` ([`Patterns::with_weights`]).
    pub fn with_weights(mut self, weights: [i32; crate::pattern::PATTERNS]) -> Board {
        self.patterns = self.patterns.with_weights(weights);
        self
    }

    /// The stones as a position (its own side to move follows the stone count; see
    /// [`Board::to_move`]).
    #[inline]
    pub fn game(&self) -> &Mnk {
        self.stack.last().expect("the board has a position")
    }

    /// The patterns of the stones.
    #[inline]
    pub fn patterns(&self) -> &Patterns {
        &self.patterns
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The stones played since the board was made, with their players.
    pub fn moves(&self) -> &[(Cell, Player)] {
        &self.moves
    }

    /// The win rule.
    #[inline]
    pub fn rule(&self) -> WinRule {
        self.rule
    }

    /// The line length that wins.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// A hash of the stones and the side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        let key = self.game().hash_key();
        if self.to_move == Player::Second {
            key ^ SIDE_KEY
        } else {
            key
        }
    }

    /// Whether `cell` is empty.
    #[inline]
    pub fn is_empty(&self, cell: Cell) -> bool {
        self.game().empty_cells().contains(cell)
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> &CellSet {
        self.game().empty_cells()
    }

    /// Puts a stone of the side to move on the empty `cell`; the other side moves next.
    #[inline]
    pub fn play(&mut self, cell: Cell) {
        let player = self.to_move;
        let mut next = self.game().clone();
        next.place(cell, player);
        self.stack.push(next);
        self.patterns.play(cell, player);
        self.moves.push((cell, player));
        self.to_move = Mnk::opponent(player);
    }

    /// Takes back the last stone.
    #[inline]
    pub fn undo(&mut self) {
        let (cell, player) = self.moves.pop().expect("a stone to take back");
        self.stack.pop();
        self.patterns.undo(cell, player);
        self.to_move = player;
    }

    /// The side to move passes (for asking what the opponent threatens).
    #[inline]
    pub fn pass(&mut self) {
        self.to_move = Mnk::opponent(self.to_move);
    }

    /// Whether a stone of `player` on the empty `cell` wins at once, by the rules.
    #[inline]
    pub fn wins_at(&self, cell: Cell, player: Player) -> bool {
        self.game().wins_at(cell, player)
    }

    /// The cells where `player` wins at once, by the rules. The patterns find the candidates
    /// (exactly the winning cells under `freestyle` and `exact`; under `caro` a superset, as
    /// a window does not see past a long overline).
    #[inline]
    pub fn wins(&self, player: Player) -> CellSet {
        let candidates = self.patterns.sets(player).win;
        if self.rule != WinRule::Caro {
            return candidates;
        }
        let mut wins = CellSet::EMPTY;
        for cell in candidates.iter() {
            if self.wins_at(cell, player) {
                wins.insert(cell);
            }
        }
        wins
    }

    /// The cells where a stone of the side to move stops every immediate win of the opponent
    /// `wins` (not empty): under `freestyle` and `exact` the one win cell (none when there are
    /// two); under `caro` also stones that block a line at its far end.
    pub fn defences(&self, wins: &CellSet) -> CellSet {
        let count = wins.len();
        if self.rule != WinRule::Caro {
            return if count == 1 { *wins } else { CellSet::EMPTY };
        }
        let attacker = Mnk::opponent(self.to_move);
        let game = self.game();
        let config = game.config();
        let (rows, cols) = (i32::from(config.rows()), i32::from(config.cols()));
        // Candidates: the win cells, and the empty cell just past each end of the attacker's
        // run through a win cell along each line. A stone elsewhere cannot stop that win: it
        // neither shortens the run (all the attacker's stones) nor blocks one of its ends.
        let mut candidates = *wins;
        let stones = game.stones(attacker);
        for win in wins.iter() {
            let (row, col) = config.row_col(win);
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                for sign in [-1, 1] {
                    let (mut r, mut c) = (i32::from(row), i32::from(col));
                    loop {
                        (r, c) = (r + sign * dr, c + sign * dc);
                        if r < 0 || c < 0 || r >= rows || c >= cols {
                            break;
                        }
                        let cell = config.cell(r as u8, c as u8).expect("on the board");
                        if !stones.contains(cell) {
                            if game.empty_cells().contains(cell) {
                                candidates.insert(cell);
                            }
                            break;
                        }
                    }
                }
            }
        }
        let mut out = CellSet::EMPTY;
        for cell in candidates.iter() {
            let mut after = game.clone();
            after.place(cell, self.to_move);
            if wins
                .iter()
                .all(|win| win == cell || !after.wins_at(win, attacker))
            {
                out.insert(cell);
            }
        }
        out
    }
}

/// What a threat search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreatResult {
    /// The attacker wins; the line is the attacker's moves and the defender's replies, from
    /// the first move (one defence per defender move: the first one the search refuted).
    Win(Vec<Cell>),
    /// No win of this kind within the depth.
    NoWin,
    /// The node budget or the deadline ran out first.
    Unknown,
}

impl ThreatResult {
    /// Whether a win was found.
    pub fn is_win(&self) -> bool {
        matches!(self, ThreatResult::Win(_))
    }
}

/// The limits of a threat search.
#[derive(Clone, Copy, Debug)]
pub struct ThreatLimits {
    /// Threats (fours) of the attacker at most: a VCF of depth d has at most 2d + 1 plies.
    pub depth: u32,
    /// Nodes at most.
    pub nodes: u64,
    /// A deadline, if any.
    pub deadline: Option<Instant>,
}

impl Default for ThreatLimits {
    fn default() -> Self {
        ThreatLimits {
            depth: 30,
            nodes: 1_000_000,
            deadline: None,
        }
    }
}

/// Search state of one threat search: the nodes, the limits, and what failed already.
pub struct ThreatSearch {
    limits: ThreatLimits,
    /// Nodes searched so far.
    pub nodes: u64,
    aborted: bool,
    /// Positions (key) known not to have a win within a depth (value), by kind (VCF 0,
    /// VCT 1).
    failed: HashMap<(u64, u8), u32>,
}

/// How often the clock is read, in nodes.
const CLOCK_EVERY: u64 = 256;

impl ThreatSearch {
    /// A search within `limits`.
    pub fn new(limits: ThreatLimits) -> ThreatSearch {
        ThreatSearch {
            limits,
            nodes: 0,
            aborted: false,
            failed: HashMap::new(),
        }
    }

    /// Whether the budget ran out.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limits.nodes
            || self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether the side to move of `board` wins by continuous fours.
    pub fn vcf(&mut self, board: &mut Board) -> ThreatResult {
        let mut line = Vec::new();
        let depth = self.limits.depth;
        match self.attack(board, depth, false, &mut line) {
            Some(true) => ThreatResult::Win(line),
            Some(false) => ThreatResult::NoWin,
            None => ThreatResult::Unknown,
        }
    }

    /// Whether the side to move of `board` wins by continuous fours and open threes.
    pub fn vct(&mut self, board: &mut Board) -> ThreatResult {
        let mut line = Vec::new();
        let depth = self.limits.depth;
        match self.attack(board, depth, true, &mut line) {
            Some(true) => ThreatResult::Win(line),
            Some(false) => ThreatResult::NoWin,
            None => ThreatResult::Unknown,
        }
    }

    /// The attacker (the side to move) to play: `Some(true)` if it wins with threats within
    /// `depth` moves (and `line` then holds the line), `Some(false)` if not, `None` if the
    /// budget ran out.
    fn attack(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        line: &mut Vec<Cell>,
    ) -> Option<bool> {
        if self.tick() {
            return None;
        }
        let me = board.to_move();
        let them = Mnk::opponent(me);
        let my_wins = board.wins(me);
        if let Some(cell) = my_wins.iter().next() {
            line.push(cell);
            return Some(true);
        }
        if depth == 0 || board.empty().is_empty() {
            return Some(false);
        }
        let kind = u8::from(threes);
        let key = board.key();
        if self.failed.get(&(key, kind)).is_some_and(|&d| d >= depth) {
            return Some(false);
        }
        let their_wins = board.wins(them);
        let forced = !their_wins.is_empty();
        // The moves to try: fours (and open threes for a VCT); when the defender threatens to
        // win, only the moves that stop it, and only if they are threats themselves.
        let sets = *board.patterns().sets(me);
        let mut candidates = if threes {
            sets.four.or(&sets.open_three)
        } else {
            sets.four
        };
        if forced {
            candidates = candidates.and(&board.defences(&their_wins));
        }
        let mut ordered: Vec<(i32, Cell)> = candidates
            .iter()
            .filter(|&cell| board.is_empty(cell))
            .map(|cell| {
                let value = board.patterns().value(cell, me);
                let rank = if sets.open_four.contains(cell) {
                    3
                } else if sets.four.contains(cell) {
                    2
                } else {
                    1
                };
                (rank * 100_000 + value, cell)
            })
            .collect();
        ordered.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, cell) in ordered {
            board.play(cell);
            let result = self.defend(board, depth, threes, line);
            board.undo();
            match result {
                None => return None,
                Some(true) => {
                    line.insert(0, cell);
                    return Some(true);
                }
                Some(false) => {}
            }
        }
        self.failed.insert((key, kind), depth);
        Some(false)
    }

    /// The defender to move after the attacker's threat: `Some(true)` if the attacker wins
    /// against every reply.
    fn defend(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        line: &mut Vec<Cell>,
    ) -> Option<bool> {
        if self.tick() {
            return None;
        }
        let me = board.to_move();
        let attacker = Mnk::opponent(me);
        if !board.wins(me).is_empty() {
            // The defender wins first.
            return Some(false);
        }
        let attacker_wins = board.wins(attacker);
        let replies = if attacker_wins.is_empty() {
            // No four: this was an open three (VCT only), or no threat at all.
            if !threes {
                return Some(false);
            }
            let attacker_sets = *board.patterns().sets(attacker);
            if attacker_sets.open_four.is_empty() {
                return Some(false);
            }
            // A defender with a VCF of its own ignores the three.
            let mut counter = Vec::new();
            match self.attack(board, self.limits.depth, false, &mut counter) {
                None => return None,
                Some(true) => return Some(false),
                Some(false) => {}
            }
            attacker_sets
                .four
                .or(&board.patterns().sets(me).four)
                .and(board.empty())
        } else {
            board.defences(&attacker_wins)
        };
        if replies.is_empty() {
            // Nothing stops the fours: the defender blocks one, the attacker wins at another.
            let mut wins = attacker_wins.iter();
            if let (Some(block), Some(win)) = (wins.next(), wins.next()) {
                line.push(block);
                line.push(win);
            }
            return Some(true);
        }
        let mut best_line: Option<Vec<Cell>> = None;
        for reply in replies.iter() {
            board.play(reply);
            let mut sub = Vec::new();
            let result = self.attack(board, depth - 1, threes, &mut sub);
            board.undo();
            match result {
                None => return None,
                Some(false) => return Some(false),
                Some(true) => {
                    if best_line.is_none() {
                        let mut with_reply = vec![reply];
                        with_reply.extend(sub);
                        best_line = Some(with_reply);
                    }
                }
            }
        }
        line.extend(best_line.unwrap_or_default());
        Some(true)
    }
}

/// The shortest VCF of the side to move of `game`, in plies (d fours, the d replies and the
/// winning move: 2d + 1), searching deeper one four at a time up to `max_depth` fours; `None`
/// when there is none that short (or the node budget ran out).
pub fn shortest_vcf(game: &Mnk, max_depth: u32, nodes: u64) -> Option<(u32, Vec<Cell>)> {
    for depth in 1..=max_depth {
        let limits = ThreatLimits {
            depth,
            nodes,
            deadline: None,
        };
        match vcf(game, limits).0 {
            ThreatResult::Win(line) => return Some((2 * depth + 1, line)),
            ThreatResult::Unknown => return None,
            ThreatResult::NoWin => {}
        }
    }
    None
}

/// Every move of the side to move of `game` that starts a VCF of at most `depth` attacker
/// moves (a win at once counts), in cell order; `None` when the node budget ran out.
pub fn vcf_first_moves(game: &Mnk, depth: u32, nodes: u64) -> Option<Vec<Cell>> {
    let mut board = Board::new(game);
    let me = board.to_move();
    let mut search = ThreatSearch::new(ThreatLimits {
        depth,
        nodes,
        deadline: None,
    });
    let mut out = Vec::new();
    let wins = board.wins(me);
    if !wins.is_empty() {
        return Some(wins.iter().collect());
    }
    let their_wins = board.wins(Mnk::opponent(me));
    let mut candidates = board.patterns().sets(me).four;
    if !their_wins.is_empty() {
        candidates = candidates.and(&board.defences(&their_wins));
    }
    for cell in candidates.iter() {
        if !board.is_empty(cell) {
            continue;
        }
        board.play(cell);
        let mut line = Vec::new();
        let result = search.defend(&mut board, depth, false, &mut line);
        board.undo();
        match result {
            None => return None,
            Some(true) => out.push(cell),
            Some(false) => {}
        }
    }
    Some(out)
}

/// Whether the side to move of `game` wins by continuous fours within `limits`.
pub fn vcf(game: &Mnk, limits: ThreatLimits) -> (ThreatResult, u64) {
    let mut board = Board::new(game);
    let mut search = ThreatSearch::new(limits);
    let result = search.vcf(&mut board);
    (result, search.nodes)
}

/// Whether the side to move of `game` wins by continuous fours and threes within `limits`.
pub fn vct(game: &Mnk, limits: ThreatLimits) -> (ThreatResult, u64) {
    let mut board = Board::new(game);
    let mut search = ThreatSearch::new(limits);
    let result = search.vct(&mut board);
    (result, search.nodes)
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::AgentRng;
    use crate::solve::{Limits, Value, solve};

    fn start(id: &str) -> Mnk {
        id.parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    fn cells(game: &Mnk, text: &str) -> Vec<Cell> {
        text.split_whitespace()
            .map(|t| game.config().parse_cell(t).unwrap())
            .collect()
    }

    /// `start` after up to `plies` random moves, stopping before a move that would end the
    /// game (so the game returned is never over).
    fn random_game(start: &Mnk, plies: u32, rng: &mut AgentRng) -> Mnk {
        let mut game = start.clone();
        for _ in 0..plies {
            match game.random_move(rng) {
                Some(cell) if !game.child(cell).is_over() => game.play_unchecked(cell),
                _ => break,
            }
        }
        game
    }

    #[test]
    fn a_four_three_is_found() {
        // X: h8 i8 j8 (row 8) and k10 k11 (column k); O elsewhere. X to move: k8 makes a
        // four on row 8 (h8-k8, blocked by O at g8) and a three on column k... a simpler
        // known shape: a double four.
        let game = start("gomoku")
            .play_line("h8 a1 i8 a3 j8 g8 l10 a5 l11 a7 l12 a9")
            .unwrap();
        // X to move: k8 is a four (h8-k8, g8 blocked, l8 wins) and l9 makes l9-l12 an open
        // four. A VCF: k8 (O l8) then l9 or l13.
        let (result, _) = vcf(&game, ThreatLimits::default());
        let ThreatResult::Win(line) = result else {
            panic!("no VCF found: {result:?}\n{game}");
        };
        assert!(!line.is_empty());
        let mut replay = game.clone();
        for &cell in &line {
            assert!(replay.is_legal(cell), "{line:?}");
            replay.play_unchecked(cell);
        }
        assert_eq!(replay.outcome(), Some(rules::Outcome::Win(Player::First)));
    }

    #[test]
    fn no_vcf_on_a_quiet_board() {
        let game = start("gomoku").play_line("h8 h9 i8").unwrap();
        assert_eq!(vcf(&game, ThreatLimits::default()).0, ThreatResult::NoWin);
    }

    /// Every VCF found on a small board is a win by the exact solver, under every rule.
    #[test]
    fn every_vcf_found_is_a_solver_win() {
        let mut rng = AgentRng::seed_from_u64(5);
        let mut wins = 0;
        for id in [
            "mnk-6x6k4",
            "mnk-6x6k4-caro",
            "mnk-6x6k4-exact",
            "mnk-7x6k5",
            "mnk-7x6k5-caro",
        ] {
            let start = start(id);
            let mut checked = 0;
            while checked < 40 {
                let plies = rng.random_range(9..17);
                let game = random_game(&start, plies, &mut rng);
                let (result, _) = vcf(&game, ThreatLimits::default());
                if let ThreatResult::Win(line) = result {
                    let solution = solve(
                        &game,
                        &Limits::default().with_tt_mb(16).with_all_moves(false),
                    );
                    assert_eq!(solution.value, Some(Value::Win), "{id} {line:?}\n{game}");
                    wins += 1;
                }
                checked += 1;
            }
        }
        assert!(wins > 10, "too few VCFs to check: {wins}");
    }

    #[test]
    fn the_board_plays_undoes_and_passes() {
        let game = start("gomoku").play_line("h8 h9").unwrap();
        let mut board = Board::new(&game);
        let key = board.key();
        let [a, b] = cells(&game, "i9 j10")[..] else {
            unreachable!()
        };
        board.play(a);
        board.pass();
        board.play(b);
        assert_eq!(board.game().stone(b), Some(Player::First));
        board.undo();
        board.pass();
        board.undo();
        assert_eq!(board.key(), key);
        assert_eq!(board.to_move(), Player::First);
    }

    #[test]
    fn caro_defences_include_the_far_end() {
        // Row 1: O at a1, X at b1 c1 d1 e1; f1 empty; g1 empty. X threatens f1 (b1-f1, blocked
        // at a1 only). O stops it at f1, or at g1 (then b1-f1 would be blocked at both ends).
        let game = start("mnk-9x9k5-caro")
            .play_line("b1 a1 c1 a5 d1 a7 e1")
            .unwrap();
        let board = Board::new(&game);
        let wins = board.wins(Player::First);
        assert_eq!(wins.iter().collect::<Vec<_>>(), cells(&game, "f1"));
        let defences = board.defences(&wins);
        let mut expected = cells(&game, "f1 g1");
        expected.sort();
        assert_eq!(defences.iter().collect::<Vec<_>>(), expected);
    }

    /// Under caro, the defences are every empty cell whose stone stops all the opponent's
    /// wins, by the rules: the same as trying each empty cell of the board, on random
    /// positions (overlines and runs blocked at one end included).
    #[test]
    fn caro_defences_are_every_stopping_cell() {
        let mut rng = AgentRng::seed_from_u64(11);
        let mut checked = 0;
        for id in ["mnk-15x15k5-caro", "mnk-9x9k5-caro", "mnk-7x7k4-caro"] {
            let start = start(id);
            for _ in 0..300 {
                // Dense random boards, where wins with long runs are common.
                let plies = rng.random_range(10..u32::from(start.config().cells()) / 2);
                let game = random_game(&start, plies, &mut rng);
                let board = Board::new(&game);
                let attacker = Mnk::opponent(board.to_move());
                let wins = board.wins(attacker);
                if wins.is_empty() {
                    continue;
                }
                let mut expected = CellSet::EMPTY;
                for cell in game.empty_cells().iter() {
                    let mut after = game.clone();
                    after.place(cell, board.to_move());
                    if wins
                        .iter()
                        .all(|win| win == cell || !after.wins_at(win, attacker))
                    {
                        expected.insert(cell);
                    }
                }
                assert_eq!(board.defences(&wins), expected, "{id}\n{game}");
                checked += 1;
            }
        }
        assert!(
            checked > 100,
            "too few positions with a win to check: {checked}"
        );
    }
}
