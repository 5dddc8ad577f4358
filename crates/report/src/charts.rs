//! The charts, each drawn once for SVG and once for PNG.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::budget::{self, Family};
use crate::error::{Error, Result};
use crate::games::{ALL_POOL, Tally, board_cells};
use crate::tables::signed;
use crate::{Options, PoolRatings, Summary};

/// Width and height of every chart in pixels (the PNG size; the SVG uses the same units).
pub const CHART_SIZE: (u32, u32) = (1024, 640);

/// Times below this many milliseconds are drawn at it, since a log axis has no 0.
pub(crate) const TIME_FLOOR_MS: f64 = 1e-3;

const FONT: &str = "sans-serif";

/// Tableau 10: distinct hues that stay apart for colour-blind readers.
const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
];

/// The charts written, by what they show, as file stems (`elo-mnk-3x3k3`).
#[derive(Debug, Default)]
pub(crate) struct ChartFiles {
    dir: PathBuf,
    /// Elo chart per pool.
    pub elo: BTreeMap<String, String>,
    /// Head-to-head heatmap per pool.
    pub head_to_head: BTreeMap<String, String>,
    /// Time per move against board size.
    pub time: Option<String>,
    /// Elo against budget per variant.
    pub budget: BTreeMap<String, String>,
    /// Families charted per variant.
    pub families: BTreeMap<String, Vec<Family>>,
    /// Variants left out of the time chart because their board size is unknown.
    pub unsized_variants: Vec<String>,
    /// Whether some time was below [`TIME_FLOOR_MS`] and drawn at the floor.
    pub time_floored: bool,
}

impl ChartFiles {
    /// Every file written, SVG and PNG.
    pub fn files(&self) -> Vec<PathBuf> {
        self.elo
            .values()
            .chain(self.head_to_head.values())
            .chain(self.time.iter())
            .chain(self.budget.values())
            .flat_map(|stem| {
                ["svg", "png"].map(|extension| self.dir.join(format!("{stem}.{extension}")))
            })
            .collect()
    }
}

/// A file-name-safe form of a pool or variant name.
fn file_stem(prefix: &str, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{prefix}-{safe}")
}

/// Draws every chart into `dir`.
pub(crate) fn draw_all(
    dir: &Path,
    tally: &Tally,
    summary: &Summary,
    options: &Options,
) -> Result<ChartFiles> {
    register_fonts(dir)?;
    let mut files = ChartFiles {
        dir: dir.to_path_buf(),
        ..ChartFiles::default()
    };
    let several_variants = tally.variants.len() > 1;
    for pool in &summary.pools {
        if pool.pool == ALL_POOL && !several_variants {
            continue;
        }
        let stem = file_stem("elo", &pool.pool);
        render(dir, &stem, &EloChart::new(pool, options))?;
        files.elo.insert(pool.pool.clone(), stem);
        let stem = file_stem("head-to-head", &pool.pool);
        render(dir, &stem, &HeatMap::new(pool))?;
        files.head_to_head.insert(pool.pool.clone(), stem);
    }

    let time = TimeChart::new(tally);
    files.unsized_variants = time.unsized_variants.clone();
    files.time_floored = time.floored;
    if !time.series.is_empty() {
        let stem = "time-per-move".to_owned();
        render(dir, &stem, &time)?;
        files.time = Some(stem);
    }

    for (variant, games) in &tally.variants {
        let Some(pool) = summary.pool(variant) else {
            continue;
        };
        let specs = games.agents.keys().filter_map(|agent| {
            let specs = tally.specs.get(agent)?;
            // An agent name used with two different specs has no single budget.
            (specs.len() == 1)
                .then(|| specs.first().map(|spec| (agent.as_str(), spec.as_str())))
                .flatten()
        });
        let families = budget::families(specs);
        if families.is_empty() {
            continue;
        }
        let stem = file_stem("elo-vs-budget", variant);
        render(dir, &stem, &BudgetChart::new(pool, &families, options))?;
        files.budget.insert(variant.clone(), stem);
        files.families.insert(variant.clone(), families);
    }
    Ok(files)
}

fn register_fonts(dir: &Path) -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
            && plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold()).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(Error::Chart {
            path: dir.to_path_buf(),
            message: "the built-in DejaVu Sans font could not be loaded".to_owned(),
        })
    }
}

