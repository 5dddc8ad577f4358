//! A submission's build step (`make`, `sh build.sh`, a manifest's `build`): one command run in
//! the submission's folder, in the run's sandbox, with a time limit, its output kept in a log.
//! Like an agent's process it runs in a group of its own, is killed with what it started, and is
//! watched by the watchdog, so that a killed arena leaves no compiler behind.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::child::watchdog;
use crate::orphans;
use crate::sandbox::Sandbox;

/// Runs `command` with `args` in `folder`, in `sandbox`, for at most `limit`; its standard
/// output and error go to `log` (created anew, the command line first). Fails with the reason:
/// it did not start, it ran past the limit, a limit of the sandbox stopped it (the verdict),
/// or it exited with a failure.
pub fn run(
    command: &str,
    args: &[String],
    folder: &Path,
    log: &Path,
    sandbox: &Sandbox,
    limit: Duration,
) -> Result<(), String> {
    let mut file = File::create(log)
        .map_err(|e| format!("cannot create its build log `{}`: {e}", log.display()))?;
    let _ = writeln!(
        file,
        "$ {}",
        std::iter::once(command)
            .chain(args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let output = |file: &File| {
        file.try_clone()
            .map(Stdio::from)
            .map_err(|e| format!("cannot share its build log: {e}"))
    };
    let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut line = Command::new(command);
    line.args(args)
        .current_dir(&folder)
        .stdin(Stdio::null())
        .stdout(output(&file)?)
        .stderr(output(&file)?)
        .process_group(0);
    // A build writes its folder itself: what it makes is what the games copy.
    let build = Sandbox {
        copy_folder: false,
        ..sandbox.clone()
    };
    let prepared = build.prepare(command, args, Some(&folder))?.map(Arc::new);
    if let Some(prepared) = &prepared {
        prepared.install(&mut line);
    }
    let mut started = orphans::started();
    let mut child = line
        .spawn()
        .map_err(|e| format!("cannot start `{command}`: {e}"))?;
    drop(line);
    let pid = child.id();
    started.push(pid);
    watchdog::watch(pid);
    drop(started);
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => break None,
        }
    };
    // Whatever it left running (a daemon, a stuck linker) goes with it.
    let killed = orphans::kill_tree(pid);
    crate::child::signal_group(pid, rustix::process::Signal::KILL);
    let status = match status {
        Some(status) => Some(status),
        None => {
            let _ = child.wait();
            None
        }
    };
    watchdog::unwatch(pid);
    orphans::reap(&killed);
    orphans::after_stop(pid, &[]);
    let Some(status) = status else {
        let _ = writeln!(file, "arena: stopped after {} s", limit.as_secs());
        return Err(format!(
            "the build ran past its {} s (build_time_s)",
            limit.as_secs()
        ));
    };
    let last = tail(log, 1).pop();
    if let Some((verdict, tried)) = prepared
        .as_ref()
        .and_then(|p| p.verdict(&status, last.as_deref()))
    {
        let _ = writeln!(file, "arena: sandbox: {verdict}: {tried}");
        return Err(format!("{verdict}: {tried}"));
    }
    if !status.success() {
        return Err(format!("the build failed ({status})"));
    }
    Ok(())
}

/// The last `lines` lines of the file at `path` (of its last 16 KiB at most) before the arena's
/// last report of a fault in it (an agent's log), control characters escaped: what a program
/// wrote, safe to print. Empty when it cannot be read.
pub fn tail(path: &Path, lines: usize) -> Vec<String> {
    const WINDOW: u64 = 16 << 10;
    let Ok(mut file) = File::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    let from = len.saturating_sub(WINDOW);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(from)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // What the program wrote comes before the arena's report of its fault.
    if let Some(fault) = all.iter().rposition(|l| l.contains("] fault: ")) {
        all.truncate(fault);
    }
    // A line cut by the window's start is left out.
    let skip = usize::from(from > 0 && all.len() > lines);
    all[skip..]
        .iter()
        .rev()
        .take(lines)
        .rev()
        .map(|l| crate::line::quote_n(l, 300))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-compile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_build_that_fails_says_so_and_its_log_keeps_its_output() {
        let dir = scratch("fails");
        let log = dir.join("build.log");
        let args = [
            "-c".to_string(),
            "echo compiling; echo 'x.cpp:1: error' >&2; exit 3".into(),
        ];
        let error = run(
            "sh",
            &args,
            &dir,
            &log,
            &Sandbox::off(),
            Duration::from_secs(20),
        )
        .unwrap_err();
        assert!(error.contains("the build failed"), "{error}");
        assert_eq!(tail(&log, 2), ["compiling", "x.cpp:1: error"]);
        let args = ["-c".to_string(), "echo done > out.txt".into()];
        run(
            "sh",
            &args,
            &dir,
            &log,
            &Sandbox::off(),
            Duration::from_secs(20),
        )
        .unwrap();
        assert!(dir.join("out.txt").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_build_past_its_time_is_stopped_with_what_it_started() {
        let dir = scratch("slow");
        let log = dir.join("build.log");
        let args = [
            "-c".to_string(),
            "sleep 30 & echo $! > bg.pid; sleep 30".into(),
        ];
        let error = run(
            "sh",
            &args,
            &dir,
            &log,
            &Sandbox::off(),
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(error.contains("ran past its"), "{error}");
        // The sleep it left in the background was killed with it (gone, or a zombie). A signal
        // is delivered when its target next runs, which on a loaded machine can be a while after
        // the kill (CI saw it still `R`): it is given 10 s, a third of the sleep it would
        // otherwise finish.
        let pid: u32 = std::fs::read_to_string(dir.join("bg.pid"))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let state = || orphans::with_stat(pid, |fields| Some(fields.first()?.to_string()));
        let give_up = Instant::now() + Duration::from_secs(10);
        while state().is_some_and(|s| s != "Z") && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        let left = state();
        assert!(left.as_deref().is_none_or(|s| s == "Z"), "{pid}: {left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
