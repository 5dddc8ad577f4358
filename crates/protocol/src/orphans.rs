//! The processes an agent starts outside its process group (a helper in a session of its own,
//! a daemon that leaves the agent's process tree): found through `/proc`, killed and reaped.
//!
//! Killing an agent's group (see [`crate::child`]) reaches what stayed in the group. A helper
//! that called `setsid` (Python's `start_new_session=True`) or `setpgid` is found as a
//! descendant of the agent and killed with it; the tree is stopped (SIGSTOP) before it is
//! killed, so that nothing forks past the search. A helper whose parent exits (a double fork)
//! leaves the tree: the arena binary makes itself a child subreaper ([`adopt`]), so that such
//! orphans become its children instead of init's, and kills them once no agent runs and when
//! it ends ([`end`]). A process killed with SIGKILL has no moment to act: its agents' groups are
//! still killed by the watchdog, but helpers outside them are out of reach.
//!
//! Linux only (`/proc` and `PR_SET_CHILD_SUBREAPER`); elsewhere the group kill is all.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};

/// The agents this process started and has not yet reaped: never taken for orphans. Held
/// while an agent is started and while orphans are looked for, so that an agent just started is
/// never taken for one.
static STARTED: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Whether this process adopts orphans ([`adopt`]).
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Whether this process ever started an agent: without one it has no orphans to look for.
static EVER_STARTED: AtomicBool = AtomicBool::new(false);

/// How many rounds of stopping a tree, or of killing orphans whose death orphans others.
const ROUNDS: usize = 8;

/// How long killed processes have to die and be reaped.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// Makes this process a child subreaper: the orphaned descendants of its agents become its
/// children, and are killed once no agent runs and by [`end`]. For the program's `main` (a
/// library's host process keeps its own way). Fails where the system has no such thing.
pub fn adopt() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        rustix::process::set_child_subreaper(Some(rustix::process::getpid()))
            .map_err(|e| format!("cannot adopt orphaned processes: {e}"))?;
        ADOPTING.store(true, Ordering::Relaxed);
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    Err("orphaned processes are adopted on Linux only".into())
}

/// The agents started and not yet reaped, locked (see [`STARTED`]), for an agent about to be
/// started.
pub(crate) fn started() -> MutexGuard<'static, Vec<u32>> {
    EVER_STARTED.store(true, Ordering::Relaxed);
    STARTED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills every agent still running (its group and what it started), then kills and reaps the
/// orphans: for the end of the program, however it ends (its signal handler calls it too). No
/// agent can start meanwhile.
pub fn end() {
    if !EVER_STARTED.load(Ordering::Relaxed) {
        return;
    }
    let started = started();
    let mut killed = Vec::new();
    for &pid in started.iter() {
        killed.extend(kill_tree(pid));
        crate::child::signal_group(pid, Signal::KILL);
    }
    reap(&killed);
    sweep(&started);
}

/// One process of the system's table.
struct Entry {
    pid: u32,
    ppid: u32,
    pgrp: u32,
    zombie: bool,
}

/// Every process, from `/proc` (empty where it cannot be read).
fn table() -> Vec<Entry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            with_stat(pid, |fields| {
                Some(Entry {
                    pid,
                    ppid: fields.get(1)?.parse().ok()?,
                    pgrp: fields.get(2)?.parse().ok()?,
                    zombie: matches!(fields.first(), Some(&("Z" | "X"))),
                })
            })
        })
        .collect()
}