type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A chart that can be drawn on any plotters backend.
trait Chart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

fn render(dir: &Path, stem: &str, chart: &impl Chart) -> Result<()> {
    let failed = |path: &Path, message: String| Error::Chart {
        path: path.to_path_buf(),
        message,
    };
    let svg = dir.join(format!("{stem}.svg"));
    {
        let root = SVGBackend::new(&svg, CHART_SIZE).into_drawing_area();
        chart
            .draw(&root)
            .and_then(|()| root.present())
            .map_err(|e| failed(&svg, e.to_string()))?;
    }
    let png = dir.join(format!("{stem}.png"));
    let root = BitMapBackend::new(&png, CHART_SIZE).into_drawing_area();
    chart
        .draw(&root)
        .and_then(|()| root.present())
        .map_err(|e| failed(&png, e.to_string()))
}

fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Normal)
}

fn bold(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Bold)
}

/// Width in pixels of the widest text at `size`, for sizing label areas.
fn text_width<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    texts: impl Iterator<Item = String>,
    size: f64,
) -> u32 {
    let style = TextStyle::from(font(size));
    texts
        .map(|t| root.estimate_text_size(&t, &style).map_or(0, |(w, _)| w))
        .max()
        .unwrap_or(0)
}

/// Numbers on log axes: `0.001`, `0.5`, `20`, `5000`, `1e6`.
fn axis_number(v: f64) -> String {
    if v >= 1e5 || (v > 0.0 && v < 1e-3) {
        format!("{v:.0e}")
    } else if v >= 1.0 {
        format!("{}", v.round())
    } else {
        let text = format!("{v:.3}");
        text.trim_end_matches('0').to_owned()
    }
}

fn elo_axis_label(options: &Options, pool: &PoolRatings) -> String {
    match &pool.anchor {
        Some((agent, elo)) => format!("Elo ({agent} fixed at {elo})"),
        None if options.anchor.is_some() => "Elo (mean 0; the anchor did not play here)".into(),
        None => "Elo (mean of the pool = 0)".to_owned(),
    }
}

/// The index of a category axis tick: ticks fall on whole numbers `0..n`, anything else
/// (plotters may offer in-between values) gets no label.
fn row_label(value: f64, n: usize) -> Option<usize> {
    let k = value.round();
    ((value - k).abs() < 1e-6 && k >= 0.0 && k < n as f64).then_some(k as usize)
}

/// A legend in its own panel beside the plot, so it never hides data.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[(String, RGBColor, usize)],
) -> DrawResult<DB> {
    let (_, height) = area.dim_in_pixel();
    let size = if entries.len() > 20 { 13.0 } else { 16.0 };
    let line = (size * 1.5) as i32;
    let top = 70;
    area.draw(&Text::new(title.to_owned(), (10, top - line), bold(size)))?;
    for (k, (label, color, marker)) in entries.iter().enumerate() {
        let y = top + k as i32 * line;
        if y + line > height as i32 {
            area.draw(&Text::new(
                format!("… and {} more", entries.len() - k),
                (10, y),
                font(size),
            ))?;
            break;
        }
        let center = (28, y + line / 3);
        area.draw(&PathElement::new(
            vec![(10, center.1), (46, center.1)],
            color.stroke_width(2),
        ))?;
        draw_marker(area, center, *color, *marker)?;
        area.draw(&Text::new(label.clone(), (54, y), font(size)))?;
    }
    Ok(())
}

/// A marker shape per series beyond the ten colours, so series 1 and 11 still differ.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    center: (i32, i32),
    color: RGBColor,
    marker: usize,
) -> DrawResult<DB> {
    match marker % 3 {
        0 => area.draw(&Circle::new(center, 5, color.filled())),
        1 => area.draw(&TriangleMarker::new(center, 7, color.filled())),
        _ => area.draw(&Rectangle::new(
            [(center.0 - 5, center.1 - 5), (center.0 + 5, center.1 + 5)],
            color.filled(),
        )),
    }
}

