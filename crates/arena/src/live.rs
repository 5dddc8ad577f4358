//! The games a run is playing, in a small file beside its CSV ([`live_path`]:
//! `games.live.toml`, or `games.shard-I-of-N.live.toml`), for `arena serve`'s Live page: one
//! entry per game in progress with its moves so far.
//!
//! The run and the server share only files. The workers tell a [`Board`] each move (a lock of
//! their own slot, tried and never waited for: a move the writer is reading at that instant is
//! told with the next one); a thread of the run rewrites the file at most every
//! [`WRITE_EVERY`] when something changed, and every [`HEARTBEAT`] in any case, atomically
//! (a temporary file renamed over it), so a reader never sees half of one. A finished run, or
//! one stopped by an error or a signal ([`remove_files`]), removes it; one killed leaves it
//! behind, and a reader knows it for a stopped run by its age ([`LiveFile::stale`]). Nothing else reads it: resume,
//! merge and verify look at the CSVs only, and the file holds nothing the CSV needs.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::ArenaError;

/// How often, at most, the run rewrites the live file while games move.
pub const WRITE_EVERY: Duration = Duration::from_secs(1);

/// How often the run rewrites the live file when nothing moved (a game's agent thinking for
/// long), so that a reader can tell a run that thinks from one that was killed.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// The live files this process is writing, and whether it is ending on a signal (then it
/// writes none any more). Writes and the removal on a signal hold this lock, so no file is
/// written after [`remove_files`].
static WRITING: Mutex<(Vec<PathBuf>, bool)> = Mutex::new((Vec::new(), false));

/// Removes the live files this process is writing, and writes none after: for a run stopped
/// by a signal (the binary's handler calls it before it exits), so that a page does not show
/// the run playing until its file is old.
pub fn remove_files() {
    let mut writing = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    writing.1 = true;
    for csv in writing.0.drain(..) {
        let _ = std::fs::remove_file(live_path(&csv));
        let _ = std::fs::remove_file(csv.with_extension("live.toml.part"));
    }
}

/// The file beside `csv` that holds its run's games in progress.
pub fn live_path(csv: &Path) -> PathBuf {
    csv.with_extension("live.toml")
}

/// What the live file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LiveFile {
    /// The run's process id.
    pub pid: u32,
    /// When it was written, in milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// [`HEARTBEAT`] in milliseconds: the run rewrites the file at least this often.
    pub heartbeat_ms: u64,
    /// The games in progress, by game index.
    #[serde(default)]
    pub games: Vec<LiveGame>,
}

/// One game in progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LiveGame {
    /// Its game index in the schedule (the CSV's `game`).
    pub game: u64,
    /// Its variant id.
    pub variant: String,
    /// The agents in seat order.
    pub seats: Vec<String>,
    /// The moves so far, as the CSV writes them (space-separated).
    pub moves: String,
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl LiveFile {
    /// Reads the live file of `csv`: `None` when there is none (no run is playing into it, or
    /// it finished).
    pub fn read(csv: &Path) -> Result<Option<LiveFile>, ArenaError> {
        let path = live_path(csv);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(ArenaError::Io {
                    path,
                    action: "read the live file",
                    error: e.to_string(),
                });
            }
        };
        LiveFile::parse(&text)
            .map(Some)
            .map_err(|error| ArenaError::Io {
                path,
                action: "parse the live file",
                error,
            })
    }

    /// Reads a live file's text (one a reader opened itself).
    pub fn parse(text: &str) -> Result<LiveFile, String> {
        toml::from_str(text).map_err(|e| e.message().to_string())
    }

    /// Whether the run that wrote it has stopped writing (killed, or its machine gone): no
    /// rewrite for three heartbeats at `now_ms`.
    pub fn stale(&self, now_ms: u64) -> bool {
        now_ms.saturating_sub(self.updated_ms) > 3 * self.heartbeat_ms.max(1000)
    }

    /// Writes it as the live file of `csv`: into a temporary file, renamed over the old one.
    pub fn write(&self, csv: &Path) -> Result<(), ArenaError> {
        let path = live_path(csv);
        let part = csv.with_extension("live.toml.part");
        let io = |action, e: std::io::Error| ArenaError::Io {
            path: path.clone(),
            action,
            error: e.to_string(),
        };
        let body = toml::to_string(self).expect("the live file serialises");
        let text = format!(
            "# Written by arena run while it plays: its games in progress. Removed when it ends.\n{body}"
        );
        std::fs::write(&part, text).map_err(|e| io("write the live file", e))?;
        std::fs::rename(&part, &path).map_err(|e| io("replace the live file", e))
    }
}

/// One worker's game in progress.
#[derive(Default)]
struct Slot {
    game: Option<LiveGame>,
    /// The moves told so far, kept apart so that a move costs a push, not a join.
    moves: Vec<String>,
}

