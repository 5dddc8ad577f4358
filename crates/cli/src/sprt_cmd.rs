//! `arena sprt`: is the candidate stronger than the baseline? Game pairs until a sequential
//! probability ratio test decides.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use arena::sprt::{MatchOptions, MatchSettings, PairCount, run_match};
use report::sprt::{Decision, EloModel, PentanomialElo, Sprt};

/// Arguments of `arena sprt`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Examples:
  arena sprt mnk-9x9k5 --candidate mcts:iterations=2000 --baseline mcts:iterations=1000
  arena sprt caro --candidate alphabeta:depth=4 --baseline alphabeta:depth=3 --elo0 0 --elo1 5 --out results/ab4-vs-ab3
  arena sprt gomoku --candidate threat:nodes=20000 --baseline 'proc:cmd=old/arena,args=serve-agent --agent threat:nodes=20000' --openings experiments/openings/gomoku-wide.txt --elo1 5

Plays game pairs (the same random opening twice, colours swapped; seeds as `arena run` gives
them) until the log-likelihood ratio of H1 (elo1) against H0 (elo0) leaves the bounds
ln(beta/(1-alpha)) and ln((1-beta)/alpha). Killed, it resumes from the CSV; the folder ends with
the same games.csv and report as `arena run`.")]
pub struct SprtArgs {
    /// The variant, like `mnk-9x9k5` or `gomoku`.
    #[arg(value_name = "VARIANT")]
    pub variant: String,

    /// The agent under test, an agent spec like `mcts:iterations=2000`.
    #[arg(long, value_name = "SPEC")]
    pub candidate: String,

    /// The agent it is measured against.
    #[arg(long, value_name = "SPEC")]
    pub baseline: String,

    /// H0: the candidate is this much stronger (Elo).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub elo0: f64,

    /// H1: the candidate is this much stronger (Elo).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 10.0,
        allow_hyphen_values = true
    )]
    pub elo1: f64,

    /// The chance of accepting H1 when H0 holds.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub alpha: f64,

    /// The chance of accepting H0 when H1 holds.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    pub beta: f64,

    /// The Elo of elo0 and elo1: `logistic` or `normalized`.
    #[arg(long, value_name = "MODEL", default_value = "logistic", value_parser = parse_model)]
    pub model: EloModel,

    /// The sandbox of outside agents: off, best-effort or required (docs/src/guide/sandbox.md).
    #[arg(long, value_name = "MODE", default_value = "best-effort", value_parser = protocol::sandbox::Mode::parse_option)]
    pub sandbox: protocol::sandbox::Mode,

    /// The seed every game's seed derives from.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Random plies before the agents play, the same for both games of a pair [default: 2,
    /// none with --openings].
    #[arg(long, value_name = "N")]
    pub opening_plies: Option<u32>,

    /// An opening suite instead of random plies: pair `m` starts from its line `m` modulo
    /// the number of lines (a file as experiments' `openings`, with a section for the variant).
    #[arg(long, value_name = "FILE", conflicts_with = "opening_plies")]
    pub openings: Option<PathBuf>,

    /// A game clock, as cutechess writes it: `40/60+0.6` (60 s for 40 moves, 0.6 s added
    /// after each move), `60+0.6`, `180`.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,

    /// A time per move in seconds (cutechess's `st`), alone or with `--tc`.
    #[arg(long, value_name = "SECONDS")]
    pub st: Option<String>,

    /// Stop without a decision after this many pairs.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub max_pairs: u32,

    /// The output folder [default: results/sprt].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Worker threads, 1 to 256 [default: as `arena run`].
    #[arg(long, value_name = "N", value_parser = arena::run::parse_threads)]
    pub threads: Option<usize>,

    /// Start over: move the old games aside (never deleting them).
    #[arg(long)]
    pub fresh: bool,

    /// Do not write the report at the end.
    #[arg(long)]
    pub no_report: bool,
}