/// A legend entry (name, colour, marker) per series, and `root` split into the plot and a
/// legend panel on its right as wide as the longest name needs, within `widths` (min, max).
#[allow(clippy::type_complexity)]
fn with_legend<'a, DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: impl Iterator<Item = &'a String>,
    (min, max): (u32, u32),
) -> (
    Vec<(String, RGBColor, usize)>,
    DrawingArea<DB, Shift>,
    DrawingArea<DB, Shift>,
) {
    let entries: Vec<(String, RGBColor, usize)> = names
        .enumerate()
        .map(|(k, name)| {
            let (color, marker) = series_style(k);
            (name.clone(), color, marker)
        })
        .collect();
    let width = text_width(root, entries.iter().map(|e| e.0.clone()), 16.0) + 80;
    let (plot, legend) = root.split_horizontally(CHART_SIZE.0 - width.clamp(min, max));
    (entries, plot, legend)
}

fn series_style(k: usize) -> (RGBColor, usize) {
    (PALETTE[k % PALETTE.len()], k / PALETTE.len())
}

/// One agent in the Elo chart: label, Elo, 95% interval.
type EloRow = (String, f64, Option<(f64, f64)>);

/// Elo with 95% error bars, one row per agent, best at the top.
struct EloChart {
    title: String,
    x_label: String,
    /// Best first.
    rows: Vec<EloRow>,
    centre: f64,
}

impl EloChart {
    fn new(pool: &PoolRatings, options: &Options) -> Self {
        let rows = pool
            .standings
            .iter()
            .map(|s| {
                let mark = if s.has_perfect_score() { " †" } else { "" };
                (format!("{}{mark}", s.agent), s.elo, s.interval)
            })
            .collect();
        let pool_name = if pool.pool == ALL_POOL {
            "all variants".to_owned()
        } else {
            pool.pool.clone()
        };
        let mut title = format!("Elo with 95% interval: {pool_name}");
        if pool.prior_used {
            title.push_str(" (weak prior)");
        }
        let mut x_label = elo_axis_label(options, pool);
        if pool.standings.iter().any(|s| s.has_perfect_score()) {
            x_label.push_str("; † won or lost every game: rating set by the weak prior");
        }
        Self {
            title,
            x_label,
            rows,
            centre: pool.anchor.as_ref().map_or(0.0, |(_, elo)| *elo),
        }
    }
}

impl Chart for EloChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.rows.len().max(1);
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for (_, elo, interval) in &self.rows {
            let (a, b) = interval.unwrap_or((*elo, *elo));
            low = low.min(a.min(*elo));
            high = high.max(b.max(*elo));
        }
        if !low.is_finite() {
            (low, high) = (-100.0, 100.0);
        }
        if high - low < 100.0 {
            // Equal ratings still get a readable ±50 Elo axis around them.
            let middle = (high + low) / 2.0;
            (low, high) = (middle - 50.0, middle + 50.0);
        }
        let span = high - low;
        let value_text = |elo: f64, interval: Option<(f64, f64)>| match interval {
            Some((a, b)) => format!("{} [{}, {}]", signed(elo), signed(a), signed(b)),
            None => signed(elo),
        };
        let label_size = if n > 24 { 12.0 } else { 16.0 };
        let value_width = text_width(
            root,
            self.rows.iter().map(|(_, e, i)| value_text(*e, *i)),
            label_size - 2.0,
        );
        let name_width = text_width(root, self.rows.iter().map(|r| r.0.clone()), label_size);
        // Leave room right of the highest bar for its value text.
        let plot_width = (CHART_SIZE.0 as f64 - name_width as f64 - 80.0).max(200.0);
        let right_room = (value_width as f64 + 36.0) / plot_width;
        let right_pad = span * (right_room / (1.0 - right_room).max(0.2)).min(3.0);
        let x_range = (low - 0.05 * span)..(high + right_pad);
        // Row k (0 = best) sits at y = n - 1 - k, so the best is at the top.
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, bold(24.0))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(name_width + 20)
            .build_cartesian_2d(x_range, -0.5..n as f64 - 0.5)?;
        let label = |y: &f64| {
            row_label(*y, n)
                .and_then(|k| self.rows.get(n - 1 - k))
                .map_or(String::new(), |r| r.0.clone())
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|v| signed(*v).replace(".0", ""))
            .x_desc(self.x_label.as_str())
            .label_style(font(label_size))
            .axis_desc_style(font(18.0))
            .light_line_style(RGBColor(242, 242, 242))
            .max_light_lines(4)
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(self.centre, -0.5), (self.centre, n as f64 - 0.5)],
            RGBColor(150, 150, 150).stroke_width(1),
        )))?;
        for (k, (_, elo, interval)) in self.rows.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            let color = PALETTE[0];
            let (a, b) = interval.unwrap_or((*elo, *elo));
            chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
                y,
                a,
                *elo,
                b,
                color.filled().stroke_width(2),
                12,
            )))?;
            chart.draw_series(std::iter::once(
                EmptyElement::at((b, y))
                    + Text::new(
                        value_text(*elo, *interval),
                        (10, 0),
                        TextStyle::from(font(label_size - 2.0))
                            .pos(Pos::new(HPos::Left, VPos::Center)),
                    ),
            ))?;
        }
        Ok(())
    }
}

