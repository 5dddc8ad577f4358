//! `report.md`: the tables and charts together, with the method stated.

use std::fmt::Write as _;
use std::path::Path;

use crate::charts::{CHART_SIZE, ChartFiles, TIME_FLOOR_MS};
use crate::elo::PairElo;
use crate::error::{Error, Result};
use crate::games::{ALL_POOL, board_cells};
use crate::tables::{fixed, signed};
use crate::{Options, PoolRatings, Report, Summary};

/// A table cell: `|` would end the cell early.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn interval_text(interval: Option<(f64, f64)>) -> String {
    match interval {
        Some((low, high)) => format!("[{}, {}]", signed(low), signed(high)),
        None => "—".to_owned(),
    }
}

pub(crate) fn write(
    path: &Path,
    report: &Report,
    summary: &Summary,
    charts: &ChartFiles,
    options: &Options,
) -> Result<()> {
    let text = render(report, summary, charts, options);
    std::fs::write(path, text).map_err(|error| Error::Write {
        path: path.to_path_buf(),
        error,
    })
}

fn render(report: &Report, summary: &Summary, charts: &ChartFiles, options: &Options) -> String {
    let tally = &report.tally;
    let mut out = String::new();
    let mut sources = report.sources.clone();
    sources.sort();
    let experiments: Vec<&str> = tally.experiments.iter().map(String::as_str).collect();
    let _ = writeln!(out, "# Arena report\n");
    let _ = writeln!(
        out,
        "{} games from {} (experiment{}: {}), {} variant{}.\n",
        summary.games,
        sources
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", "),
        if experiments.len() == 1 { "" } else { "s" },
        experiments.join(", "),
        tally.variants.len(),
        if tally.variants.len() == 1 { "" } else { "s" },
    );
    write_method(&mut out, summary, options);

    for pool in summary.pools.iter().filter(|p| p.pool != ALL_POOL) {
        let variant = &pool.pool;
        let size = board_cells(variant).map_or_else(String::new, |c| format!(" ({c} cells)"));
        let _ = writeln!(out, "## {variant}{size}\n");
        write_pool(&mut out, pool, charts);
        write_timing(&mut out, pool, report);
        let _ = writeln!(out, "### Elo against compute budget\n");
        match (charts.budget.get(variant), charts.families.get(variant)) {
            (Some(stem), Some(families)) => {
                let names: Vec<String> = families
                    .iter()
                    .map(|f| {
                        let agents: Vec<String> =
                            f.members.iter().map(|(_, agent)| cell(agent)).collect();
                        format!("{}: {}", cell(&f.legend()), agents.join(", "))
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "Agent families (same kind and settings, different budget): {}.\n\n\
                     ![Elo against compute budget, {variant}]({stem}.png)\n",
                    names.join("; ")
                );
            }
            _ => {
                let _ = writeln!(
                    out,
                    "No chart: no agent family (same kind and settings) appears at two or more \
                     budgets (`iterations`, `rollouts`, `depth`, `nodes`, `time_ms`, `ms`) in \
                     this variant.\n"
                );
            }
        }
    }

    if let Some(all) = summary.pool(ALL_POOL) {
        if tally.variants.len() > 1 {
            let _ = writeln!(out, "## All variants pooled\n");
            let _ = writeln!(
                out,
                "Every game of every variant in one fit; an agent is the same agent in every \
                 variant it played.\n"
            );
            write_pool(&mut out, all, charts);
        } else {
            let _ = writeln!(
                out,
                "With one variant the pool `all` in `ratings.csv` and `standings.csv` equals \
                 that variant.\n"
            );
        }
    }

    let _ = writeln!(out, "## Time per move against board size\n");
    match &charts.time {
        Some(stem) => {
            let _ = writeln!(
                out,
                "![Mean time per move against board size]({stem}.png)\n\nMean thinking time \
                 per move of each agent in each variant (total time / moves made; the first \
                 player makes ceil(plies/2) moves, the second floor(plies/2))."
            );
            if charts.time_floored {
                let _ = writeln!(
                    out,
                    "Means below {TIME_FLOOR_MS} ms are drawn at {TIME_FLOOR_MS} ms, since a log \
                     axis has no zero."
                );
            }
            let _ = writeln!(out);
        }
        None => {
            let _ = writeln!(out, "No chart: no variant with a known board size.\n");
        }
    }
    if !charts.unsized_variants.is_empty() {
        let _ = writeln!(
            out,
            "Left out of the time chart (board size unknown): {}.\n",
            charts.unsized_variants.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "Every chart is also in the same folder as SVG (same name, `.svg`)."
    );
    out
}

fn write_method(out: &mut String, summary: &Summary, options: &Options) {
    let _ = writeln!(out, "## Method\n");
    let anchor = match &options.anchor {
        Some((agent, elo)) => format!(
            "{} is fixed at {} Elo in every pool it played in; pools without it have mean 0",
            cell(agent),
            fixed(*elo, 1)
        ),
        None => "ratings have mean 0 in every pool".to_owned(),
    };
    let bootstrap = if options.bootstrap == 0 {
        "No bootstrap was run, so no intervals are given.".to_owned()
    } else {
        format!(
            "The 95% interval is a percentile bootstrap over {} replicates (seed {}): each \
             replicate redraws, with replacement, as many games as each pairing played from \
             that pairing's games, refits, and the interval runs from the 2.5th to the 97.5th \
             percentile.",
            options.bootstrap, options.seed
        )
    };
    let prior_pools: Vec<&str> = summary
        .pools
        .iter()
        .filter(|p| p.prior_used)
        .map(|p| p.pool.as_str())
        .collect();
    let prior_here = if prior_pools.is_empty() {
        "No pool needed it here.".to_owned()
    } else {
        format!("Pools that needed it: {}.", prior_pools.join(", "))
    };
    let _ = writeln!(
        out,
        "Ratings are the maximum-likelihood fit of the Bradley-Terry (logistic Elo) model, \
         P(A beats B) = 1 / (1 + 10^((R_B − R_A) / 400)), with a draw counted as half a win, \
         fitted jointly over all games of a variant by Newton's method; {anchor}. {bootstrap}\n\n\
         Agents that never met, not even through common opponents, form separate groups, each \
         rated on its own with mean 0.\n\n\
         **Perfect scores.** An agent that won or lost every game (or a set of agents that took \
         every point from the rest) has no finite maximum-likelihood rating. For such a group, \
         and only then, the fit adds a weak prior: one virtual drawn game of every agent against \
         a phantom opponent rated 0. The rating of a perfect score is then large but finite and \
         grows with the number of games; read it as a lower (or upper) bound. Agents with a \
         perfect score are marked † in the tables and charts. Bootstrap replicates follow the \
         same rule, but a pairing won every time is resampled as won every time, so the \
         bootstrap cannot see the uncertainty of an agent whose games all went one way: its \
         interval is instead ±1.96 standard errors from the curvature of the log-likelihood \
         with the prior at its maximum (the Laplace approximation). {prior_here}\n\n\
         **Pairs** follow cutechess-cli: the Elo difference is the one the pair's score implies, \
         −400·log10(1/score − 1); ± is half the width of its 95% interval from the normal \
         approximation of the mean score; LOS (likelihood of superiority) is \
         0.5·(1 + erf((W − L) / √(2(W + L)))), draws not counting. Where cutechess-cli would \
         print an infinite or undefined number (a 100% or 0% score, or an interval beyond 0–100%) the table shows —.\n\n\
         **Points** are 3 for a win, 1 for a draw, 0 for a loss; score % counts a draw as half a \
         win. **Faults** are games lost by an illegal move, a crash or a timeout. Charts are \
         {}×{} pixels (PNG) and SVG; their text is set in DejaVu Sans.\n",
        CHART_SIZE.0, CHART_SIZE.1
    );
}

fn write_pool(out: &mut String, pool: &PoolRatings, charts: &ChartFiles) {
    let title = if pool.pool == ALL_POOL {
        "all variants".to_owned()
    } else {
        pool.pool.clone()
    };
    let _ = writeln!(out, "### Standings\n");
    let _ = writeln!(
        out,
        "| # | Agent | Games | W | D | L | Score % | Points | Elo | 95% interval | Faults |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"
    );
    for (rank, s) in pool.standings.iter().enumerate() {
        let mark = if s.has_perfect_score() { " †" } else { "" };
        let _ = writeln!(
            out,
            "| {} | {}{mark} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            rank + 1,
            cell(&s.agent),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            fixed(100.0 * s.score(), 1),
            s.league_points(),
            signed(s.elo),
            interval_text(s.interval),
            s.faults
        );
    }
    let _ = writeln!(out);
    let perfect: Vec<String> = pool
        .standings
        .iter()
        .filter(|s| s.has_perfect_score())
        .map(|s| {
            let what = if s.wins == s.games { "won" } else { "lost" };
            format!("{} {what} every game", cell(&s.agent))
        })
        .collect();
    if pool.prior_used {
        let mut reasons = perfect.clone();
        if reasons.is_empty() {
            reasons.push("some agents took every point from the others".to_owned());
        }
        let _ = writeln!(
            out,
            "† No finite maximum-likelihood rating: {}. The weak prior (see Method) is in use \
             for this pool.\n",
            reasons.join("; ")
        );
    }
    if pool.groups > 1 {
        let _ = writeln!(
            out,
            "The agents form {} groups that never played each other, not even through common \
             opponents. Each group is rated on its own with mean 0, so ratings from different \
             groups are not comparable.\n",
            pool.groups
        );
    }
    if let Some((agent, elo)) = &pool.anchor {
        let _ = writeln!(
            out,
            "Anchor: {} at {} Elo (its interval is fixed by construction).\n",
            cell(agent),
            fixed(*elo, 1)
        );
    }
    if let Some(stem) = charts.elo.get(&pool.pool) {
        let _ = writeln!(out, "![Elo with 95% intervals, {title}]({stem}.png)\n");
    }

    let agents: Vec<&str> = pool.standings.iter().map(|s| s.agent.as_str()).collect();
    let _ = writeln!(
        out,
        "### Head to head\n\nScore % of the row agent against the column agent (— never met).\n"
    );
    let _ = write!(out, "| |");
    for agent in &agents {
        let _ = write!(out, " {} |", cell(agent));
    }
    let _ = write!(out, "\n|---|");
    for _ in &agents {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out);
    for row in &agents {
        let _ = write!(out, "| **{}** |", cell(row));
        for column in &agents {
            let text = if row == column {
                String::new()
            } else {
                pool.head_to_head(row, column)
                    .and_then(|m| m.score())
                    .map_or("—".to_owned(), |s| fixed(100.0 * s, 1))
            };
            let _ = write!(out, " {text} |");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
    if let Some(stem) = charts.head_to_head.get(&pool.pool) {
        let _ = writeln!(out, "![Head to head, {title}]({stem}.png)\n");
    }

    let _ = writeln!(
        out,
        "### Pairs\n\nEach pair once, from the side of the agent ranked higher.\n\n\
         | Agent | Opponent | Games | W-D-L | Score % | Elo difference | ± (95%) | LOS % |\n\
         |---|---|---:|---|---:|---:|---:|---:|"
    );
    for (i, agent) in agents.iter().enumerate() {
        for opponent in &agents[i + 1..] {
            let Some(pair) = pool.head_to_head(agent, opponent) else {
                continue;
            };
            if pair.games() == 0 {
                continue;
            }
            write_pair(out, agent, opponent, &pair);
        }
    }
    let _ = writeln!(out);
}

fn write_pair(out: &mut String, agent: &str, opponent: &str, pair: &PairElo) {
    let dash = || "—".to_owned();
    let _ = writeln!(
        out,
        "| {} | {} | {} | {}-{}-{} | {} | {} | {} | {} |",
        cell(agent),
        cell(opponent),
        pair.games(),
        pair.wins,
        pair.draws,
        pair.losses,
        pair.score().map_or_else(dash, |s| fixed(100.0 * s, 1)),
        pair.difference().map_or_else(dash, signed),
        pair.error_margin().map_or_else(dash, |m| fixed(m, 1)),
        fixed(100.0 * pair.likelihood_of_superiority(), 1),
    );
}

fn write_timing(out: &mut String, pool: &PoolRatings, report: &Report) {
    let _ = writeln!(
        out,
        "### Timing\n\n\
         | Agent | Moves | Mean ms/move | Max ms/move | Nodes/s |\n\
         |---|---:|---:|---:|---:|"
    );
    let dash = || "—".to_owned();
    for standing in &pool.standings {
        let Some(time) = report.timing(&pool.pool, &standing.agent) else {
            continue;
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&standing.agent),
            time.moves,
            time.mean_ms_per_move().map_or_else(dash, |ms| fixed(ms, 3)),
            fixed(time.max_ms_per_move, 3),
            time.nodes_per_second().map_or_else(dash, |n| fixed(n, 0)),
        );
    }
    let _ = writeln!(out);
}
