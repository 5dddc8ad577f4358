//! Handing games to workers in schedule order, never far ahead of the writer.
//!
//! Rows are written in schedule order, so a row that finishes early waits in memory until every
//! earlier one is written. Without a bound, fast games (random tic-tac-toe, tens of thousands a
//! second) pile up behind a slow one or behind the writer itself: memory then grows with the
//! number of games. Workers therefore take game `k` (the k-th game this run plays) only while
//! fewer than `window` games separate it from the next row to write; they wait otherwise.

use std::sync::{Condvar, Mutex, MutexGuard};

struct State<I> {
    /// The place of the next game to hand out among this run's games.
    next: u64,
    /// Rows written so far.
    written: u64,
    games: I,
    stopped: bool,
}

/// The games left, handed out in order within a window of the writer.
pub(crate) struct Dispatch<I> {
    state: Mutex<State<I>>,
    moved: Condvar,
    window: u64,
}

impl<I: Iterator<Item = u64>> Dispatch<I> {
    /// Hands out `games` (schedule indices, in order) at most `window` ahead of the writer.
    pub fn new(games: I, window: u64) -> Self {
        Dispatch {
            state: Mutex::new(State {
                next: 0,
                written: 0,
                games,
                stopped: false,
            }),
            moved: Condvar::new(),
            window: window.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<I>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next game as `(k, index)`: its place among this run's games and its schedule index.
    /// Waits while the writer is `window` games behind; `None` when no game is left or the run
    /// stops.
    pub fn take(&self) -> Option<(u64, u64)> {
        let mut state = self.lock();
        while !state.stopped && state.next >= state.written + self.window {
            state = self.moved.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        if state.stopped {
            return None;
        }
        let index = state.games.next()?;
        state.next += 1;
        Some((state.next - 1, index))
    }

    /// The writer has written `rows` rows of this run.
    pub fn written(&self, rows: u64) {
        self.lock().written = rows;
        self.moved.notify_all();
    }

    /// Stops handing out games (the writer failed).
    pub fn stop(&self) {
        self.lock().stopped = true;
        self.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_wait_for_the_writer_beyond_the_window() {
        let dispatch = Dispatch::new(10..20u64, 3);
        assert_eq!(dispatch.take(), Some((0, 10)));
        assert_eq!(dispatch.take(), Some((1, 11)));
        assert_eq!(dispatch.take(), Some((2, 12)));
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| dispatch.take());
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!waiting.is_finished(), "a fourth game was handed out");
            dispatch.written(1);
            assert_eq!(waiting.join().unwrap(), Some((3, 13)));
        });
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| dispatch.take());
            dispatch.stop();
            assert_eq!(waiting.join().unwrap(), None);
        });
    }

    #[test]
    fn the_games_run_out() {
        let dispatch = Dispatch::new(0..2u64, 8);
        assert_eq!(dispatch.take(), Some((0, 0)));
        assert_eq!(dispatch.take(), Some((1, 1)));
        assert_eq!(dispatch.take(), None);
    }
}
