//! The exact solver: the alpha-beta search of `alphabeta` with win / draw / loss scores and no
//! horizon, so its answer is the game-theoretic value.
//!
//! Games with a ply bound (m,n,k: the board fills up) are searched to the end. Games that can go
//! on for ever (O An Quan positions repeat) are searched by iterative deepening up to
//! [`Limits::max_depth`]: a forced win or loss found that way is proven, anything else stays
//! unknown (a draw cannot be proven without the end of the game in sight).
//!
//! ```
//! use agents::solve::{Limits, Value, solve};
//! use rules::Game;
//!
//! let game = "tictactoe".parse::<rules::Variant>()?.rules::<rules::MnkConfig>().unwrap().start();
//! let solution = solve(&game, &Limits::default().with_tt_mb(16));
//! assert_eq!(solution.value, Some(Value::Draw));
//! assert_eq!(solution.best.len(), 9); // every first move draws
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rules::{MoveList, Outcome};

use crate::AgentGame;
use crate::memory::OutOfMemory;
use crate::search::Searcher;
pub use crate::solution::{Limits, Monitor, MoveValue, Solution, Value};

/// Solves `position` within `limits`.
///
/// Panics when the transposition table of `limits.tt_mb` MiB cannot be allocated; [`try_solve`]
/// returns that as an error instead (the `arena solve` command uses it). Panics as
/// [`try_solve`] does on a game of more than two players.
pub fn solve<G: AgentGame>(position: &G, limits: &Limits) -> Solution<G::Move> {
    try_solve(position, limits).unwrap_or_else(|error| panic!("{error}"))
}

/// Solves `position` within `limits` with the game's own solver if it has one
/// ([`AgentGame::own_solver`]), else with the generic one, or says that its table cannot be
/// allocated.
///
/// # Panics
/// If `position` has more than two players: a win, draw or loss is a value of two-player
/// games (callers ask [`rules::Game::num_players`] first, as `arena solve` does).
pub fn try_solve<G: AgentGame>(
    position: &G,
    limits: &Limits,
) -> Result<Solution<G::Move>, OutOfMemory> {
    match position.own_solver(limits) {
        Some(found) => found,
        None => try_solve_generic(position, limits),
    }
}

/// The generic exact alpha-beta solver on any two-player game, whether or not the game has a
/// solver of its own; or says that its table cannot be allocated.
pub fn try_solve_generic<G: AgentGame>(
    position: &G,
    limits: &Limits,
) -> Result<Solution<G::Move>, OutOfMemory> {
    let started = Instant::now();
    let players = position.num_players();
    assert_eq!(players, 2, "the solver plays games of two players");
    let to_move = position.side_to_move();
    let mut solution = Solution {
        to_move,
        // Round a table of two, the next seat is the opponent.
        opponent: to_move.next(players),
        value: None,
        moves: Vec::new(),
        best: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        depth: 0,
        complete: false,
        table_permille: 0,
    };
    if let Some(outcome) = position.outcome() {
        solution.value = Some(match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(winner) if winner == to_move => Value::Win,
            Outcome::Win(_) => Value::Loss,
            Outcome::Ranked(_) => unreachable!("the solver plays two-player games"),
        });
        solution.complete = true;
        return Ok(solution);
    }
    let deadline = limits.time.map(|time| started + time);
    let mut searcher = Searcher::<G>::new(limits.tt_mb);
    searcher.begin(limits.nodes, deadline)?;
    searcher.monitor = limits.monitor.clone();
    if let Some(monitor) = &limits.monitor {
        monitor
            .table_bytes
            .store(searcher.table_bytes(), Ordering::Relaxed);
    }
    let aux = position.aux();

    // The root value: to the end when the game has a ply bound, else deepening until a proof.
    let bounded = position.remaining_plies();
    let depths = match bounded {
        Some(plies) => plies..=plies,
        None => 1..=limits.max_depth.max(1),
    };
    let mut root = None;
    for depth in depths {
        if let Some(monitor) = &limits.monitor {
            monitor.depth.store(depth, Ordering::Relaxed);
        }
        let score = searcher.wdl(position, &aux, depth, 0, -2, 2);
        if searcher.aborted {
            break;
        }
        solution.depth = depth;
        if bounded.is_some() || score != 0 {
            root = Some(score);
            break;
        }
    }
    solution.value = root.map(Value::from_wdl);

    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if limits.all_moves && !searcher.aborted {
        for &mv in &moves {
            let mut value = None;
            if !searcher.aborted && solution.depth > 0 {
                let child = position.child(mv);
                let child_aux = position.aux_after(&aux, mv, &child);
                let score = -searcher.wdl(&child, &child_aux, solution.depth - 1, 1, -2, 2);
                // Without a ply bound only proofs count: a 0 may hide a deeper result.
                if !searcher.aborted && (bounded.is_some() || score != 0) {
                    value = Some(Value::from_wdl(score));
                }
            }
            solution.moves.push(MoveValue { mv, value });
        }
        if let Some(value) = solution.value {
            solution.best = solution
                .moves
                .iter()
                .filter(|entry| entry.value == Some(value))
                .map(|entry| entry.mv)
                .collect();
        }
        solution.complete =
            solution.value.is_some() && solution.moves.iter().all(|entry| entry.value.is_some());
    } else {
        if solution.value.is_some()
            && let Some(index) = searcher.table_move(position.hash_key())
        {
            solution
                .best
                .extend(moves.iter().copied().find(|&mv| G::move_index(mv) == index));
        }
        solution.complete = solution.value.is_some() && !limits.all_moves;
    }
    solution.nodes = searcher.nodes;
    solution.table_permille = searcher.table_permille();
    solution.elapsed = started.elapsed();
    Ok(solution)
}
