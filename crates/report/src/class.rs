//! The class report (`class.md`, `class-standings.csv`): a class tournament's standings for a
//! grade sheet, each entrant's score against each reference and each other entrant, its
//! faults with their verdicts and its log's last lines, and the submissions excluded before
//! the first game. The caller reads the run folder (which submissions passed, the fault log,
//! the agents' logs) and hands it over as [`Class`]: this crate knows only the games CSV.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::tables::{fixed, signed};
use crate::{PoolRatings, Summary};

/// What the run folder says of a class tournament besides its games.
#[derive(Clone, Debug, Default)]
pub struct Class {
    /// The experiment's name.
    pub name: String,
    /// The submissions that played (the other agents are references).
    pub entrants: Vec<String>,
    /// The submissions excluded before the first game.
    pub excluded: Vec<Excluded>,
    /// Every game lost by a fault, in game order.
    pub faults: Vec<Fault>,
    /// The last lines of each agent's log, by agent (control characters escaped).
    pub logs: Vec<(String, Vec<String>)>,
    /// The sandbox's layers the games were played without ([`crate::sandbox_line`]).
    pub sandbox_missing: Vec<String>,
}

/// A submission excluded before the first game.
#[derive(Clone, Debug)]
pub struct Excluded {
    /// Its folder.
    pub folder: String,
    /// Its agent's name, if it got one.
    pub name: String,
    /// Why.
    pub reason: String,
    /// Its log (relative to the run folder) and the log's last lines.
    pub log: String,
    /// The log's last lines.
    pub tail: Vec<String>,
}

/// A game lost by a fault.
#[derive(Clone, Debug)]
pub struct Fault {
    /// The game's index.
    pub game: u64,
    /// Its variant.
    pub variant: String,
    /// The agent that lost it.
    pub agent: String,
    /// The verdict: a sandbox's limit (`memory limit`, `CPU limit`, `forbidden call`, `output
    /// limit`), else the termination (`crash`, `illegal-move`, `timeout`).
    pub verdict: String,
    /// Why, in the arena's words.
    pub reason: String,
    /// The CSV's `termination` of the game: the limit's word (`memory-limit`) where the run
    /// recorded one, `crash` (or `illegal-move`, `timeout`) in a run recorded before the CSV
    /// named the limits.
    pub termination: String,
}

impl Class {
    fn role(&self, agent: &str) -> &'static str {
        if self.entrants.iter().any(|e| e == agent) {
            "entrant"
        } else {
            "reference"
        }
    }
}

/// `|` and line ends would break a Markdown table's row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The rows of the final standings, one per agent of each pool (rank within its group), then
/// one per excluded submission: `variant,rank,name,role,games,wins,draws,losses,score_pct,elo,
/// elo_low,elo_high,faults,note`.
fn standings_rows(summary: &Summary, class: &Class) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for pool in pools(summary) {
        let mut rank = 0;
        let mut group = 0;
        for s in &pool.standings {
            if s.group != group {
                group = s.group;
                rank = 0;
            }
            rank += 1;
            let (low, high) = s.interval.map_or((None, None), |i| (i.low, i.high));
            rows.push(vec![
                pool.pool.clone(),
                rank.to_string(),
                s.agent.clone(),
                class.role(&s.agent).to_string(),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                fixed(100.0 * s.score(), 1),
                fixed(s.elo, 1),
                low.map_or_else(String::new, |x| fixed(x, 1)),
                high.map_or_else(String::new, |x| fixed(x, 1)),
                s.faults.to_string(),
                String::new(),
            ]);
        }
    }
    for e in &class.excluded {
        rows.push(vec![
            String::new(),
            String::new(),
            if e.name.is_empty() {
                e.folder.clone()
            } else {
                e.name.clone()
            },
            "excluded".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            "0".into(),
            e.reason.clone(),
        ]);
    }
    rows
}

/// The pools a class is graded on: each variant's (the pool of all variants is left out: a
/// grade sheet has one line per student and variant).
fn pools(summary: &Summary) -> impl Iterator<Item = &PoolRatings> {
    summary
        .pools
        .iter()
        .filter(|p| p.pool != crate::ALL_POOL || summary.pools.len() == 1)
}

