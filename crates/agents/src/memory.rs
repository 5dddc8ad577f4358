//! The memory agents take, and the machine's, so that a large table is a clear error instead of
//! an abort.
//!
//! Two kinds hold memory that grows with their settings: `alphabeta` (its transposition table,
//! `tt_mb`) and `mcts` (its tree, at most `tree_mb`). A setting larger than the machine's memory
//! is refused when the spec is read ([`check_fits`]), naming the key and the memory there is;
//! the memory itself is then taken fallibly when the first search needs it, and a refusal by the
//! allocator is an agent error with the same facts ([`OutOfMemory`]), never an abort.
//! [`note`] states what each kind takes per unit of its settings (`arena list` prints it).

use crate::SpecError;
use crate::spec::bad_value;

/// The machine's memory, from `/proc/meminfo` (Linux).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineMemory {
    /// `MemTotal`, bytes.
    pub total: u64,
    /// `MemAvailable`, bytes: what can be taken now without swapping.
    pub available: u64,
}

/// The machine's memory, or `None` where `/proc/meminfo` cannot be read.
pub fn machine() -> Option<MachineMemory> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

fn parse_meminfo(text: &str) -> Option<MachineMemory> {
    let field = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .and_then(|kb| kb.trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    };
    let total = field("MemTotal")?;
    Some(MachineMemory {
        total,
        available: field("MemAvailable").unwrap_or(total),
    })
}

/// The most memory this process may take, where less than the machine's: the least of its
/// limits on address space (`ulimit -v`) and data (`ulimit -d`) and its control group's
/// `memory.max` (Linux), with the limit's name. `None` where none is set.
pub fn process_limit() -> Option<(u64, &'static str)> {
    use rustix::process::{Resource, getrlimit};
    let mut limits = Vec::new();
    for (resource, name) in [
        (Resource::As, "its address-space limit, `ulimit -v`"),
        (Resource::Data, "its data limit, `ulimit -d`"),
    ] {
        if let Some(bytes) = getrlimit(resource).current {
            limits.push((bytes, name));
        }
    }
    if let Some(bytes) = cgroup_memory_max() {
        limits.push((bytes, "its control group's memory.max"));
    }
    limits.into_iter().min_by_key(|&(bytes, _)| bytes)
}

/// The least `memory.max` of this process's control group and the groups above it (cgroup v2).
fn cgroup_memory_max() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut path = std::path::PathBuf::from("/sys/fs/cgroup");
    path.push(groups.lines().find_map(|l| l.strip_prefix("0::/"))?);
    path.ancestors()
        .take_while(|dir| dir.starts_with("/sys/fs/cgroup"))
        .filter_map(|dir| {
            let text = std::fs::read_to_string(dir.join("memory.max")).ok()?;
            text.trim().parse::<u64>().ok()
        })
        .min()
}

/// `23.4 GiB`, `512 MiB`.
pub fn bytes_text(bytes: u64) -> String {
    let mib = bytes as f64 / f64::from(1u32 << 20);
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

/// What the machine has, for messages: `23.4 GiB in all, 20.1 GiB available now`.
pub fn machine_text() -> String {
    match machine() {
        Some(m) => format!(
            "{} in all, {} available now, per /proc/meminfo",
            bytes_text(m.total),
            bytes_text(m.available)
        ),
        None => "unknown: /proc/meminfo cannot be read".into(),
    }
}

/// Refuses `key={mib}` of agent `kind` when `mib` MiB is more than the machine's memory or this
/// process's limit ([`process_limit`]): such a table could never be held. Where neither is
/// known, everything passes here and the allocation itself decides.
pub fn check_fits(kind: &str, key: &str, mib: u64) -> Result<(), SpecError> {
    check_fits_in(kind, key, mib, machine())?;
    match process_limit() {
        Some((limit, name)) if mib.saturating_mul(1 << 20) > limit => {
            Err(bad_value(kind, key, mib, &over_limit(mib, limit, name)))
        }
        _ => Ok(()),
    }
}

/// Says that `mib` MiB is over the process limit `limit` (bytes) named `name`.
pub fn over_limit(mib: u64, limit: u64, name: &str) -> String {
    format!(
        "{mib} MiB is more than this process may take ({name}: {}); give at most {}",
        bytes_text(limit),
        limit >> 20
    )
}

fn check_fits_in(
    kind: &str,
    key: &str,
    mib: u64,
    machine: Option<MachineMemory>,
) -> Result<(), SpecError> {
    let Some(machine) = machine else {
        return Ok(());
    };
    let bytes = mib.saturating_mul(1 << 20);
    if bytes > machine.total {
        return Err(bad_value(
            kind,
            key,
            mib,
            &format!(
                "{} MiB is more than this machine's memory ({} in all, {} available now); \
                 give at most {}",
                mib,
                bytes_text(machine.total),
                bytes_text(machine.available),
                machine.available >> 20
            ),
        ));
    }
    Ok(())
}

/// A table the allocator refused: which agent, which key, how much, and what the machine has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{kind}: cannot allocate {} for `{key}={mib}` (the machine's memory: {machine}; a process \
     limit such as `ulimit -v` also counts); give a smaller `{key}`",
    bytes_text(*bytes)
)]
pub struct OutOfMemory {
    /// The agent kind.
    pub kind: &'static str,
    /// The setting that sized the table.
    pub key: &'static str,
    /// Its value, MiB.
    pub mib: usize,
    /// The bytes asked for.
    pub bytes: u64,
    /// [`machine_text`] when it happened.
    pub machine: String,
}

impl OutOfMemory {
    pub(crate) fn new(kind: &'static str, key: &'static str, mib: usize, bytes: u64) -> Self {
        OutOfMemory {
            kind,
            key,
            mib,
            bytes,
            machine: machine_text(),
        }
    }
}

/// The memory note of the kinds that hold a few positions and move lists whatever their
/// settings ([`crate::Kind::memory`]).
pub const SMALL: &str = "a few positions and move lists, whatever its settings (under 64 KiB)";

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       24000000 kB\nMemFree:  100 kB\n\
                           MemAvailable:   20000000 kB\nBuffers: 1 kB\n";

    #[test]
    fn meminfo_reads_total_and_available() {
        let m = parse_meminfo(MEMINFO).unwrap();
        assert_eq!(m.total, 24_000_000 * 1024);
        assert_eq!(m.available, 20_000_000 * 1024);
        assert_eq!(parse_meminfo("nothing here"), None);
    }

    #[test]
    fn a_table_larger_than_the_machine_is_refused_naming_the_key_and_the_memory() {
        let machine = parse_meminfo(MEMINFO);
        assert!(check_fits_in("alphabeta", "tt_mb", 1024, machine).is_ok());
        let error = check_fits_in("alphabeta", "tt_mb", 65536, machine)
            .unwrap_err()
            .to_string();
        assert!(error.contains("`tt_mb=65536` is invalid"), "{error}");
        assert!(
            error.contains(
                "more than this machine's memory (22.9 GiB in all, 19.1 GiB available now)"
            ),
            "{error}"
        );
        assert!(check_fits_in("mcts", "tree_mb", 1 << 40, None).is_ok());
    }

    #[test]
    fn every_listed_kind_states_its_memory() {
        for kind in crate::KINDS {
            assert!(kind.memory.is_some(), "{}", kind.name);
        }
    }
}
