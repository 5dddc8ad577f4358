//! The admission of a class's submissions ([`crate::submissions`]) before the first game: each
//! built and checked in the run's sandbox; one that fails is excluded, with the reason and its
//! log, and never stops the run. The admissions are recorded in the run folder ([`TABLE`]) and
//! stand when the run resumes.

use std::fs;
use std::path::Path;

use crate::ArenaError;
use crate::experiment::Experiment;
use crate::submissions::Submissions;

/// The file of the admissions, in the run folder.
pub const TABLE: &str = "submissions.csv";
/// The folder of the build logs, in the run folder.
pub const BUILD_LOGS: &str = "builds";

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
        // Held while the submissions are built and the table written (the run takes it again
        // for its games): a second run into this folder, one started with --fresh while this
        // one plays, is refused before it builds in the submissions' folders or rewrites the
        // table of the run that holds it.
        crate::run::create_out_dir(out)?;
        let lock = crate::lock::lock_writer(&out.join("games.csv"), "arena run")?;
        let rows = build_and_check(experiment, submissions, out)?;
        write_table(out, &rows)?;
        drop(lock);
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