/// Score % of each row agent against each column agent.
struct HeatMap {
    title: String,
    agents: Vec<String>,
    /// `score[row][column]` in 0..=1, `None` when the two never met.
    score: Vec<Vec<Option<f64>>>,
}

impl HeatMap {
    fn new(pool: &PoolRatings) -> Self {
        let agents: Vec<String> = pool.standings.iter().map(|s| s.agent.clone()).collect();
        let score = agents
            .iter()
            .map(|row| {
                agents
                    .iter()
                    .map(|column| {
                        if row == column {
                            return None;
                        }
                        pool.head_to_head(row, column).and_then(|m| m.score())
                    })
                    .collect()
            })
            .collect();
        let pool_name = if pool.pool == ALL_POOL {
            "all variants".to_owned()
        } else {
            pool.pool.clone()
        };
        Self {
            title: format!("Head to head, score % of row against column: {pool_name}"),
            agents,
            score,
        }
    }
}

/// Red (0%) through light grey (50%) to blue (100%).
fn score_colour(score: f64) -> RGBColor {
    let mix = |a: RGBColor, b: RGBColor, t: f64| {
        let channel = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
        RGBColor(channel(a.0, b.0), channel(a.1, b.1), channel(a.2, b.2))
    };
    let (red, middle, blue) = (
        RGBColor(202, 0, 32),
        RGBColor(247, 247, 247),
        RGBColor(5, 113, 176),
    );
    if score < 0.5 {
        mix(red, middle, score / 0.5)
    } else {
        mix(middle, blue, (score - 0.5) / 0.5)
    }
}

impl Chart for HeatMap {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.agents.len().max(1);
        let label_size = if n > 16 { 12.0 } else { 15.0 };
        let full_width = text_width(root, self.agents.iter().cloned(), label_size);
        // Rank numbers stand for the column names when the names would not fit across their
        // columns; the rows then carry the numbers too.
        let numbered =
            full_width as f64 + 10.0 > (CHART_SIZE.0 as f64 - full_width as f64) / n as f64;
        let row_names: Vec<String> = self
            .agents
            .iter()
            .enumerate()
            .map(|(k, name)| {
                if numbered {
                    format!("{}. {name}", k + 1)
                } else {
                    name.clone()
                }
            })
            .collect();
        let column_names: Vec<String> = if numbered {
            (1..=n).map(|k| k.to_string()).collect()
        } else {
            self.agents.clone()
        };
        let name_width = text_width(root, row_names.iter().cloned(), label_size);
        // Cell (row r, column c) is centred on (c, n - 1 - r): row 0 at the top.
        let size = n as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, bold(22.0))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(-0.5..size - 0.5, -0.5..size - 0.5)?;
        let x_label = |x: &f64| {
            row_label(*x, n)
                .and_then(|k| column_names.get(k))
                .map_or(String::new(), Clone::clone)
        };
        let y_label = |y: &f64| {
            row_label(*y, n)
                .and_then(|k| row_names.get(n - 1 - k))
                .map_or(String::new(), Clone::clone)
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(n)
            .y_labels(n)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .label_style(font(label_size))
            .x_desc(if numbered {
                "opponent (column, numbered as the rows)"
            } else {
                "opponent (column)"
            })
            .y_desc("agent (row)")
            .axis_desc_style(font(16.0))
            .draw()?;
        let (width, height) = chart.plotting_area().dim_in_pixel();
        let cell = (width as f64 / n as f64).min(height as f64 / n as f64);
        let number_size = (cell * 0.4).clamp(9.0, 20.0);
        for (r, row) in self.score.iter().enumerate() {
            let y = size - 1.0 - r as f64;
            for (c, score) in row.iter().enumerate() {
                let x = c as f64;
                let cell = [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)];
                let (fill, text, ink) = match score {
                    Some(s) => {
                        let dark = (s - 0.5).abs() > 0.3;
                        let ink = if dark { WHITE } else { BLACK };
                        (score_colour(*s), format!("{:.0}%", 100.0 * s), ink)
                    }
                    None if r == c => (RGBColor(210, 210, 210), String::new(), BLACK),
                    None => (RGBColor(250, 250, 250), "–".to_owned(), BLACK),
                };
                chart.draw_series(std::iter::once(Rectangle::new(cell, fill.filled())))?;
                chart.draw_series(std::iter::once(Rectangle::new(cell, WHITE.stroke_width(1))))?;
                if !text.is_empty() {
                    chart.draw_series(std::iter::once(Text::new(
                        text,
                        (x, y),
                        font(number_size)
                            .color(&ink)
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    )))?;
                }
            }
        }
        Ok(())
    }
}

