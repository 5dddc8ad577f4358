//! A class's submissions (`submissions = "DIR"` in an experiment,
//! `docs/src/guide/class-tournament.md`): one sub-folder per student, each an outside agent
//! (`proc`) that runs in its own folder. Before the first game each is built and checked
//! ([`admit`]); one that fails is excluded, with the reason and its log, and never stops the
//! run. The admissions are recorded in the run folder (`submissions.csv`) and stand when the run
//! resumes.
//!
//! A student's folder and manifest are hostile input: a folder name is used only when it is
//! plain (letters, digits, `-`, `_`, `.`), a link is never followed, a manifest is small and
//! strict, and a command may not hold a comma (it would end the spec's `args`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::ArenaError;
use crate::experiment::Experiment;

/// The manifest a submission may hold.
pub const MANIFEST: &str = "submission.toml";
/// The longest folder or agent name of a submission, in bytes.
pub const MAX_NAME: usize = 64;
/// How long a build may take unless `build_time_s` says (seconds).
pub const BUILD_TIME_S: u64 = 120;
/// The file of the admissions, in the run folder.
pub const TABLE: &str = "submissions.csv";
/// The folder of the build logs, in the run folder.
pub const BUILD_LOGS: &str = "builds";

/// An experiment's folder of submissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submissions {
    /// The folder, as the experiment writes it (relative to the experiment file's folder).
    pub key: String,
    /// The folder as found.
    pub folder: PathBuf,
    /// The time each build may take.
    pub build_time: Duration,
    /// The sub-folders, in name order.
    pub entries: Vec<Submission>,
}

/// One sub-folder of the submissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// The folder's name, control characters escaped.
    pub folder: String,
    /// The agent's name (the manifest's `name`, else the folder's); empty when refused.
    pub name: String,
    /// The spec it plays as (a `proc` agent in its own folder).
    pub spec: String,
    /// The build command and its arguments, if it has one.
    pub build: Option<Vec<String>>,
    /// Why it is excluded before anything runs (its name, its manifest), if it is.
    pub refused: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    name: Option<String>,
    #[serde(default)]
    language: Option<String>,
    command: Option<String>,
    build: Option<String>,
}

/// Whether `name` is a plain name: ASCII letters, digits, `-`, `_` and `.`, not starting with
/// `.`, at most [`MAX_NAME`] bytes.
fn plain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// Reads the folder `folder` (written `key` in the experiment): every sub-folder not starting
/// with `.`, in name order. Files beside them are ignored.
pub(crate) fn read_folder(folder: &Path, key: &str) -> Result<Vec<Submission>, String> {
    let listing =
        fs::read_dir(folder).map_err(|e| format!("cannot read `{}`: {e}", folder.display()))?;
    let mut entries = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", folder.display()))?;
        let raw = entry.file_name();
        let lossy = raw.to_string_lossy();
        if lossy.starts_with('.') {
            continue;
        }
        // Not followed: a link could make the teacher's home a student's own folder.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let shown = protocol::line::quote_n(&lossy, 80);
        if !kind.is_dir() && !kind.is_symlink() {
            continue;
        }
        let mut submission = Submission {
            folder: shown.clone(),
            name: String::new(),
            spec: String::new(),
            build: None,
            refused: None,
        };
        if kind.is_symlink() {
            submission.refused = Some("it is a link, not a folder: links are not followed".into());
        } else if raw.to_str().is_none_or(|name| !plain(name)) {
            submission.refused = Some(format!(
                "its folder's name `{shown}` is not plain: rename it with letters, digits, `-`, \
                 `_` and `.` only (at most {MAX_NAME})"
            ));
        } else {
            match describe(&entry.path(), &lossy, key) {
                Ok((name, spec, build)) => {
                    submission.name = name;
                    submission.spec = spec;
                    submission.build = build;
                }
                Err(reason) => submission.refused = Some(reason),
            }
        }
        entries.push((raw, submission));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries.into_iter().map(|(_, s)| s).collect())
}