/// The games in progress of a run's workers, one slot per worker (numbered from 0).
pub struct Board {
    slots: Vec<Mutex<Slot>>,
    changed: AtomicBool,
}

impl Board {
    /// A board for `workers` workers.
    pub fn new(workers: usize) -> Board {
        Board {
            slots: (0..workers).map(|_| Mutex::new(Slot::default())).collect(),
            changed: AtomicBool::new(true),
        }
    }

    fn slot(&self, worker: usize) -> Option<&Mutex<Slot>> {
        self.slots.get(worker)
    }

    /// Worker `worker` starts game `game`.
    pub fn begin(&self, worker: usize, game: u64, variant: String, seats: Vec<String>) {
        if let Some(slot) = self.slot(worker) {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            slot.game = Some(LiveGame {
                game,
                variant,
                seats,
                moves: String::new(),
            });
            slot.moves.clear();
            self.changed.store(true, Ordering::Relaxed);
        }
    }

    /// The moves of worker `worker`'s game so far. Never waits: while the writer reads the
    /// slot, the moves are told with the next call.
    pub fn moved(&self, worker: usize, moves: &[String]) {
        let Some(slot) = self.slot(worker) else {
            return;
        };
        let Ok(mut slot) = slot.try_lock() else {
            return;
        };
        if moves.len() < slot.moves.len() {
            slot.moves.clear();
        }
        let known = slot.moves.len();
        slot.moves.extend(moves[known..].iter().cloned());
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Worker `worker`'s game ended.
    pub fn end(&self, worker: usize) {
        if let Some(slot) = self.slot(worker) {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            slot.game = None;
            slot.moves.clear();
            self.changed.store(true, Ordering::Relaxed);
        }
    }

    /// The games in progress, by game index.
    fn snapshot(&self) -> Vec<LiveGame> {
        let mut games: Vec<LiveGame> = self
            .slots
            .iter()
            .filter_map(|slot| {
                let slot = slot.lock().unwrap_or_else(|e| e.into_inner());
                let mut game = slot.game.clone()?;
                game.moves = slot.moves.join(" ");
                Some(game)
            })
            .collect();
        games.sort_by_key(|g| g.game);
        games
    }

    /// Rewrites the live file of `csv` until `stop` says so (or its sender is dropped), then
    /// removes it. A write that fails is tried again at the next turn: the live view is a
    /// view, and never stops the run.
    pub fn keep_written(&self, csv: &Path, stop: mpsc::Receiver<()>) {
        let mut last_write: Option<std::time::Instant> = None;
        WRITING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .push(csv.to_path_buf());
        loop {
            let due = last_write.is_none_or(|at| {
                let since = at.elapsed();
                since >= HEARTBEAT || (since >= WRITE_EVERY && self.changed.load(Ordering::Relaxed))
            });
            if due {
                self.changed.store(false, Ordering::Relaxed);
                let file = LiveFile {
                    pid: std::process::id(),
                    updated_ms: now_ms(),
                    heartbeat_ms: HEARTBEAT.as_millis() as u64,
                    games: self.snapshot(),
                };
                let writing = WRITING.lock().unwrap_or_else(|e| e.into_inner());
                if !writing.1 {
                    let _ = file.write(csv);
                }
                drop(writing);
                last_write = Some(std::time::Instant::now());
            }
            match stop.recv_timeout(Duration::from_millis(100)) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => break,
            }
        }
        let mut writing = WRITING.lock().unwrap_or_else(|e| e.into_inner());
        writing.0.retain(|c| c != csv);
        let _ = std::fs::remove_file(live_path(csv));
        let _ = std::fs::remove_file(csv.with_extension("live.toml.part"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_keeps_each_worker_game_and_its_moves() {
        let board = Board::new(2);
        board.begin(1, 7, "tictactoe".into(), vec!["a".into(), "b".into()]);
        board.begin(0, 9, "tictactoe".into(), vec!["b".into(), "a".into()]);
        let moves: Vec<String> = ["b2", "a1", "c3"].iter().map(|m| m.to_string()).collect();
        board.moved(1, &moves[..1]);
        board.moved(1, &moves);
        let games = board.snapshot();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].game, games[0].moves.as_str()), (7, "b2 a1 c3"));
        assert_eq!((games[1].game, games[1].moves.as_str()), (9, ""));
        board.end(1);
        assert_eq!(board.snapshot().len(), 1);
        // A worker the board has no slot for changes nothing.
        board.moved(5, &moves);
        assert_eq!(board.snapshot().len(), 1);
    }

    #[test]
    fn a_file_older_than_three_heartbeats_is_stale() {
        let file = LiveFile {
            updated_ms: 100_000,
            heartbeat_ms: 5_000,
            ..LiveFile::default()
        };
        assert!(!file.stale(110_000));
        assert!(file.stale(116_000));
    }
}