/// The header of `class-standings.csv`.
pub const STANDINGS_HEADER: [&str; 14] = [
    "variant",
    "rank",
    "name",
    "role",
    "games",
    "wins",
    "draws",
    "losses",
    "score_pct",
    "elo",
    "elo_low",
    "elo_high",
    "faults",
    "note",
];

/// Writes `class-standings.csv` and `class.md` into `out_dir`; returns their paths.
pub fn write(out_dir: &Path, summary: &Summary, class: &Class) -> Result<Vec<PathBuf>> {
    let csv_path = out_dir.join("class-standings.csv");
    let write_error = |path: &Path, error: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        error,
    };
    let rows = standings_rows(summary, class);
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut all = vec![
        STANDINGS_HEADER
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    ];
    all.extend(rows.iter().cloned());
    for row in &all {
        writer
            .write_record(row)
            .map_err(|e| write_error(&csv_path, std::io::Error::other(e.to_string())))?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| write_error(&csv_path, std::io::Error::other(e.to_string())))?;
    std::fs::write(&csv_path, bytes).map_err(|e| write_error(&csv_path, e))?;

    let md_path = out_dir.join("class.md");
    std::fs::write(&md_path, markdown(summary, class, &rows))
        .map_err(|e| write_error(&md_path, e))?;
    Ok(vec![csv_path, md_path])
}

