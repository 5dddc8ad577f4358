//! A class's submissions (`submissions = "DIR"` in an experiment,
//! `docs/src/guide/class-tournament.md`): one sub-folder per student, each an outside agent
//! (`proc`) that runs in its own folder. This module reads the folder; before the first game
//! each is built and checked ([`crate::admission::admit`]).
//!
//! A student's folder and manifest are hostile input: a folder name is used only when it is
//! plain (letters, digits, `-`, `_`, `.`), a link is never followed, a manifest is small and
//! strict, and a command may not hold a comma (it would end the spec's `args`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// The manifest a submission may hold.
pub const MANIFEST: &str = "submission.toml";
/// The longest folder or agent name of a submission, in bytes.
pub const MAX_NAME: usize = 64;
/// How long a build may take unless `build_time_s` says (seconds).
pub const BUILD_TIME_S: u64 = 120;

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
