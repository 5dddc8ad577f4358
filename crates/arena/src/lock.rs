//! One writer per results file: an exclusive operating-system lock held while a file is written.
//!
//! `arena run`, `arena merge`, `arena sprt`, `arena tune` (and any other command that appends to or replaces
//! a games file) take [`lock_writer`] on the file they write before touching anything in the
//! folder. The lock is taken twice, and a writer needs both:
//! - on a small file next to it, `<file>.lock`, which holds the writer's PID and command so a
//!   second writer can say who is in the way;
//! - on the games file itself, whenever it exists ([`WriterLock::hold`] after creating or
//!   replacing it), so that deleting `<file>.lock` during a run (a newcomer then locks a fresh
//!   lock file) does not let a second writer in.
//!
//! Both are the kernel's locks (`flock` on Unix, `LockFileEx` on Windows, through
//! [`std::fs::File::try_lock`]): they go when the process goes, however it ends, so a
//! `kill -9` never leaves a stale lock behind. An agent process the writer was starting
//! shares them from its fork to its exec (milliseconds; tens of them where a sandboxed child
//! first moves itself into its cgroup), so a newcomer right after a `kill -9` waits for that
//! when the PID the lock file names is gone. The lock file is never deleted by us.
//!
//! Readers (`arena report`, `arena verify`) take no lock: rows are appended whole and readers
//! ignore an unterminated last line, so they never see half a row.
//!
//! Shards of one run write different files (`games.shard-I-of-N.csv`) and so run side by side
//! in one folder, as a Slurm array does; two runs of the same shard, or two whole runs, into
//! one folder do not.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::ArenaError;
pub use crate::error::Holder;

/// An exclusive lock on writing one results file, held until dropped.
#[derive(Debug)]
pub struct WriterLock {
    file: File,
    path: PathBuf,
    /// The file written, open and locked itself, when it exists.
    target: Option<File>,
}

impl WriterLock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Locks `target` itself (the file written: just created, or put in place by a rename),
    /// letting go of the file it held before; fails with [`ArenaError::Locked`] when another
    /// process holds it. A writer calls it whenever the file it writes is a new one.
    pub fn hold(&mut self, target: &Path) -> Result<(), ArenaError> {
        self.target = None;
        self.target = lock_target(target)?;
        Ok(())
    }
}

/// Opens and locks `target` if it exists, checking after the lock that the name still leads to
/// the file locked (a writer may have put another file in its place meanwhile).
fn lock_target(target: &Path) -> Result<Option<File>, ArenaError> {
    use std::os::unix::fs::MetadataExt as _;
    let io = |action: &'static str, error: std::io::Error| ArenaError::Io {
        path: target.to_path_buf(),
        action,
        error: error.to_string(),
    };
    for _ in 0..100 {
        let file = match File::open(target) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(io("open the file to lock it", error)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // Our lock file was free, so the holder's was deleted under it.
                return Err(ArenaError::Locked {
                    target: target.to_path_buf(),
                    holder: Holder {
                        pid: None,
                        command: String::new(),
                        lock_file_removed: true,
                    },
                });
            }
            Err(TryLockError::Error(error)) => return Err(io("lock the file", error)),
        }
        let held = file
            .metadata()
            .map_err(|e| io("read the file's metadata", e))?;
        match std::fs::metadata(target) {
            Ok(now) if now.dev() == held.dev() && now.ino() == held.ino() => return Ok(Some(file)),
            // Replaced or removed between the open and the lock: lock what is there now.
            _ => continue,
        }
    }
    Err(io(
        "lock the file",
        std::io::Error::other("it kept being replaced while it was locked"),
    ))
}

/// How long a newcomer waits for a lock whose holder, as its lock file names it, has ended:
/// what holds it then is a process the holder was starting (see [`lock_writer`]).
const ENDING_PATIENCE: Duration = Duration::from_secs(5);

/// Whether the process `pid` exists (a signal 0 reaches it, or it is someone else's).
fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// The lock file of `target`: `<target>.lock`.
pub fn lock_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the exclusive writer lock on `target` (the file about to be written), or fails at once
/// with [`ArenaError::Locked`] naming the PID and command of the process that holds it.
/// `command` (like `arena run`) is recorded for that message. The folder must exist. When the
/// PID its lock file names has ended, the lock is held by a process that writer was starting
/// (a fork shares its parent's locks until its exec): waits for it, up to 5 s.
pub fn lock_writer(target: &Path, command: &str) -> Result<WriterLock, ArenaError> {
    let path = lock_path(target);
    let io = |action: &'static str, error: std::io::Error| ArenaError::Io {
        path: path.clone(),
        action,
        error: error.to_string(),
    };
    // Not truncated on open: the holder's PID must survive until the lock is ours.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io("open the lock file", e))?;
    let waited = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.seek(SeekFrom::Start(0));
                let _ = file.read_to_string(&mut text);
                let holder = Holder::parse(&text);
                // A writer killed while it started an agent: the child, between its fork and
                // its exec, still shares the writer's locks (a sandboxed one moves itself into
                // its cgroup first, which can take tens of milliseconds). They go at its exec.
                if holder.pid.is_some_and(|pid| !alive(pid)) && waited.elapsed() < ENDING_PATIENCE {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                return Err(ArenaError::Locked {
                    target: target.to_path_buf(),
                    holder,
                });
            }
            Err(TryLockError::Error(error)) => return Err(io("lock the lock file", error)),
        }
    }
    let target_lock = lock_target(target)?;
    let holder = Holder {
        pid: Some(std::process::id()),
        command: command.to_string(),
        lock_file_removed: false,
    };
    // Written over the old text, then cut to length: truncating a file to zero and writing it
    // again makes ext4 flush it on close (its `auto_da_alloc` guard against lost renames),
    // which cost about 3 ms a lock here, paid on every row of the play record.
    let text = holder.text();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.write_all(text.as_bytes()))
        .and_then(|()| file.set_len(text.len() as u64))
        .and_then(|()| file.flush())
        .map_err(|e| io("write the lock file", e))?;
    Ok(WriterLock {
        file,
        path,
        target: target_lock,
    })
}