/// `--tc` and `--st` as one time control, each read as `arena play` and experiments read it.
fn time_control(
    tc: Option<&str>,
    st: Option<&str>,
) -> anyhow::Result<Option<agents::clock::TimeControl>> {
    if tc.is_none() && st.is_none() {
        return Ok(None);
    }
    let clock = tc
        .filter(|text| text.trim() != "inf")
        .map(|text| {
            agents::clock::GameClock::parse_tc(text)
                .with_context(|| format!("--tc {text}: expected a game clock like 40/60+0.6"))
        })
        .transpose()?;
    let per_move = st
        .map(|text| {
            agents::clock::TimeControl::parse_st(text.trim())
                .with_context(|| format!("--st {text}: expected seconds a move, like 1"))
        })
        .transpose()?;
    Ok(Some(agents::clock::TimeControl { per_move, clock }))
}

fn parse_model(text: &str) -> Result<EloModel, String> {
    match text {
        "logistic" => Ok(EloModel::Logistic),
        "normalized" => Ok(EloModel::Normalized),
        _ => Err(format!(
            "`{text}` is not an Elo model: use logistic or normalized"
        )),
    }
}

/// The test's settings as kept next to the games, so a resume continues the same test.
fn test_text(test: &Sprt) -> String {
    format!(
        "# Written by arena sprt: the test these games belong to.\nelo0 = {}\nelo1 = {}\n\
         alpha = {}\nbeta = {}\nmodel = \"{}\"\n",
        test.elo0, test.elo1, test.alpha, test.beta, test.model
    )
}

/// A line of progress: pairs, LLR and bounds, pentanomial counts, Elo estimates.
fn status(test: &Sprt, count: &PairCount) -> String {
    let llr = test.llr(&count.pentanomial);
    let mut line = format!(
        "pairs {:>5} ({} games)  LLR {:+.2} in ({:.2}, {:.2})  LL-LD-DD/WL-WD-WW {}",
        count.pairs,
        2 * count.pairs,
        llr,
        test.lower_bound(),
        test.upper_bound(),
        count
            .pentanomial
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("-"),
    );
    if let Some(elo) = PentanomialElo::new(&count.pentanomial) {
        match (elo.elo, elo.elo_error) {
            (Some(e), Some(m)) => {
                let _ = write!(line, "  Elo {e:+.1} ± {m:.1}");
            }
            (Some(e), None) => {
                let _ = write!(line, "  Elo {e:+.1}");
            }
            _ => {}
        }
        if let (Some(n), Some(m)) = (elo.nelo, elo.nelo_error) {
            let _ = write!(line, "  nElo {n:+.1} ± {m:.1}");
        }
        let _ = write!(line, "  LOS {:.1}%", 100.0 * elo.los);
    }
    line
}

fn minutes(wall: Duration) -> String {
    let seconds = wall.as_secs();
    format!("{}m{:02}s", seconds / 60, seconds % 60)
}

