//! Principal variations: the line of play an agent expects from a position, as
//! [`crate::Choice::pv`] holds it.
//!
//! A search with a transposition table finds its line by walking the table from its chosen
//! move, each position's stored best move in turn (as engines did before they kept a
//! triangular array; see the Chess Programming Wiki's "Principal Variation"). Nothing is
//! collected during the search, so its nodes and its moves are those it has without a line.
//! The walk trusts nothing it reads: a table entry may be another position's (a key
//! collision), an earlier iteration's, or missing, so every move must be legal where it
//! stands, and the line stops at the end of the game, at a position met before, and at
//! [`PLIES`].

use rules::Game;

/// The most plies a principal variation walked from a search holds. A proven forcing line
/// (the `threat` agent's VCF or VCT) is kept whole, so that it ends in the win.
pub const PLIES: usize = 12;

/// The line from `position` that starts with `first` and goes on with what `next` says for
/// each position reached (given that position and the move that reached it), while the moves
/// are legal, the game goes on, no position repeats and the line is shorter than [`PLIES`].
/// An illegal `first` gives an empty line.
pub fn walk<G: Game>(
    position: &G,
    first: G::Move,
    mut next: impl FnMut(&G, G::Move) -> Option<G::Move>,
) -> Vec<G::Move> {
    let mut line = Vec::new();
    let mut seen = vec![position.hash_key()];
    let mut current = position.clone();
    let mut mv = first;
    loop {
        if line.len() >= PLIES || current.is_over() || !current.is_legal(mv) {
            break;
        }
        current = current.child(mv);
        line.push(mv);
        let key = current.hash_key();
        if seen.contains(&key) {
            break;
        }
        seen.push(key);
        match next(&current, mv) {
            Some(following) => mv = following,
            None => break,
        }
    }
    line
}

/// What `each` makes of every move of `line` in the position it is played in, while the game
/// goes on and the moves are legal (and `each` gives something): the one walk [`is_line`],
/// [`texts`] and [`actions`] share.
fn along<G: Game, T>(
    position: &G,
    line: &[G::Move],
    mut each: impl FnMut(&G, G::Move) -> Option<T>,
) -> Vec<T> {
    let mut current = position.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if current.is_over() || !current.is_legal(mv) {
            break;
        }
        match each(&current, mv) {
            Some(item) => out.push(item),
            None => break,
        }
        current = current.child(mv);
    }
    out
}

/// The legal moves of `position` as a line, if they are one: each legal in turn, the game not
/// over before the last. For lines that come from elsewhere (a threat search's forcing line).
pub fn is_line<G: Game>(position: &G, line: &[G::Move]) -> bool {
    along(position, line, |_, _| Some(())).len() == line.len()
}

/// The moves of `line` from `position` in the game's notation, each written in the position
/// it is played in (a sowing game's move reads differently by seat); stops at the first move
/// that is not legal, which a line from [`walk`] never has.
pub fn texts<G: Game>(position: &G, line: &[G::Move]) -> Vec<String> {
    along(position, line, |current, mv| Some(current.format_move(mv)))
}

/// The moves of `line` from `position` as actions ([`Game::action`]), each read in the
/// position it is played in (an action is the mover's: O An Quan's count from the mover's
/// first square); stops at the first move that is not legal.
pub fn actions<G: Game>(position: &G, line: &[G::Move]) -> Vec<u32> {
    along(position, line, |current, mv| current.action(mv))
}

/// The line of `actions` from `position` as moves, the inverse of [`actions`]; stops at the
/// first action that is not a legal move where it is played.
pub fn from_actions<G: Game>(position: &G, actions: &[u32]) -> Vec<G::Move> {
    let mut current = position.clone();
    let mut out = Vec::with_capacity(actions.len());
    for &action in actions {
        match current.move_of(action) {
            Some(mv) if !current.is_over() && current.is_legal(mv) => out.push(mv),
            _ => break,
        }
        current = current.child(out[out.len() - 1]);
    }
    out
}

/// The move of `position` whose index ([`crate::AgentGame::move_index`]) is `index`, if one
/// of its legal moves has it.
pub(crate) fn move_with_index<G: crate::AgentGame>(position: &G, index: usize) -> Option<G::Move> {
    let mut moves = rules::MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().copied().find(|&mv| G::move_index(mv) == index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Mnk, Variant};

    fn tictactoe() -> Mnk {
        "tictactoe"
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    /// The walk stops at an illegal move, at the end of the game and at PLIES.
    #[test]
    fn the_walk_keeps_only_legal_moves_until_the_game_ends() {
        let start = tictactoe();
        let cell = |text: &str| start.parse_move(text).unwrap();
        // `next` repeats the first cell, which is taken after it: the line stops there.
        let line = walk(&start, cell("b2"), |_, last| Some(last));
        assert_eq!(line, vec![cell("b2")]);
        // Every position's first legal move: the game ends (or fills) within nine plies.
        let line = walk(&start, cell("a1"), |position, _| {
            let mut moves = rules::MoveList::new();
            position.legal_moves(&mut moves);
            moves.first().copied()
        });
        assert!(is_line(&start, &line));
        let mut end = start.clone();
        for &mv in &line {
            end = end.child(mv);
        }
        assert!(end.is_over(), "{line:?}");
        assert!(line.len() <= 9 && line.len() <= PLIES);
        // A first move that is not legal: no line.
        let taken = start.child(cell("a1"));
        assert!(walk(&taken, cell("a1"), |_, _| None).is_empty());
    }

    /// O An Quan's actions are the mover's: a line goes to actions and back, ply by ply.
    #[test]
    fn a_line_goes_to_actions_and_back() {
        let start = "oanquan"
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::OanQuanRules>()
            .unwrap()
            .start();
        let mut line = Vec::new();
        let mut current = start.clone();
        for text in ["2T", "10P", "3T"] {
            let mv = current.parse_move(text).unwrap();
            line.push(mv);
            current = current.child(mv);
        }
        let actions = actions(&start, &line);
        assert_eq!(actions.len(), 3);
        assert_eq!(from_actions(&start, &actions), line);
        assert_eq!(texts(&start, &line), ["2T", "10P", "3T"]);
    }
}
