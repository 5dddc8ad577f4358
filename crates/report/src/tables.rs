//! `ratings.csv` and `standings.csv`, and the number formatting shared with `report.md`.

use std::path::{Path, PathBuf};

use crate::elo::Interval;
use crate::error::{Error, Result};
use crate::{Standing, Summary};

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

/// The interval column: how the interval was computed, and whether it can be trusted.
pub(crate) fn interval_method(pool: &crate::PoolRatings, s: &Standing) -> &'static str {
    match (s.interval, pool.intervals_reliable()) {
        (None, _) => "",
        (Some(_), true) if s.wald => "wald",
        (Some(_), true) => "profile",
        (Some(_), false) => "bootstrap-unreliable",
    }
}

/// The estimate column: what a rating rests on.
pub(crate) fn estimate(s: &Standing) -> &'static str {
    if s.anchor {
        "anchor"
    } else if s.finite {
        "mle"
    } else {
        "tiers"
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

fn interval_fields(interval: Option<Interval>) -> [String; 2] {
    match interval {
        Some(i) => [
            i.low.map_or_else(String::new, |x| fixed(x, 1)),
            i.high.map_or_else(String::new, |x| fixed(x, 1)),
        ],
        None => [String::new(), String::new()],
    }
}

/// `variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses,group,tier,estimate,interval`,
/// one row per agent and pool, pools in the summary's order and agents as in the standings. An
/// interval end the games leave open is empty; so are both for the anchor. `interval` says how
/// the interval was computed: `profile`, `wald` (a group of more than
/// [`crate::elo::MAX_PROFILE_AGENTS`] agents), `bootstrap-unreliable`, or empty without one.
pub(crate) fn write_ratings(path: &Path, summary: &Summary) -> Result<PathBuf> {
    let header = [
        "variant", "agent", "elo", "elo_low", "elo_high", "games", "score", "wins", "draws",
        "losses", "group", "tier", "estimate", "interval",
    ]
    .into_iter()
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
                s.group.to_string(),
                s.tier.to_string(),
                estimate(s).to_owned(),
                interval_method(pool, s).to_owned(),
            ]
        })
    });
    write_rows(path, std::iter::once(header).chain(rows))
}

/// The standings table of every pool, as in `report.md`; rank counts within the group.
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
        "group",
        "tier",
        "estimate",
        "multiplayer_games",
        "average_place",
        "place_points",
        "places",
        "interval",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    let rows = summary.pools.iter().flat_map(|pool| {
        let mut rank = 0;
        let mut group = 0;
        pool.standings.iter().map(move |s| {
            if s.group != group {
                group = s.group;
                rank = 0;
            }
            rank += 1;
            let [low, high] = interval_fields(s.interval);
            let multiplayer = s.multiplayer.as_ref();
            vec![
                pool.pool.clone(),
                rank.to_string(),
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
                s.group.to_string(),
                s.tier.to_string(),
                estimate(s).to_owned(),
                multiplayer.map_or(0, |m| m.games).to_string(),
                multiplayer.map_or_else(String::new, |m| fixed(m.average_place(), 3)),
                multiplayer.map_or_else(String::new, |m| fixed(m.points(), 1)),
                multiplayer.map_or_else(String::new, |m| {
                    m.places
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join("/")
                }),
                interval_method(pool, s).to_owned(),
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
