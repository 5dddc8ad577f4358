//! `report.md`: the tables and charts together, with the method stated.

use std::fmt::Write as _;
use std::path::Path;

use crate::charts::{CHART_SIZE, ChartFiles, TIME_FLOOR_MS, interval_text};
use crate::elo::MAX_PROFILE_AGENTS;
use crate::elo::PairElo;
use crate::error::{Error, Result};
use crate::games::{ALL_POOL, board_cells};
use crate::sprt::PentanomialElo;
use crate::tables::{fixed, signed};
use crate::{Intervals, Options, PoolRatings, Report, Summary};

/// A name in a table cell, as text: `|` would end the cell early, and Markdown's marks in an
/// agent's or a person's name (`*`, `` ` ``, `[`, `<`, a `_` at a word's edge, ...) would be
/// rendered (emphasis, code, links, HTML) rather than shown. A `_` inside a word (`tt_mb`)
/// renders as itself and is left alone.
fn cell(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (at, &c) in chars.iter().enumerate() {
        let inside_word = |side: Option<&char>| side.is_some_and(|c| c.is_alphanumeric());
        let escape = match c {
            '|' | '\\' | '*' | '`' | '[' | ']' | '<' | '>' | '~' | '#' | '!' => true,
            '_' => !(inside_word(chars.get(at.wrapping_sub(1))) && inside_word(chars.get(at + 1))),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The anchors of a Markdown page's headings, as GitHub makes them (and the web's Report page
/// gives them): the heading's text in lower case, keeping letters, digits, `-` and `_`, a
/// space made `-`, everything else dropped; a second heading with the same anchor gets `-1`,
/// a third `-2`, and so on. One per page, fed its headings in order.
#[derive(Debug, Default)]
pub struct Anchors {
    seen: std::collections::HashMap<String, usize>,
}

impl Anchors {
    /// The anchor of the next heading, whose text (as shown) is `text`.
    pub fn next(&mut self, text: &str) -> String {
        let base: String = text
            .trim()
            .chars()
            .flat_map(char::to_lowercase)
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let count = self.seen.entry(base.clone()).or_insert(0);
        let anchor = if *count == 0 {
            base
        } else {
            format!("{base}-{count}")
        };
        *count += 1;
        anchor
    }
}

/// A table of contents for `body` (Markdown whose headings are ATX lines, `## ...`), put
/// after its intro (before its first `##` heading): each `##` section linked, its `###`
/// subsections linked after it on the same line. Anchors are counted over the whole page, the
/// contents' own heading included, as a renderer counts them.
fn with_contents(body: &str) -> String {
    const TITLE: &str = "Contents";
    let Some(first) = body.find("\n## ").map(|at| at + 1) else {
        return body.to_string();
    };
    let (intro, rest) = body.split_at(first);
    let heading = |line: &str| -> Option<(usize, String)> {
        let level = line.chars().take_while(|&c| c == '#').count();
        let text = line.get(level..)?.strip_prefix(' ')?;
        // Escapes and code marks are not part of the shown text.
        let shown: String = text.chars().filter(|&c| c != '\\' && c != '`').collect();
        (1..=6).contains(&level).then_some((level, shown))
    };
    let mut anchors = Anchors::default();
    for line in intro.lines() {
        if let Some((_, text)) = heading(line) {
            anchors.next(&text);
        }
    }
    anchors.next(TITLE);
    let mut items: Vec<(String, Vec<String>)> = Vec::new();
    for line in rest.lines() {
        let Some((level, text)) = heading(line) else {
            continue;
        };
        let anchor = anchors.next(&text);
        match level {
            2 => items.push((format!("- [{text}](#{anchor})"), Vec::new())),
            3 => {
                if let Some((_, subs)) = items.last_mut() {
                    subs.push(format!("[{}](#{anchor})", text.to_lowercase()));
                }
            }
            _ => {}
        }
    }
    let lines: Vec<String> = items
        .into_iter()
        .map(|(item, subs)| {
            if subs.is_empty() {
                item
            } else {
                format!("{item}: {}", subs.join(" · "))
            }
        })
        .collect();
    format!("{intro}## {TITLE}\n\n{}\n\n{rest}", lines.join("\n"))
}

pub(crate) fn write(
    path: &Path,
    report: &Report,
    summary: &Summary,
    charts: &ChartFiles,
    options: &Options,
) -> Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let text = render(report, summary, charts, options, folder);
    std::fs::write(path, text).map_err(|error| Error::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// How an input file is named in the report: by its name alone when it lies in the report's
/// folder (the usual `games.csv` beside its report), so the text does not depend on where the
/// report was written from; otherwise as it was given.
fn shown(source: &str, folder: &Path) -> String {
    let path = Path::new(source);
    let beside = path
        .parent()
        .map(|parent| {
            if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            }
        })
        .and_then(|parent| parent.canonicalize().ok())
        .zip(folder.canonicalize().ok())
        .is_some_and(|(parent, folder)| parent == folder);
    match path.file_name() {
        Some(name) if beside => name.to_string_lossy().into_owned(),
        _ => source.to_owned(),
    }
}

fn render(
    report: &Report,
    summary: &Summary,
    charts: &ChartFiles,
    options: &Options,
    folder: &Path,
) -> String {
    let tally = &report.tally;
    let mut out = String::new();
    let mut sources: Vec<String> = report.sources.iter().map(|s| shown(s, folder)).collect();
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
    if let Some(line) = crate::sandbox_line(report.sandbox_missing()) {
        let _ = writeln!(out, "{line}\n");
    }
    let (without_specs, without_timing) = report.missing_columns();
    let without_specs: Vec<String> = without_specs.iter().map(|s| shown(s, folder)).collect();
    let without_specs: Vec<&str> = without_specs.iter().map(String::as_str).collect();
    let without_timing: Vec<String> = without_timing.iter().map(|s| shown(s, folder)).collect();
    let without_timing: Vec<&str> = without_timing.iter().map(String::as_str).collect();
    if !without_specs.is_empty() {
        let _ = writeln!(
            out,
            "**Not shown:** {} {} no `first_spec`/`second_spec` columns, so the agents' kinds \
             and budgets are unknown for {}: no Elo-against-budget chart for them.\n",
            list(&without_specs),
            if without_specs.len() == 1 {
                "has"
            } else {
                "have"
            },
            if without_specs.len() == 1 {
                "its games"
            } else {
                "their games"
            },
        );
    }
    if !without_timing.is_empty() {
        let _ = writeln!(
            out,
            "**Not shown:** {} {} no timing columns (`first_ms` … `second_nodes`), so the timing \
             tables and the time chart leave {} out (their times count as 0).\n",
            list(&without_timing),
            if without_timing.len() == 1 {
                "has"
            } else {
                "have"
            },
            if without_timing.len() == 1 {
                "its games"
            } else {
                "their games"
            },
        );
    }
    if !summary.self_play.is_empty() {
        let total: u64 = summary.self_play.values().sum();
        let per_variant: Vec<String> = summary
            .self_play
            .iter()
            .map(|(variant, count)| format!("{count} in {variant}"))
            .collect();
        let _ = writeln!(
            out,
            "**Left out:** {total} game{} of an agent against itself ({}): such a game says \
             nothing of the agent's strength, so it counts in no rating, standing or timing \
             below.\n",
            if total == 1 { "" } else { "s" },
            per_variant.join(", "),
        );
    }
    for pool in summary.pools.iter().filter(|p| p.pool != ALL_POOL) {
        let variant = &pool.pool;
        let players: Vec<usize> = tally
            .variants
            .get(variant)
            .map(|v| v.players.iter().copied().collect())
            .unwrap_or_default();
        let size = if let Some(cells) = board_cells(variant) {
            format!(" ({cells} cells)")
        } else if players.iter().any(|&p| p > 2) {
            format!(
                " ({} players)",
                players
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        let _ = writeln!(out, "## {variant}{size}\n");
        write_pool(&mut out, pool, charts, report);
        if let Some(stem) = charts.places.get(variant) {
            let _ = writeln!(
                out,
                "### Places\n\n![Place distribution, {variant}]({stem}.png)\n\nThe share of each \
                 agent's games finished in each place; agents by average place.\n"
            );
        }
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
                     this variant{}.\n",
                    if without_specs.is_empty() {
                        ""
                    } else {
                        " (as far as the spec columns tell)"
                    }
                );
            }
        }
    }

    if let Some(all) = summary.pool(ALL_POOL) {
        let _ = writeln!(out, "## All variants pooled\n");
        let _ = writeln!(
            out,
            "Every game of every variant in one fit; an agent is the same agent in every \
             variant it played.\n"
        );
        if let Some(test) = &summary.consistency {
            let caveat = if all.multiplayer {
                " (The pairwise results of one N-player game are not independent, so with such \
                 games the test is only approximate.)"
            } else {
                ""
            };
            let _ = writeln!(out, "{}{caveat}\n", consistency_text(test));
        }
        write_pool(&mut out, all, charts, report);
    }

    let _ = writeln!(out, "## Time per move\n");
    match &charts.time {
        Some(stem) => {
            let columns = if charts.time_columns_beyond_oanquan {
                "every other variant (a ring of pits, or a board whose size its id does not say) \
                 has a column of its own, on a panel of one column per variant"
            } else {
                "O An Quan, whose board is a ring of squares and not a grid, has a panel of its \
                 own with one column per variant"
            };
            let _ = writeln!(
                out,
                "![Mean time per move]({stem}.png)\n\nMean thinking time per move of each agent \
                 in each variant (total time / moves made; seat k of an N-player game makes \
                 the plies t with t mod N = k). m,n,k variants are placed by board size (cells); \
                 {columns}."
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
            let _ = writeln!(out, "No chart: no timed games.\n");
        }
    }
    let _ = writeln!(
        out,
        "Every chart is also in the same folder as SVG (same name, `.svg`).\n"
    );
    // The method after the results: a reader comes for the standings first (issue 36).
    write_method(&mut out, summary, options);
    with_contents(out.trim_end()) + "\n"
}

/// `a`, `a and b`, `a, b and c`, each in backticks.
fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} and {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

fn consistency_text(test: &crate::Consistency) -> String {
    if test.degrees_of_freedom == 0 {
        // Nothing to test is not a finding: say so, not "not rejected".
        return "**One strength per agent across variants?** The pooled fit assumes it, and \
                these games cannot test it: no agent's results in one variant constrain its \
                rating in another (0 degrees of freedom), so the per-variant ratings are the \
                ones to read."
            .to_string();
    }
    let verdict = if test.p_value < 0.05 {
        "**rejected** at the 5% level: some agents are clearly stronger in one variant than in \
         another, so the pooled rating of an agent is an average over strengths that differ, \
         and the per-variant ratings are the ones to read"
    } else {
        "not rejected at the 5% level: the games do not contradict one strength per agent"
    };
    let draws = if test.dispersion < 1.0 {
        format!(
            " (the likelihood ratio {}, divided by the draw dispersion {})",
            fixed(test.likelihood_ratio, 1),
            fixed(test.dispersion, 3)
        )
    } else {
        String::new()
    };
    let p = if test.p_value < 1e-4 {
        format!("{:.1e}", test.p_value)
    } else {
        fixed(test.p_value, 4)
    };
    format!(
        "**One strength per agent across variants?** The pooled fit assumes it. A \
         likelihood-ratio test against a rating per agent in each variant gives χ² = {}{draws} \
         on {} degree{} of freedom, p = {p}: {verdict}.",
        fixed(test.statistic, 1),
        test.degrees_of_freedom,
        if test.degrees_of_freedom == 1 {
            ""
        } else {
            "s"
        },
    )
}

fn write_method(out: &mut String, summary: &Summary, options: &Options) {
    let _ = writeln!(out, "## Method\n");
    let anchor = match &options.anchor {
        Some((agent, elo)) => format!(
            "{} is fixed at {} Elo in every pool it played in, with no interval (it is the \
             reference), and the rest of its group keeps its differences to it; other groups, \
             and pools it did not play in, have mean 0",
            cell(agent),
            fixed(*elo, 1)
        ),
        None => "ratings have mean 0 in every group of every pool".to_owned(),
    };
    let intervals = match options.intervals {
        Intervals::Off => "No intervals were computed.".to_owned(),
        Intervals::Profile => "**Intervals.** The 95% interval of each rating is its \
             profile-likelihood interval: the ratings at which twice the drop of the \
             log-likelihood, maximised over all other ratings, reaches 3.84 (the 95% point of \
             chi-squared with one degree of freedom). Two refinements, both chosen because the \
             simulated coverage says so (the coverage table of the book's report page; \
             `cargo run --release -p report --example coverage`): the log-likelihood carries the \
             Jeffreys prior ½·log det I(θ) (Firth's penalised likelihood), which keeps the \
             interval's calibration where games went all one way; and the drop is divided by \
             the draw dispersion, the ratio of the sandwich to the model variance of the rating \
             (Royall & Tsou's robust adjusted likelihood): the half-point likelihood treats a \
             game's score as varying like a win-or-loss, while draws make it vary less. Each \
             pairing's variance comes from its wins, draws and losses with half a virtual \
             decisive game added, and is never taken below that of its games with z² = 3.84 \
             virtual decisive games (Wilson's 95% bound on a decisive share that n games did \
             not show), so a pairing of only draws keeps the width of the decisive games it \
             cannot rule out (in simulated pairs and triples drawing 90–99% of their games \
             these intervals held the true rating 92.7–100% of the time). In \
             simulated round robins of 2 to 10 agents at 10 and 40 games per pair these \
             intervals held the true rating 94–97% of the time, where the percentile bootstrap \
             held it 84–95% of the time (the figures are in the book, `docs/src/guide/report.md`)."
            .to_owned(),
        Intervals::Bootstrap => format!(
            "**Intervals.** The 95% interval is a percentile bootstrap over {} replicates \
             (seed {}): each replicate redraws, with replacement, as many games as each group of \
             agents that met played, from that group's games (a game of 3 or 4 players whole), \
             refits, and the interval runs from the 2.5th to the 97.5th percentile. (The \
             default, the profile-likelihood interval, has better simulated coverage: with few \
             games the bootstrap's held the true rating as little as 78–85% of the time, not \
             95%; the tables of the book's report page.)",
            options.bootstrap, options.seed
        ),
    };
    let intervals = if options.intervals == Intervals::Profile {
        let large: Vec<&str> = summary
            .pools
            .iter()
            .filter(|p| p.standings.iter().any(|s| s.wald))
            .map(|p| p.pool.as_str())
            .collect();
        let used = if large.is_empty() {
            "No group here is that large.".to_owned()
        } else {
            format!("Pools with such a group: {}.", large.join(", "))
        };
        format!(
            "{intervals} **Large groups.** The profile interval of each agent maximises the \
             likelihood over all other ratings dozens of times, so a group's intervals take \
             time growing like the fourth power of its agents; a group of more than {MAX_PROFILE_AGENTS} agents gets \
             the Wald interval instead, its rating ± 1.96 standard errors from the information \
             at the estimate with the variance multiplied by the same draw dispersion (`wald` in \
             the CSVs' `interval` column), computed for the whole group at once. {used}"
        )
    } else {
        intervals
    };
    let multiplayer = if summary.pools.iter().any(|p| p.multiplayer) {
        let intervals = if options.intervals == Intervals::Profile {
            " The pairwise results of one game are not independent (an agent that beats one \
             opponent tends to beat the others), so the profile interval's drop is divided by \
             the ratio of their variance to that of independent pairs: a game's variance is \
             that of the points of its whole finishing order under the Plackett-Luce model \
             (places given from the first, each to an agent with probability proportional to \
             its strength), whose pairs follow the Bradley-Terry model fitted here. In \
             simulated pools of 4 to 8 agents at 1, 2, 4 and 10 games per seating these \
             intervals held the true rating 94–96% of the time (the N-player table of the book's report page)."
        } else {
            ""
        };
        format!(
            "\n\n**Games of 3 or 4 players** count as the pairwise results their places imply \
             (each game of N players gives N(N−1)/2: the better place wins, equal places draw), \
             fitted by the same model.{intervals} Their standings give the average place and \
             points: one per opponent placed behind, half per opponent sharing the place (3 \
             players: 2, 1, 0 for first, second, third)."
        )
    } else {
        String::new()
    };
    let tiered: Vec<&str> = summary
        .pools
        .iter()
        .filter(|p| p.prior_used)
        .map(|p| p.pool.as_str())
        .collect();
    let tiered = if tiered.is_empty() {
        "No pool needed it here.".to_owned()
    } else {
        format!("Pools that needed it: {}.", tiered.join(", "))
    };
    let _ = writeln!(
        out,
        "Ratings are the maximum-likelihood fit of the Bradley-Terry (logistic Elo) model, \
         P(A beats B) = 1 / (1 + 10^((R_B − R_A) / 400)), with a draw counted as half a win, \
         fitted jointly over all games of a variant by Newton's method; {anchor}.\n\n\
         {intervals}{multiplayer}\n\n\
         **Groups.** Agents that never met, not even through common opponents, form separate \
         groups, each rated on its own (and numbered in the tables): ratings from different \
         groups are not comparable.\n\n\
         **No finite maximum (†).** When every game between some agents of a group and the \
         rest went one way, the likelihood grows without bound as the gap between them grows, \
         and no maximum-likelihood rating exists (this happens without perfect scores too: an \
         agent that lost only to the agents above it and beat all those below it). The group \
         then splits into tiers: within a tier the games do fix the ratings, and the fit keeps \
         their maximum-likelihood differences; only the gaps between tiers come from a weak \
         prior, one virtual drawn game of every agent against a phantom rated 0. Those gaps \
         are therefore placeholders, not estimates: the tables give each gap's 95% lower bound, \
         which is what the games do say. An interval end the games leave open (the agent's \
         tier could be anywhere further out without the games becoming any less likely) is \
         shown as ≥ or ≤, or as unbounded when both are; in the charts it is an arrow. \
         {tiered}\n\n\
         **Pairs** follow cutechess-cli: the Elo difference is the one the pair's score implies, \
         −400·log10(1/score − 1); ± is half the width of its 95% interval from the normal \
         approximation of the mean score; LOS (likelihood of superiority) is \
         0.5·(1 + erf((W − L) / √(2(W + L)))), draws not counting. Beside them, the game pairs: \
         games 2m and 2m + 1 of a pairing share an opening with the colours swapped, and the \
         pentanomial counts LL-LD-DD/WL-WD-WW count the pairs by the points the row agent took \
         from them; nElo is the normalized Elo of fastchess and fishtest, \
         (score − ½) / √(2·var) · 800 / ln 10 with var the variance of a pair's mean score, \
         with its 95% margin. Where a number would be infinite or undefined the table shows \
         —.\n\n\
         **Points** are 3 for a win, 1 for a draw, 0 for a loss; score % counts a draw as half a \
         win. **Faults** are games lost by an illegal move, a crash or a timeout. Charts are \
         {}×{} pixels (PNG) and SVG; their text is set in DejaVu Sans.\n",
        CHART_SIZE.0, CHART_SIZE.1
    );
}

fn write_pool(out: &mut String, pool: &PoolRatings, charts: &ChartFiles, report: &Report) {
    let title = if pool.pool == ALL_POOL {
        "all variants".to_owned()
    } else {
        pool.pool.clone()
    };
    let grouped = pool.groups > 1;
    let tiered = pool.prior_used;
    let multiplayer = pool.standings.iter().any(|s| s.multiplayer.is_some());
    let two_player = pool
        .standings
        .iter()
        .any(|s| s.multiplayer.as_ref().is_none_or(|m| m.games < s.games));
    let _ = writeln!(out, "### Standings\n");
    let mut header = String::from("| # |");
    let mut rule = String::from("|---:|");
    if grouped {
        header.push_str(" Group |");
        rule.push_str("---:|");
    }
    header.push_str(" Agent | Games |");
    rule.push_str("---|---:|");
    if two_player {
        header.push_str(" W | D | L | Points |");
        rule.push_str("---:|---:|---:|---:|");
    }
    if multiplayer {
        header.push_str(" N-player games | Avg place | Places (1st/2nd/…) | Place points |");
        rule.push_str("---:|---:|---|---:|");
    }
    header.push_str(" Score % |");
    rule.push_str("---:|");
    if tiered {
        header.push_str(" Tier |");
        rule.push_str("---:|");
    }
    header.push_str(" Elo | 95% interval | Faults |");
    rule.push_str("---:|---|---:|");
    let _ = writeln!(out, "{header}\n{rule}");
    let mut rank = 0;
    let mut group = 0;
    for s in &pool.standings {
        if s.group != group {
            group = s.group;
            rank = 0;
        }
        rank += 1;
        let mark = if s.finite { "" } else { " †" };
        let mut row = format!("| {rank} |");
        if grouped {
            let _ = write!(row, " {} |", s.group);
        }
        let _ = write!(row, " {}{mark} | {} |", cell(&s.agent), s.games);
        let m = s.multiplayer.clone().unwrap_or_default();
        if two_player {
            let _ = write!(
                row,
                " {} | {} | {} | {} |",
                s.wins - m.beaten,
                s.draws - m.tied,
                s.losses - m.behind,
                s.league_points()
            );
        }
        if multiplayer {
            if m.games > 0 {
                let places: Vec<String> = m.places.iter().map(u64::to_string).collect();
                let _ = write!(
                    row,
                    " {} | {} | {} | {} |",
                    m.games,
                    fixed(m.average_place(), 2),
                    places.join("/"),
                    fixed(m.points(), 1)
                );
            } else {
                row.push_str(" 0 | — | — | — |");
            }
        }
        let _ = write!(row, " {} |", fixed(100.0 * s.score(), 1));
        if tiered {
            let _ = write!(row, " {} |", s.tier);
        }
        let _ = write!(
            row,
            " {} | {} | {} |",
            signed(s.elo),
            if pool.intervals_reliable() || s.interval.is_none() {
                interval_text(s.interval, s.anchor)
            } else {
                format!("{} ‡", interval_text(s.interval, s.anchor))
            },
            s.faults
        );
        let _ = writeln!(out, "{row}");
    }
    let _ = writeln!(out);
    if multiplayer {
        let _ = writeln!(
            out,
            "W, D and L count two-player games; an N-player game counts once in Games, and its \
             pairwise results (opponents behind, tied, ahead) count in Score % and the rating.\n"
        );
    }
    if tiered {
        let _ = writeln!(
            out,
            "† No finite maximum-likelihood rating in this group: every game between some of \
             its tiers went one way. The gaps between tiers come from the weak prior (see \
             Method); the games only bound them from below:\n"
        );
        for gap in &pool.gaps {
            let members = |tier: usize| -> String {
                let names: Vec<String> = pool
                    .standings
                    .iter()
                    .filter(|s| s.group == gap.group && s.tier == tier)
                    .map(|s| cell(&s.agent))
                    .collect();
                names.join(", ")
            };
            let group = if grouped {
                format!("group {}, ", gap.group)
            } else {
                String::new()
            };
            let bound = match gap.at_least {
                Some(low) => format!("at least {} Elo (95%)", signed(low)),
                None => "not bounded: no chain of games leads from one tier to the other".into(),
            };
            let _ = writeln!(
                out,
                "- {group}tier {} ({}) above tier {} ({}): {bound}; the prior puts it at {}.",
                gap.upper,
                members(gap.upper),
                gap.lower,
                members(gap.lower),
                signed(gap.elo)
            );
        }
        let _ = writeln!(out);
    }
    if grouped {
        let _ = writeln!(
            out,
            "The agents form {} groups that never played each other, not even through common \
             opponents. Each group is rated on its own (mean 0, or placed by the anchor), so \
             ratings from different groups are not comparable.\n",
            pool.groups
        );
    }
    if let Some((agent, elo)) = &pool.anchor {
        let _ = writeln!(
            out,
            "Anchor: {} is fixed at {} Elo; the intervals of its group are relative to it.\n",
            cell(agent),
            fixed(*elo, 1)
        );
    }
    if !pool.intervals_reliable() {
        let _ = writeln!(
            out,
            "‡ Unreliable: percentile bootstrap intervals. In simulated pools with few games they \
             held the true rating as little as 78–85% of the time, not 95% (the coverage tables of \
             the book's report page); the profile interval (the default) held it 94–97% of the time.\n"
        );
    }
    let withheld: Vec<String> = pool
        .standings
        .iter()
        .filter(|s| s.withheld)
        .map(|s| cell(&s.agent))
        .collect();
    if !withheld.is_empty() {
        let _ = writeln!(
            out,
            "No interval (—) for {}: the bootstrap's replicates did not vary (too few games to \
             resample), which says nothing about the uncertainty. The profile interval (the \
             default) gives one.\n",
            withheld.join(", ")
        );
    }
    if let Some(stem) = charts.elo.get(&pool.pool) {
        let _ = writeln!(out, "![Elo with 95% intervals, {title}]({stem}.png)\n");
    }

    let agents: Vec<&str> = pool.standings.iter().map(|s| s.agent.as_str()).collect();
    let alt = if let Some((entrants, field)) = pool.gauntlet_sides() {
        write_gauntlet(out, pool, &entrants, &field);
        "Against the field"
    } else {
        write_head_to_head(out, pool, &agents, multiplayer);
        "Head to head"
    };
    if let Some(stem) = charts.head_to_head.get(&pool.pool) {
        let _ = writeln!(out, "![{alt}, {title}]({stem}.png)\n");
    }

    let _ = writeln!(
        out,
        "### Pairs\n\nEach pair once, from the side of the agent ranked higher{}.\n\n\
         | Agent | Opponent | Games | W-D-L | Score % | Elo difference | ± (95%) | LOS % | \
         Game pairs LL-LD-DD/WL-WD-WW | nElo ± (95%) |\n\
         |---|---|---:|---|---:|---:|---:|---:|---|---|",
        if multiplayer {
            " (pairwise results, N-player games included)"
        } else {
            ""
        }
    );
    let mut unpaired = 0;
    for (i, agent) in agents.iter().enumerate() {
        for opponent in &agents[i + 1..] {
            let Some(pair) = pool.head_to_head(agent, opponent) else {
                continue;
            };
            if pair.games() == 0 {
                continue;
            }
            let pentanomial = report.pentanomial(&pool.pool, agent, opponent);
            unpaired += pentanomial.map_or(0, |p| p.1);
            write_pair(out, agent, opponent, &pair, pentanomial.map(|p| p.0));
        }
    }
    let _ = writeln!(out);
    if unpaired > 0 {
        let _ = writeln!(
            out,
            "{unpaired} two-player game{} had no partner game in the files (an odd number of \
             games per pair, or a run still in progress) and count in W-D-L but in no game \
             pair.\n",
            if unpaired == 1 { "" } else { "s" }
        );
    }
}

/// The square table of the pool: each agent's score against each other.
fn write_head_to_head(out: &mut String, pool: &PoolRatings, agents: &[&str], multiplayer: bool) {
    let _ = writeln!(
        out,
        "### Head to head\n\nScore % of the row agent against the column agent (— never \
         met){}.\n",
        if multiplayer {
            "; N-player games count by their pairwise results"
        } else {
            ""
        }
    );
    let _ = write!(out, "| |");
    for agent in agents {
        let _ = write!(out, " {} |", cell(agent));
    }
    let _ = write!(out, "\n|---|");
    for _ in agents {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out);
    for row in agents {
        let _ = write!(out, "| **{}** |", cell(row));
        for column in agents {
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
}

/// A gauntlet's table: each entrant (row) against each agent of the field (column), and its
/// score against the whole field.
fn write_gauntlet(out: &mut String, pool: &PoolRatings, entrants: &[&str], field: &[&str]) {
    let _ = writeln!(
        out,
        "### Against the field\n\nA gauntlet: every game is one of the {} entrants against one \
         of the {} agents of the field. Score % of the row entrant against the column agent \
         (— never met), and against the whole field, with its games; the field's rows are in \
         the standings above.\n",
        entrants.len(),
        field.len()
    );
    let _ = write!(out, "| |");
    for agent in field {
        let _ = write!(out, " {} |", cell(agent));
    }
    let _ = write!(out, " Field | Games |\n|---|");
    for _ in field {
        let _ = write!(out, "---:|");
    }
    let _ = writeln!(out, "---:|---:|");
    for row in entrants {
        let _ = write!(out, "| **{}** |", cell(row));
        let mut total = PairElo::new(0, 0, 0);
        for column in field {
            let pair = pool.head_to_head(row, column);
            if let Some(pair) = &pair {
                total.wins += pair.wins;
                total.draws += pair.draws;
                total.losses += pair.losses;
            }
            let text = pair
                .and_then(|m| m.score())
                .map_or("—".to_owned(), |s| fixed(100.0 * s, 1));
            let _ = write!(out, " {text} |");
        }
        let score = total
            .score()
            .map_or("—".to_owned(), |s| fixed(100.0 * s, 1));
        let _ = writeln!(out, " {score} | {} |", total.games());
    }
    let _ = writeln!(out);
}

fn write_pair(
    out: &mut String,
    agent: &str,
    opponent: &str,
    pair: &PairElo,
    pentanomial: Option<[u64; 5]>,
) {
    let dash = || "—".to_owned();
    let (pairs, nelo) = match pentanomial {
        Some(counts) if counts.iter().sum::<u64>() > 0 => {
            let estimate = PentanomialElo::new(&counts);
            let nelo = match estimate.and_then(|e| e.nelo.zip(e.nelo_error)) {
                Some((nelo, error)) => format!("{} ± {}", signed(nelo), fixed(error, 1)),
                None => dash(),
            };
            (
                counts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join("-"),
                nelo,
            )
        }
        _ => (dash(), dash()),
    };
    let _ = writeln!(
        out,
        "| {} | {} | {} | {}-{}-{} | {} | {} | {} | {} | {pairs} | {nelo} |",
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
    let dash = || "—".to_owned();
    // Games with a time control (CSV schema 3): a table per time control, each agent's
    // timing there; the all-variants pool and files without the column keep the one table.
    let controls = report.timing_by_time_control(&pool.pool);
    if !controls.is_empty() {
        let _ = writeln!(
            out,
            "### Timing\n\n\
             | Time control | Agent | Moves | Mean ms/move | Max ms/move | Nodes/s | Faults |\n\
             |---|---|---:|---:|---:|---:|---:|"
        );
        for (control, agents) in &controls {
            for standing in &pool.standings {
                let Some((_, time)) = agents.iter().find(|(a, _)| *a == standing.agent) else {
                    continue;
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    cell(control),
                    cell(&standing.agent),
                    time.moves,
                    time.mean_ms_per_move().map_or_else(dash, |ms| fixed(ms, 3)),
                    fixed(time.max_ms_per_move, 3),
                    time.nodes_per_second().map_or_else(dash, |n| fixed(n, 0)),
                    time.faults,
                );
            }
        }
        let _ = writeln!(out);
        return;
    }
    let _ = writeln!(
        out,
        "### Timing\n\n\
         | Agent | Moves | Mean ms/move | Max ms/move | Nodes/s |\n\
         |---|---:|---:|---:|---:|"
    );
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

#[cfg(test)]
mod tests {
    use super::consistency_text;

    #[test]
    fn a_test_on_no_degrees_of_freedom_is_not_a_finding() {
        let test = crate::Consistency {
            likelihood_ratio: 0.0,
            dispersion: 1.0,
            statistic: 0.0,
            degrees_of_freedom: 0,
            p_value: 1.0,
        };
        let text = consistency_text(&test);
        assert!(text.contains("these games cannot test it"), "{text}");
        assert!(!text.contains("do not contradict"), "{text}");
        let tested = consistency_text(&crate::Consistency {
            degrees_of_freedom: 3,
            statistic: 1.0,
            likelihood_ratio: 1.0,
            p_value: 0.8,
            ..test
        });
        assert!(tested.contains("on 3 degrees of freedom"), "{tested}");
    }
}

#[cfg(test)]
mod cell_tests {
    use super::cell;

    #[test]
    fn names_are_shown_as_typed_not_rendered() {
        assert_eq!(cell("alphabeta:tt_mb=64"), "alphabeta:tt_mb=64");
        assert_eq!(cell("**Lan**"), "\\*\\*Lan\\*\\*");
        assert_eq!(cell("_em_ [x](y) <b>"), "\\_em\\_ \\[x\\](y) \\<b\\>");
        assert_eq!(cell("a|b"), "a\\|b");
    }
}

#[cfg(test)]
mod contents_tests {
    use super::{Anchors, with_contents};

    #[test]
    fn anchors_are_githubs_and_count_repeats() {
        let mut anchors = Anchors::default();
        assert_eq!(anchors.next("mnk-3x3k3 (9 cells)"), "mnk-3x3k3-9-cells");
        assert_eq!(anchors.next("Standings"), "standings");
        assert_eq!(
            anchors.next("oanquan (2, 3, 4 players)"),
            "oanquan-2-3-4-players"
        );
        assert_eq!(anchors.next("Standings"), "standings-1");
        assert_eq!(anchors.next("Head to head"), "head-to-head");
        assert_eq!(anchors.next("Standings"), "standings-2");
    }

    #[test]
    fn the_contents_link_every_section_after_the_intro() {
        let body = "# Arena report\n\nIntro.\n\n## a (9 cells)\n\n### Standings\n\nx\n\n\
                    ### Pairs\n\n## b\n\n### Standings\n\n## Method\n\ntext\n";
        let page = with_contents(body);
        let contents = "## Contents\n\n\
             - [a (9 cells)](#a-9-cells): [standings](#standings) · [pairs](#pairs)\n\
             - [b](#b): [standings](#standings-1)\n\
             - [Method](#method)\n\n## a (9 cells)";
        assert!(page.starts_with("# Arena report\n\nIntro.\n\n"), "{page}");
        assert!(page.contains(contents), "{page}");
        assert!(page.ends_with("## Method\n\ntext\n"), "{page}");
    }
}