/// A submission's name, spec and build command, from its manifest or the defaults.
#[allow(clippy::type_complexity)]
fn describe(
    dir: &Path,
    folder: &str,
    key: &str,
) -> Result<(String, String, Option<Vec<String>>), String> {
    let manifest_path = dir.join(MANIFEST);
    let manifest = match fs::symlink_metadata(&manifest_path) {
        Err(_) => None,
        Ok(meta) if !meta.is_file() => {
            return Err(format!("its `{MANIFEST}` is not a plain file"));
        }
        Ok(meta) if meta.len() > 16 << 10 => {
            return Err(format!("its `{MANIFEST}` is larger than 16 KiB"));
        }
        Ok(_) => {
            let text = fs::read_to_string(&manifest_path)
                .map_err(|e| format!("cannot read its `{MANIFEST}`: {e}"))?;
            let manifest: Manifest = toml::from_str(&text).map_err(|e| {
                format!(
                    "its `{MANIFEST}` is not valid: {} (keys: name, language, command, build)",
                    protocol::line::quote_n(e.message().trim(), 200)
                )
            })?;
            let _ = manifest.language;
            Some(manifest)
        }
    };
    let name = match manifest.as_ref().and_then(|m| m.name.as_deref()) {
        None => folder.to_string(),
        Some(name) => {
            let name = name.trim();
            if name.is_empty()
                || name.len() > MAX_NAME
                || name.contains(',')
                || name.contains('"')
                || name.contains('`')
            {
                return Err(format!(
                    "its `{MANIFEST}` name `{}` is not usable: 1 to {MAX_NAME} bytes, no comma \
                     or quote",
                    protocol::line::quote_n(name, 80)
                ));
            }
            if let Some(hidden) = crate::names::hidden_in_name(name) {
                return Err(format!("its `{MANIFEST}` name holds {hidden}"));
            }
            name.to_string()
        }
    };
    let words = |what: &str, text: &str| -> Result<Vec<String>, String> {
        let words = protocol::outside::split_args(text);
        if words.is_empty() || text.contains(',') || text.chars().any(char::is_control) {
            return Err(format!(
                "its `{MANIFEST}` {what} `{}` is not usable: a command and its arguments, \
                 without commas",
                protocol::line::quote_n(text, 80)
            ));
        }
        Ok(words)
    };
    let build = match manifest.as_ref().and_then(|m| m.build.as_deref()) {
        Some(text) => Some(words("build", text)?),
        None if dir.join("Makefile").is_file() || dir.join("makefile").is_file() => {
            Some(vec!["make".to_string()])
        }
        None if dir.join("build.sh").is_file() => {
            Some(vec!["sh".to_string(), "build.sh".to_string()])
        }
        None => None,
    };
    let command = match manifest.as_ref().and_then(|m| m.command.as_deref()) {
        Some(text) => words("command", text)?,
        None if dir.join("main.py").is_file() => vec!["python3".into(), "main.py".into()],
        None => vec!["./agent".into()],
    };
    let quoted: Vec<String> = command[1..]
        .iter()
        .map(|a| {
            if a.is_empty() || a.chars().any(char::is_whitespace) {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect();
    let mut spec = format!("proc:cmd={},dir={key}/{folder}", command[0]);
    if !quoted.is_empty() {
        spec.push_str(&format!(",args={}", quoted.join(" ")));
    }
    Ok((name, spec, build))
}

/// What [`admit`] found for one submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The folder's name (escaped).
    pub folder: String,
    /// The agent's name (empty when refused before building).
    pub name: String,
    /// `passed` or `excluded`.
    pub status: String,
    /// `built`, `no build`, `failed` or `-` (not tried).
    pub build: String,
    /// Why it is excluded (empty when it passed).
    pub reason: String,
    /// Its log, relative to the run folder (build log, or the check's agent log), if any.
    pub log: String,
}

impl Admitted {
    /// Whether it plays.
    pub fn passed(&self) -> bool {
        self.status == "passed"
    }
}

/// The admissions of a run and the experiment they leave.
#[derive(Debug)]
pub struct Admission {
    /// One per sub-folder, in name order.
    pub rows: Vec<Admitted>,
    /// Read from the run folder (a resumed run) rather than found now.
    pub resumed: bool,
    /// The experiment with the admitted submissions as its agents, written out in full (its
    /// copy in the run folder needs neither the submissions nor their builds).
    pub experiment: Experiment,
}

/// Builds and checks each submission of `experiment` for a run into `out`, and returns the
/// experiment of those that pass. A run that resumes (the folder holds [`TABLE`] and games,
/// and not `fresh`) takes the recorded admissions and builds nothing; its sub-folders must be
/// the recorded ones. A submission that fails is excluded; only a run left with too few agents
/// fails (with the experiment's own message).
pub fn admit(experiment: &Experiment, out: &Path, fresh: bool) -> Result<Admission, ArenaError> {
    let Some(submissions) = &experiment.submissions else {
        return Ok(Admission {
            rows: Vec::new(),
            resumed: false,
            experiment: experiment.clone(),
        });
    };
    let table = out.join(TABLE);
    let resumed = !fresh && table.exists() && out.join("games.csv").exists();
    let rows = if resumed {
        let rows = read_table(out)?;
        let mut recorded: Vec<&str> = rows.iter().map(|r| r.folder.as_str()).collect();
        let mut now: Vec<&str> = submissions
            .entries
            .iter()
            .map(|s| s.folder.as_str())
            .collect();
        recorded.sort_unstable();
        now.sort_unstable();
        if recorded != now {
            let added: Vec<&str> = now
                .iter()
                .filter(|f| !recorded.contains(f))
                .copied()
                .collect();
            let gone: Vec<&str> = recorded
                .iter()
                .filter(|f| !now.contains(f))
                .copied()
                .collect();
            return Err(ArenaError::Experiment {
                source_name: experiment.source.clone(),
                key: "submissions".into(),
                location: None,
                message: format!(
                    "the folder `{}` changed since this run began (added: {}; gone: {}): a run \
                     keeps its entrants; run with --fresh to admit them again (the old games \
                     are moved aside)",
                    submissions.folder.display(),
                    list(&added),
                    list(&gone)
                ),
            });
        }
        rows
    } else {
        let rows = build_and_check(experiment, submissions, out)?;
        write_table(out, &rows)?;
        rows
    };
    let admitted = expanded(experiment, &rows)?;
    Ok(Admission {
        rows,
        resumed,
        experiment: admitted,
    })
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

fn build_and_check(
    experiment: &Experiment,
    submissions: &Submissions,
    out: &Path,
) -> Result<Vec<Admitted>, ArenaError> {
    // `sandbox = "required"` on a kernel that lacks a layer stops here, before any build.
    crate::run::check_sandbox(experiment)?;
    let logs = out.join(BUILD_LOGS);
    fs::create_dir_all(&logs).map_err(|e| ArenaError::Io {
        path: logs.clone(),
        action: "create the folder of build logs",
        error: e.to_string(),
    })?;
    let agent_logs = out.join("games.logs");
    let roster = experiment.roster().with_log_folder(&agent_logs);
    let base = experiment.folder.clone().unwrap_or_default();
    let mut rows = Vec::new();
    for submission in &submissions.entries {
        let mut row = Admitted {
            folder: submission.folder.clone(),
            name: submission.name.clone(),
            status: "excluded".into(),
            build: "-".into(),
            reason: String::new(),
            log: String::new(),
        };
        if let Some(reason) = &submission.refused {
            row.reason = reason.clone();
            rows.push(row);
            continue;
        }
        let Some(agent) = experiment.agents.iter().find(|a| a.name == submission.name) else {
            row.reason = "its name is another agent's".into();
            rows.push(row);
            continue;
        };
        if let Some(build) = &submission.build {
            let log = logs.join(format!("{}.log", submission.folder));
            row.log = format!("{BUILD_LOGS}/{}.log", submission.folder);
            let folder = base.join(&submissions.key).join(&submission.folder);
            match protocol::compile::run(
                &build[0],
                &build[1..],
                &folder,
                &log,
                &experiment.sandbox,
                submissions.build_time,
            ) {
                Ok(()) => row.build = "built".into(),
                Err(reason) => {
                    row.build = "failed".into();
                    row.reason = reason;
                    rows.push(row);
                    continue;
                }
            }
        } else {
            row.build = "no build".into();
        }
        match crate::run::preflight_agent(experiment, &roster, agent) {
            Ok(()) => row.status = "passed".into(),
            Err(error) => {
                let reason = match error {
                    ArenaError::Setup { message, .. } => message,
                    other => other.to_string(),
                };
                // The log has a column of its own, relative to the run folder.
                row.reason = match reason.split_once(" (its stderr is in ") {
                    Some((before, _)) => before.to_string(),
                    None => reason,
                };
                row.log = format!("games.logs/{}.log", submission.name);
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The experiment's text with the submissions that passed written as `[[agents]]` (and, in a
/// gauntlet, the listed agents marked `field = true`), read back: the experiment the run plays
/// and its folder's copy holds.
fn expanded(experiment: &Experiment, rows: &[Admitted]) -> Result<Experiment, ArenaError> {
    let submissions = experiment
        .submissions
        .as_ref()
        .expect("checked by the caller");
    let mut table: toml::Table =
        toml::from_str(&experiment.text).map_err(|e| ArenaError::Experiment {
            source_name: experiment.source.clone(),
            key: String::new(),
            location: None,
            message: e.to_string(),
        })?;
    table.remove("submissions");
    table.remove("build_time_s");
    let gauntlet = experiment.format == crate::experiment::Format::Gauntlet;
    let mut agents = match table.remove("agents") {
        Some(toml::Value::Array(agents)) => agents,
        _ => Vec::new(),
    };
    if gauntlet {
        for agent in agents.iter_mut() {
            if let toml::Value::Table(agent) = agent {
                agent.insert("field".into(), toml::Value::Boolean(true));
            }
        }
    }
    for row in rows.iter().filter(|r| r.passed()) {
        let Some(submission) = submissions.entries.iter().find(|s| s.name == row.name) else {
            continue;
        };
        let mut agent = toml::Table::new();
        agent.insert("name".into(), toml::Value::String(submission.name.clone()));
        agent.insert("spec".into(), toml::Value::String(submission.spec.clone()));
        agents.push(toml::Value::Table(agent));
    }
    table.insert("agents".into(), toml::Value::Array(agents));
    let text = format!(
        "# Written by arena: {} with the submissions of `{}` that passed as agents.\n{}",
        experiment.source,
        submissions.key,
        toml::to_string(&table).map_err(|e| ArenaError::Experiment {
            source_name: experiment.source.clone(),
            key: String::new(),
            location: None,
            message: e.to_string(),
        })?
    );
    let passed = rows.iter().filter(|r| r.passed()).count();
    Experiment::from_toml_at(
        &text,
        &format!(
            "{} (with the {passed} of {} submissions that passed)",
            experiment.source,
            rows.len()
        ),
        experiment.folder.as_deref(),
    )
}

fn write_table(out: &Path, rows: &[Admitted]) -> Result<(), ArenaError> {
    let path = out.join(TABLE);
    let io = |e: &dyn std::fmt::Display| ArenaError::Io {
        path: path.clone(),
        action: "write the table of submissions",
        error: e.to_string(),
    };
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(["folder", "name", "status", "build", "reason", "log"])
        .map_err(|e| io(&e))?;
    for r in rows {
        writer
            .write_record([&r.folder, &r.name, &r.status, &r.build, &r.reason, &r.log])
            .map_err(|e| io(&e))?;
    }
    let bytes = writer.into_inner().map_err(|e| io(&e))?;
    // Whole or not at all: a run killed while writing it admits again.
    let part = out.join(format!("{TABLE}.part"));
    fs::write(&part, bytes).map_err(|e| io(&e))?;
    fs::rename(&part, &path).map_err(|e| io(&e))
}

/// The admissions recorded in the run folder `out` ([`TABLE`]); none when it has no table.
pub fn read_table(out: &Path) -> Result<Vec<Admitted>, ArenaError> {
    let path = out.join(TABLE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let bad = |line: u64, message: String| ArenaError::Csv {
        path: path.clone(),
        line,
        message,
    };
    let mut reader = csv::Reader::from_path(&path).map_err(|e| bad(0, e.to_string()))?;
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| bad(i as u64 + 2, e.to_string()))?;
        if record.len() != 6 {
            return Err(bad(i as u64 + 2, "expected 6 fields".into()));
        }
        let field = |k: usize| record[k].to_string();
        let status = field(2);
        if status != "passed" && status != "excluded" {
            return Err(bad(
                i as u64 + 2,
                format!("status `{status}`: expected passed or excluded"),
            ));
        }
        rows.push(Admitted {
            folder: field(0),
            name: field(1),
            status,
            build: field(3),
            reason: field(4),
            log: field(5),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_only() {
        for good in ["alice", "nguyen-van-a", "B_2", "x.y"] {
            assert!(plain(good), "{good}");
        }
        let long = "a".repeat(MAX_NAME + 1);
        for bad in [
            "",
            ".hidden",
            "../up",
            "a b",
            "a,b",
            "x\u{1b}[31m",
            "tên",
            &long,
        ] {
            assert!(!plain(bad), "{bad}");
        }
    }
}
