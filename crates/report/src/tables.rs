//! `ratings.csv` and `standings.csv`, and the number formatting shared with `report.md`.

use std::path::{Path, PathBuf};

use crate::Summary;
use crate::error::{Error, Result};

/// `x` with `decimals` digits, never `-0.0`, and empty for a non-finite value (which the fit
/// never produces; this keeps a bug from ever printing `inf` or `NaN`).
pub(crate) fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return String::new();
    }
    let text = format!("{x:.decimals$}");
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_owned()
    } else {
        text
    }
}

/// An Elo value with its sign, for tables: `+190.8`, `-12.0`, `0.0`.
pub(crate) fn signed(x: f64) -> String {
    let text = fixed(x, 1);
    if text.is_empty() {
        "—".to_owned()
    } else if text.starts_with('-') || text == "0.0" {
        text
    } else {
        format!("+{text}")
    }
}

fn csv_error(path: &Path, error: csv::Error) -> Error {
    let error = match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    };
    Error::Write {
        path: path.to_path_buf(),
        error,
    }
}

fn write_rows(path: &Path, rows: impl Iterator<Item = Vec<String>>) -> Result<PathBuf> {
    let mut writer = csv::Writer::from_path(path).map_err(|e| csv_error(path, e))?;
    for row in rows {
        writer.write_record(&row).map_err(|e| csv_error(path, e))?;
    }
    writer.flush().map_err(|error| Error::Write {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(path.to_path_buf())
}

fn interval_fields(interval: Option<(f64, f64)>) -> [String; 2] {
    match interval {
        Some((low, high)) => [fixed(low, 1), fixed(high, 1)],
        None => [String::new(), String::new()],
    }
}

/// `variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses`, one row per agent and
/// pool, pools in the summary's order and agents best first.
pub(crate) fn write_ratings(path: &Path, summary: &Summary) -> Result<PathBuf> {
    let header = [
        "variant", "agent", "elo", "elo_low", "elo_high", "games", "score",
    ]
    .into_iter()
    .chain(["wins", "draws", "losses"])
    .map(str::to_owned)
    .collect();
    let rows = summary.pools.iter().flat_map(|pool| {
        pool.standings.iter().map(|s| {
            let [low, high] = interval_fields(s.interval);
            vec![
                pool.pool.clone(),
                s.agent.clone(),
                fixed(s.elo, 1),
                low,
                high,
                s.games.to_string(),
                fixed(s.score(), 4),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
            ]
        })
    });
    write_rows(path, std::iter::once(header).chain(rows))
}

/// The standings table of every pool, as in `report.md`.
pub(crate) fn write_standings(path: &Path, summary: &Summary) -> Result<PathBuf> {
    let header = [
        "variant",
        "rank",
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "score_pct",
        "points",
        "elo",
        "elo_low",
        "elo_high",
        "faults",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    let rows = summary.pools.iter().flat_map(|pool| {
        pool.standings.iter().enumerate().map(|(rank, s)| {
            let [low, high] = interval_fields(s.interval);
            vec![
                pool.pool.clone(),
                (rank + 1).to_string(),
                s.agent.clone(),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                fixed(100.0 * s.score(), 1),
                s.league_points().to_string(),
                fixed(s.elo, 1),
                low,
                high,
                s.faults.to_string(),
            ]
        })
    });
    write_rows(path, std::iter::once(header).chain(rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_never_print_negative_zero_or_non_finite() {
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-0.06, 1), "-0.1");
        assert_eq!(fixed(f64::NAN, 1), "");
        assert_eq!(signed(190.849), "+190.8");
        assert_eq!(signed(-0.01), "0.0");
        assert_eq!(signed(f64::INFINITY), "—");
    }
}