/// Like [`lock_writer`], for a writer that holds the lock only for a moment (the play record's
/// appenders: two terminals and a server, a row each now and then): waits up to `patience`
/// for the holder to let go, then fails as [`lock_writer`] does, naming the holder.
pub fn lock_writer_waiting(
    target: &Path,
    command: &str,
    patience: Duration,
) -> Result<WriterLock, ArenaError> {
    let start = Instant::now();
    // Polled: a holder of a moment lets go within a poll or two; one that holds on (a run)
    // is asked a few times a second until the patience runs out.
    let mut pause = Duration::from_micros(100);
    loop {
        match lock_writer(target, command) {
            Err(ArenaError::Locked { .. }) if start.elapsed() < patience => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

impl Holder {
    fn text(&self) -> String {
        format!(
            "# The process writing the file next to this one; the lock goes when it ends.\n\
             pid = {}\ncommand = {}\n",
            self.pid.map_or(String::new(), |p| p.to_string()),
            self.command
        )
    }

    fn parse(text: &str) -> Holder {
        let mut holder = Holder::default();
        for line in text.lines() {
            if let Some((key, value)) = line.split_once('=') {
                match key.trim() {
                    "pid" => holder.pid = value.trim().parse().ok(),
                    "command" => holder.command = value.trim().to_string(),
                    _ => {}
                }
            }
        }
        holder
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        // Closing the files releases the locks; unlocking first says so explicitly.
        if let Some(target) = &self.target {
            let _ = target.unlock();
        }
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holder_named_and_admitted_after() {
        let dir = std::env::temp_dir().join(format!("arena-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("games.csv");
        let first = lock_writer(&target, "arena run").unwrap();
        assert!(first.path().ends_with("games.csv.lock"));
        let error = lock_writer(&target, "arena merge").unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains(&format!("PID {}, `arena run`", std::process::id())),
            "{text}"
        );
        // Another file in the same folder (another shard) is free.
        drop(lock_writer(&dir.join("games.shard-1-of-2.csv"), "arena run").unwrap());
        drop(first);
        let again = lock_writer(&target, "arena merge").unwrap();
        let text = std::fs::read_to_string(again.path()).unwrap();
        assert!(text.contains("command = arena merge"), "{text}");
        drop(again);
        // A shorter holder's text replaces a longer one whole: nothing of the old one is left.
        drop(lock_writer(&target, "arena merge --a-much-longer-command-line").unwrap());
        let short = lock_writer(&target, "x").unwrap();
        let text = std::fs::read_to_string(short.path()).unwrap();
        assert!(text.ends_with("command = x\n"), "{text}");
        drop(short);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn deleting_the_lock_file_during_a_write_lets_no_second_writer_in() {
        let dir = std::env::temp_dir().join(format!("arena-lock-removed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("games.csv");
        std::fs::write(&target, "").unwrap();
        let first = lock_writer(&target, "arena run").unwrap();
        std::fs::remove_file(first.path()).unwrap();
        let error = lock_writer(&target, "arena sprt").unwrap_err().to_string();
        assert!(
            error.contains("being written by another arena process")
                && error.contains("was deleted"),
            "{error}"
        );
        // A file created by the writer after its lock is held through `hold`.
        let mut first = first;
        let shard = dir.join("games.shard-0-of-2.csv");
        let mut other = lock_writer(&shard, "arena run").unwrap();
        std::fs::write(&shard, "").unwrap();
        other.hold(&shard).unwrap();
        std::fs::remove_file(other.path()).unwrap();
        assert!(lock_writer(&shard, "arena run").is_err());
        first.hold(&target).unwrap();
        drop((first, other));
        drop(lock_writer(&target, "arena run").unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_whose_named_writer_has_ended_is_waited_for_until_its_last_sharer_lets_go() {
        let dir = std::env::temp_dir().join(format!("arena-lock-ended-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("games.csv");
        // The writer: a process that has ended (reaped), named by the lock file.
        let mut ended = std::process::Command::new("true").spawn().unwrap();
        let pid = ended.id();
        ended.wait().unwrap();
        assert!(!alive(pid) && alive(std::process::id()));
        let dead = Holder {
            pid: Some(pid),
            command: "arena run".into(),
            lock_file_removed: false,
        };
        std::fs::write(lock_path(&target), dead.text()).unwrap();
        // What still shares its lock (a child between fork and exec): another open file
        // description of the lock file, locked, let go a moment later.
        let sharer = File::open(lock_path(&target)).unwrap();
        sharer.try_lock().unwrap();
        let letting_go = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            drop(sharer);
        });
        let lock = lock_writer(&target, "arena run").unwrap();
        letting_go.join().unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert!(
            text.contains(&format!("pid = {}", std::process::id())),
            "{text}"
        );
        drop(lock);
        // A holder that is alive is refused at once, as before.
        let held = lock_writer(&target, "arena run").unwrap();
        assert!(matches!(
            lock_writer(&target, "arena run"),
            Err(ArenaError::Locked { .. })
        ));
        drop(held);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_holder_text_reads_back() {
        let holder = Holder {
            pid: Some(42),
            command: "arena run".into(),
            lock_file_removed: false,
        };
        assert_eq!(Holder::parse(&holder.text()), holder);
        assert_eq!(Holder::parse("garbage\n"), Holder::default());
    }
}