/// `read` of the fields of `/proc/PID/stat` after the command (`state ppid pgrp ...`, the
/// kernel's numbering less 3); `None` where the file cannot be read.
pub(crate) fn with_stat<T>(pid: u32, read: impl FnOnce(&[&str]) -> Option<T>) -> Option<T> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ...`: the command may hold spaces and parentheses.
    let (_, rest) = stat.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    read(&fields)
}

/// The descendants of `root` in `table`, nearest first.
fn descendants(root: u32, table: &[Entry]) -> Vec<u32> {
    let mut found = vec![root];
    let mut next = 0;
    while next < found.len() {
        let parent = found[next];
        found.extend(table.iter().filter(|e| e.ppid == parent).map(|e| e.pid));
        next += 1;
    }
    found.remove(0);
    found
}

fn signal(pid: u32, signal: Signal) {
    if let Some(pid) = Pid::from_raw(pid as i32) {
        // Gone already (ESRCH) is fine.
        let _ = kill_process(pid, signal);
    }
}

/// The live descendants of `root` outside its process group (what killing the group misses),
/// when this process adopts orphans: they are its to kill after `root` exits.
pub(crate) fn outside_group(root: u32) -> Vec<u32> {
    if !ADOPTING.load(Ordering::Relaxed) {
        return Vec::new();
    }
    let table = table();
    descendants(root, &table)
        .into_iter()
        .filter(|&pid| {
            table
                .iter()
                .any(|e| e.pid == pid && e.pgrp != root && !e.zombie)
        })
        .collect()
}

/// Stops `root`'s group and every live descendant of `root`, looking again until nothing new
/// appears (a stopped process cannot fork), then kills the descendants; `root`'s group is the
/// caller's to kill. Returns the descendants killed, for [`reap`].
pub(crate) fn kill_tree(root: u32) -> Vec<u32> {
    crate::child::signal_group(root, Signal::STOP);
    let mut stopped: Vec<u32> = Vec::new();
    for _ in 0..ROUNDS {
        let table = table();
        let new: Vec<u32> = descendants(root, &table)
            .into_iter()
            .filter(|pid| !stopped.contains(pid))
            .filter(|&pid| table.iter().any(|e| e.pid == pid && !e.zombie))
            .collect();
        if new.is_empty() {
            break;
        }
        for &pid in &new {
            signal(pid, Signal::STOP);
        }
        stopped.extend(new);
    }
    for &pid in &stopped {
        signal(pid, Signal::KILL);
    }
    stopped
}

/// Reaps, of `pids` (killed), those that are or become this process's children (orphans it
/// adopted), waiting [`REAP_WAIT`] at most; the others are their parents' (or init's) to reap.
pub(crate) fn reap(pids: &[u32]) {
    if pids.is_empty() || !ADOPTING.load(Ordering::Relaxed) {
        return;
    }
    let give_up = Instant::now() + REAP_WAIT;
    let mut left: Vec<u32> = pids.to_vec();
    while !left.is_empty() && Instant::now() < give_up {
        left.retain(|&pid| {
            let Some(id) = Pid::from_raw(pid as i32) else {
                return false;
            };
            match waitpid(Some(id), WaitOptions::NOHANG) {
                // Reaped.
                Ok(Some(_)) => false,
                // Ours, not dead yet.
                Ok(None) => true,
                // Not (yet) ours: its parent, killed too, may still be dying; or reaped.
                Err(_) => std::path::Path::new(&format!("/proc/{pid}")).exists(),
            }
        });
        if !left.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Kills and reaps this process's adopted children (orphans: children that are neither its
/// agents nor its watchdog, outside its own process group) and what they started, until none is
/// left. Does nothing unless this process adopts orphans. `started` is [`STARTED`], locked by
/// the caller.
fn sweep(started: &[u32]) {
    if !ADOPTING.load(Ordering::Relaxed) {
        return;
    }
    let me = std::process::id();
    let my_group = rustix::process::getpgrp().as_raw_nonzero().get() as u32;
    let watchdog = crate::child::watchdog::pid();
    for _ in 0..ROUNDS {
        let table = table();
        let adopted = table.iter().filter(|e| {
            e.ppid == me
                && e.pgrp != my_group
                && !started.contains(&e.pid)
                && Some(e.pid) != watchdog
        });
        // The dead are only reaped: a zombie has no children left to look for, and a fork
        // bomb's thousands of them would each cost a search of the whole table.
        let (dead, live): (Vec<&Entry>, Vec<&Entry>) = adopted.partition(|e| e.zombie);
        if dead.is_empty() && live.is_empty() {
            return;
        }
        let mut killed: Vec<u32> = dead.iter().chain(&live).map(|e| e.pid).collect();
        for orphan in &live {
            killed.extend(kill_tree(orphan.pid));
            signal(orphan.pid, Signal::KILL);
        }
        reap(&killed);
    }
}

/// After the agent `pid` was reaped: takes it off [`STARTED`]; kills and reaps `helpers` (its
/// descendants outside its group, found before it was asked to stop) that are now this
/// process's orphans; and, once no agent runs, every orphan.
pub(crate) fn after_stop(pid: u32, helpers: &[u32]) {
    let mut started = started();
    started.retain(|&p| p != pid);
    if !ADOPTING.load(Ordering::Relaxed) {
        return;
    }
    let me = std::process::id();
    let mut killed = Vec::new();
    let table = if helpers.is_empty() {
        Vec::new()
    } else {
        table()
    };
    for e in table
        .iter()
        .filter(|e| helpers.contains(&e.pid) && e.ppid == me)
    {
        // Adopted, so its id cannot have gone to another process meanwhile.
        killed.extend(kill_tree(e.pid));
        signal(e.pid, Signal::KILL);
        killed.push(e.pid);
    }
    reap(&killed);
    if started.is_empty() {
        sweep(&started);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_follow_parents_nearest_first() {
        let entry = |pid, ppid| Entry {
            pid,
            ppid,
            pgrp: pid,
            zombie: false,
        };
        let table = [
            entry(10, 1),
            entry(11, 10),
            entry(12, 11),
            entry(13, 10),
            entry(20, 1),
        ];
        assert_eq!(descendants(10, &table), vec![11, 13, 12]);
        assert_eq!(descendants(20, &table), Vec::<u32>::new());
    }
}