/// Mean time per move against board size, one series per agent, log-log.
struct TimeChart {
    /// Agent, then `(cells, mean ms per move)` by board size.
    series: Vec<(String, Vec<(f64, f64)>)>,
    unsized_variants: Vec<String>,
    floored: bool,
}

impl TimeChart {
    fn new(tally: &Tally) -> Self {
        let mut by_agent: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
        let mut unsized_variants = Vec::new();
        let mut floored = false;
        for (variant, games) in &tally.variants {
            let Some(cells) = board_cells(variant) else {
                unsized_variants.push(variant.clone());
                continue;
            };
            for (agent, time) in &games.agents {
                if time.moves == 0 {
                    continue;
                }
                let mean_ms = time.thinking_ns as f64 / 1e6 / time.moves as f64;
                floored |= mean_ms < TIME_FLOOR_MS;
                by_agent
                    .entry(agent)
                    .or_default()
                    .push((cells as f64, mean_ms.max(TIME_FLOOR_MS)));
            }
        }
        let mut series: Vec<(String, Vec<(f64, f64)>)> = by_agent
            .into_iter()
            .map(|(agent, mut points)| {
                points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                (agent.to_owned(), points)
            })
            .collect();
        // Slowest first, so the legend reads in the order the lines stack up.
        let typical = |points: &[(f64, f64)]| {
            points.iter().map(|p| p.1.ln()).sum::<f64>() / points.len().max(1) as f64
        };
        series.sort_by(|a, b| typical(&b.1).total_cmp(&typical(&a.1)).then(a.0.cmp(&b.0)));
        Self {
            series,
            unsized_variants,
            floored,
        }
    }
}

/// The different values, ascending: tick positions for a log axis.
fn distinct(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
}

/// A log-axis range around the data with some room on both sides.
fn log_range(values: impl Iterator<Item = f64>, floor: f64) -> std::ops::Range<f64> {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        low = low.min(v);
        high = high.max(v);
    }
    if !low.is_finite() {
        return 1.0..10.0;
    }
    let low = low.max(floor);
    let high = high.max(low);
    // At least a factor 10 of range, so a single value still gets a readable axis.
    let spread = (high / low).max(10.0).sqrt().sqrt();
    (low / spread)..(high.max(low * spread * spread) * spread)
}