fn markdown(summary: &Summary, class: &Class, rows: &[Vec<String>]) -> String {
    let mut md = String::new();
    let total = class.entrants.len() + class.excluded.len();
    let _ = writeln!(md, "# Class report: {}\n", class.name);
    let _ = writeln!(
        md,
        "{} of {total} submissions played; {} excluded before the first game. The final \
         standings are in `class-standings.csv` (one row per agent and variant, then the \
         excluded submissions), ready to paste into a grade sheet.\n",
        class.entrants.len(),
        class.excluded.len()
    );
    if let Some(line) = crate::sandbox_line(&class.sandbox_missing) {
        let _ = writeln!(md, "{line}\n");
    }
    let _ = writeln!(md, "## Final standings\n");
    let _ = writeln!(
        md,
        "| variant | rank | name | role | games | W-D-L | score | Elo | 95% interval | faults |"
    );
    let _ = writeln!(
        md,
        "| --- | ---: | --- | --- | ---: | --- | ---: | ---: | --- | ---: |"
    );
    for row in rows.iter().filter(|r| r[3] != "excluded") {
        let interval = match (row[10].as_str(), row[11].as_str()) {
            ("", "") => "—".to_string(),
            (low, "") => format!("≥ {low}"),
            ("", high) => format!("≤ {high}"),
            (low, high) => format!("{low} to {high}"),
        };
        let elo: f64 = row[9].parse().unwrap_or(f64::NAN);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {}-{}-{} | {}% | {} | {} | {} |",
            row[0],
            row[1],
            cell(&row[2]),
            row[3],
            row[4],
            row[5],
            row[6],
            row[7],
            row[8],
            signed(elo),
            interval,
            row[12]
        );
    }
    md.push('\n');

    for pool in pools(summary) {
        let agents: Vec<&str> = pool.standings.iter().map(|s| s.agent.as_str()).collect();
        let references: Vec<&str> = agents
            .iter()
            .copied()
            .filter(|a| class.role(a) == "reference")
            .collect();
        let entrants: Vec<&str> = agents
            .iter()
            .copied()
            .filter(|a| class.role(a) == "entrant")
            .collect();
        let _ = writeln!(
            md,
            "## Each entrant against each opponent: {}\n\nWins-draws-losses of the row's \
             entrant against the column's agent (references first); `·` where they did not \
             meet.\n",
            pool.pool
        );
        let columns: Vec<&str> = references.iter().chain(&entrants).copied().collect();
        let _ = write!(md, "| entrant |");
        for c in &columns {
            let marker = if class.role(c) == "reference" {
                " (ref)"
            } else {
                ""
            };
            let _ = write!(md, " {}{marker} |", cell(c));
        }
        let _ = write!(md, "\n| --- |");
        for _ in &columns {
            let _ = write!(md, " :---: |");
        }
        md.push('\n');
        for row in &entrants {
            let _ = write!(md, "| {} |", cell(row));
            for column in &columns {
                let text = if row == column {
                    "—".to_string()
                } else {
                    match pool.head_to_head(row, column) {
                        Some(p) if p.wins + p.draws + p.losses > 0 => {
                            format!("{}-{}-{}", p.wins, p.draws, p.losses)
                        }
                        _ => "·".to_string(),
                    }
                };
                let _ = write!(md, " {text} |");
            }
            md.push('\n');
        }
        md.push('\n');
    }

    let _ = writeln!(md, "## Faults\n");
    if class.faults.is_empty() {
        let _ = writeln!(md, "No game was lost by a fault.\n");
    } else {
        // Where the CSV names a limit, the report says so; a run without one (or recorded
        // before the CSV named them, with `crash` for a limit) keeps its words.
        let limits_recorded = class
            .faults
            .iter()
            .any(|f| !["crash", "illegal-move", "timeout"].contains(&f.termination.as_str()));
        let _ = writeln!(
            md,
            "Every game lost by a fault. The verdict names the sandbox's limit where one \
             stopped the program (memory limit, CPU limit, forbidden call, output limit), \
             else how the game ended (crash, illegal-move, timeout). {}\n",
            if limits_recorded {
                "The CSV's `termination` column names it too (`memory-limit`, `cpu-limit`, \
                 `forbidden-call`, `output-limit`, else the termination); the reason is in \
                 `games.faults.log`."
            } else {
                "The CSV's `termination` column holds the latter; the verdict and the reason \
                 are in `games.faults.log`."
            }
        );
        // Per entrant, one row per kind of fault (verdict and reason), with its games.
        let mut kinds: Vec<(&str, &str, &str, &str, Vec<u64>)> = Vec::new();
        for f in &class.faults {
            match kinds
                .iter_mut()
                .find(|k| (k.0, k.1, k.2, k.3) == (&f.agent, &f.variant, &f.verdict, &f.reason))
            {
                Some(kind) => kind.4.push(f.game),
                None => kinds.push((&f.agent, &f.variant, &f.verdict, &f.reason, vec![f.game])),
            }
        }
        kinds.sort_by(|a, b| (a.0, a.4[0]).cmp(&(b.0, b.4[0])));
        let _ = writeln!(md, "| agent | variant | verdict | games | reason |");
        let _ = writeln!(md, "| --- | --- | --- | --- | --- |");
        for (agent, variant, verdict, reason, games) in &kinds {
            let listed: Vec<String> = games.iter().map(u64::to_string).collect();
            let _ = writeln!(
                md,
                "| {} | {variant} | {verdict} | {} ({}) | {} |",
                cell(agent),
                games.len(),
                listed.join(", "),
                cell(reason)
            );
        }
        md.push('\n');
        let _ = writeln!(md, "### The last lines of each faulty agent's log\n");
        for (agent, tail) in &class.logs {
            if !class.faults.iter().any(|f| &f.agent == agent) {
                continue;
            }
            let _ = writeln!(md, "`{}` (`games.logs/`):\n", cell(agent));
            let _ = writeln!(md, "```text");
            for line in tail {
                let _ = writeln!(md, "{}", line.replace("```", "'''"));
            }
            let _ = writeln!(md, "```\n");
        }
    }

    let _ = writeln!(md, "## Excluded submissions\n");
    if class.excluded.is_empty() {
        let _ = writeln!(md, "None: every submission built and answered.\n");
    } else {
        for e in &class.excluded {
            let _ = writeln!(
                md,
                "- **{}** (folder `{}`): {}{}",
                cell(if e.name.is_empty() {
                    &e.folder
                } else {
                    &e.name
                }),
                cell(&e.folder),
                cell(&e.reason),
                if e.log.is_empty() {
                    String::new()
                } else {
                    format!(" (log: `{}`)", e.log)
                }
            );
            if !e.tail.is_empty() {
                let _ = writeln!(md, "\n  ```text");
                for line in &e.tail {
                    let _ = writeln!(md, "  {}", line.replace("```", "'''"));
                }
                let _ = writeln!(md, "  ```");
            }
        }
        md.push('\n');
    }
    md
}