/// Runs the test and prints it as it goes.
pub fn sprt(args: SprtArgs) -> anyhow::Result<()> {
    let variant: rules::Variant = args
        .variant
        .parse()
        .with_context(|| format!("`{}` is not a variant", args.variant))?;
    let spec = |flag: &str, text: &str| -> anyhow::Result<agents::AgentSpec> {
        let spec: agents::AgentSpec = text.parse().with_context(|| format!("--{flag} `{text}`"))?;
        // The registry's check: every kind, outside agents (`proc`, `engine`) included.
        protocol::check(&spec, &variant).with_context(|| format!("--{flag} `{text}`"))?;
        Ok(spec)
    };
    let candidate = spec("candidate", &args.candidate)?;
    let baseline = spec("baseline", &args.baseline)?;
    let test = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, args.model)?;
    if args.max_pairs == 0 {
        bail!("--max-pairs must be at least 1");
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join("sprt"));
    let settings = MatchSettings {
        name: "sprt".to_owned(),
        variant,
        candidate,
        baseline,
        seed: args.seed,
        opening_plies: args
            .opening_plies
            .unwrap_or(if args.openings.is_some() { 0 } else { 2 }),
        openings: args.openings.clone(),
        max_pairs: args.max_pairs,
        sandbox: args.sandbox,
        time_control: time_control(args.tc.as_deref(), args.st.as_deref())?,
    };

    println!(
        "sprt on {}: candidate `{}` against baseline `{}`",
        settings.variant, settings.candidate, settings.baseline
    );
    println!(
        "  H0: elo = {}, H1: elo = {} ({} Elo), alpha = {}, beta = {}; accept H0 at LLR <= {:.3}, \
         H1 at LLR >= {:.3}",
        test.elo0,
        test.elo1,
        test.model,
        test.alpha,
        test.beta,
        test.lower_bound(),
        test.upper_bound()
    );
    let started = Instant::now();
    let mut last_print = Instant::now();
    let mut last: Option<PairCount> = None;
    let summary = run_match(
        &settings,
        &MatchOptions {
            out_dir: out.clone(),
            threads: args.threads,
            fresh: args.fresh,
            test: Some(test_text(&test)),
        },
        |count| {
            let decision = if count.pairs == 0 {
                Decision::Continue
            } else {
                test.decide(test.llr(&count.pentanomial))
            };
            let now = Instant::now();
            if count.resumed && count.pairs > 0 {
                println!("  resumed: {}", status(&test, count));
                last_print = now;
            } else if decision != Decision::Continue
                || now.duration_since(last_print) >= Duration::from_secs(2)
            {
                println!("  {}", status(&test, count));
                last_print = now;
            }
            last = Some(*count);
            decision != Decision::Continue
        },
    )?;
    if let Some(aside) = &summary.moved_aside {
        println!("  (the old games were moved to {})", aside.display());
    }
    let count = last.unwrap_or(summary.count);
    let llr = test.llr(&count.pentanomial);
    let elapsed = minutes(started.elapsed());
    let games = 2 * count.pairs;
    let estimate = PentanomialElo::new(&count.pentanomial)
        .and_then(|e| e.elo.zip(e.elo_error))
        .map_or_else(String::new, |(e, m)| {
            format!(
                "; Elo {e:+.1} ± {m:.1} (not corrected for the early stop, which tends to \
                 overstate it)"
            )
        });
    match test.decide(llr) {
        Decision::AcceptH1 if count.pairs > 0 => println!(
            "H1 accepted after {} ({games} games; {} played now in {elapsed} on {} \
             threads): the candidate is stronger (LLR {llr:+.3}){estimate}",
            crate::plural(count.pairs, "pair"),
            summary.played,
            summary.threads
        ),
        Decision::AcceptH0 if count.pairs > 0 => println!(
            "H0 accepted after {} ({games} games; {} played now in {elapsed} on {} \
             threads): the candidate is not {} Elo stronger (LLR {llr:+.3}){estimate}",
            crate::plural(count.pairs, "pair"),
            summary.played,
            summary.threads,
            test.elo1
        ),
        _ => println!(
            "no decision after {} ({games} games; the --max-pairs limit): LLR {llr:+.3}{estimate}",
            crate::plural(count.pairs, "pair")
        ),
    }
    println!("games in {}", summary.csv.display());
    if !args.no_report {
        println!();
        crate::report_cmd::run(crate::report_cmd::ReportArgs {
            csv: vec![summary.csv.clone()],
            out: Some(out),
            anchor: None,
            intervals: report::Intervals::Profile,
            bootstrap: 1000,
            seed: 1,
            drop_duplicates: false,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_parse() {
        assert_eq!(parse_model("logistic"), Ok(EloModel::Logistic));
        assert_eq!(parse_model("normalized"), Ok(EloModel::Normalized));
        assert!(parse_model("bayes").is_err());
    }
}