impl Chart for TimeChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (entries, plot, legend) = with_legend(
            root,
            self.series.iter().map(|(name, _)| name),
            (140, CHART_SIZE.0 / 3),
        );
        let points = || self.series.iter().flat_map(|(_, points)| points.iter());
        let x_range = log_range(points().map(|p| p.0), 1.0);
        let y_range = log_range(points().map(|p| p.1), TIME_FLOOR_MS);
        // Ticks at the board sizes played say more than powers of ten.
        let sizes = distinct(points().map(|p| p.0));
        let mut chart = ChartBuilder::on(&plot)
            .caption("Mean time per move against board size", bold(24.0))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(
                x_range.log_scale().with_key_points(sizes),
                y_range.log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_desc("board size (cells, log scale)")
            .y_desc("mean time per move (ms, log scale)")
            .x_label_formatter(&|v| axis_number(*v))
            .y_label_formatter(&|v| axis_number(*v))
            .label_style(font(15.0))
            .axis_desc_style(font(18.0))
            .light_line_style(RGBColor(242, 242, 242))
            .max_light_lines(4)
            .draw()?;
        for (k, (_, points)) in self.series.iter().enumerate() {
            let (color, marker) = series_style(k);
            chart.draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))?;
            for &point in points {
                let center = chart.backend_coord(&point);
                draw_marker(root, center, color, marker)?;
            }
        }
        draw_legend(&legend, "agent", &entries)
    }
}

/// One agent of a family: budget, Elo, interval, name.
type BudgetPoint = (f64, f64, Option<(f64, f64)>, String);

/// Elo against compute budget, one series per agent family, with 95% error bars.
struct BudgetChart {
    title: String,
    y_label: String,
    /// Legend text, then `(budget, elo, interval, agent)` by budget.
    series: Vec<(String, Vec<BudgetPoint>)>,
}

impl BudgetChart {
    fn new(pool: &PoolRatings, families: &[Family], options: &Options) -> Self {
        let series = families
            .iter()
            .map(|family| {
                let points = family
                    .members
                    .iter()
                    .filter_map(|(budget, agent)| {
                        let s = pool.standing(agent)?;
                        Some((*budget, s.elo, s.interval, agent.clone()))
                    })
                    .collect();
                (family.legend(), points)
            })
            .collect();
        Self {
            title: format!("Elo against compute budget: {}", pool.pool),
            y_label: elo_axis_label(options, pool),
            series,
        }
    }
}

impl Chart for BudgetChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let (entries, plot, legend) = with_legend(
            root,
            self.series.iter().map(|(name, _)| name),
            (160, CHART_SIZE.0 / 2),
        );
        let points = || self.series.iter().flat_map(|(_, points)| points.iter());
        let x_range = log_range(points().map(|p| p.0), 1e-9);
        let budgets = distinct(points().map(|p| p.0));
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for (_, elo, interval, _) in points() {
            let (a, b) = interval.unwrap_or((*elo, *elo));
            low = low.min(a.min(*elo));
            high = high.max(b.max(*elo));
        }
        if !low.is_finite() {
            (low, high) = (-100.0, 100.0);
        }
        let pad = (high - low).max(100.0) * 0.08;
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, bold(24.0))
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(
                x_range.log_scale().with_key_points(budgets),
                (low - pad)..(high + pad),
            )?;
        chart
            .configure_mesh()
            .x_desc("compute budget (value of the budget parameter in the legend, log scale)")
            .y_desc(self.y_label.as_str())
            .x_label_formatter(&|v| axis_number(*v))
            .y_label_formatter(&|v| signed(*v).replace(".0", ""))
            .label_style(font(15.0))
            .axis_desc_style(font(16.0))
            .light_line_style(RGBColor(242, 242, 242))
            .max_light_lines(4)
            .draw()?;
        for (k, (_, points)) in self.series.iter().enumerate() {
            let (color, marker) = series_style(k);
            chart.draw_series(LineSeries::new(
                points.iter().map(|p| (p.0, p.1)),
                color.stroke_width(2),
            ))?;
            for (budget, elo, interval, agent) in points {
                let (budget, elo) = (*budget, *elo);
                let (a, b) = interval.unwrap_or((elo, elo));
                chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                    budget,
                    a,
                    elo,
                    b,
                    color.stroke_width(2),
                    10,
                )))?;
                let center = chart.backend_coord(&(budget, elo));
                draw_marker(root, center, color, marker)?;
                root.draw(&Text::new(
                    agent.clone(),
                    (center.0 + 9, center.1 - 2),
                    TextStyle::from(font(13.0)).pos(Pos::new(HPos::Left, VPos::Bottom)),
                ))?;
            }
        }
        draw_legend(&legend, "agent family (budget)", &entries)
    }
}
