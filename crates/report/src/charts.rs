//! The charts, each drawn once for SVG and once for PNG.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::budget::{self, Family};
use crate::elo::Interval;
use crate::error::{Error, Result};
use crate::games::{ALL_POOL, Tally, board_cells, is_oanquan};
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
    /// Time per move.
    pub time: Option<String>,
    /// Place distribution per variant with N-player games.
    pub places: BTreeMap<String, String>,
    /// Elo against budget per variant.
    pub budget: BTreeMap<String, String>,
    /// Families charted per variant.
    pub families: BTreeMap<String, Vec<Family>>,
    /// Whether the time chart's panel of one column per variant holds a variant other than
    /// O An Quan's (its text then says so).
    pub time_columns_beyond_oanquan: bool,
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
            .chain(self.places.values())
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
    for pool in &summary.pools {
        if pool.pool != ALL_POOL
            && let Some(places) = PlacesChart::new(pool)
        {
            let stem = file_stem("places", &pool.pool);
            render(dir, &stem, &places)?;
            files.places.insert(pool.pool.clone(), stem);
        }
        let stem = file_stem("elo", &pool.pool);
        let consistency = (pool.pool == ALL_POOL)
            .then_some(summary.consistency)
            .flatten();
        render(dir, &stem, &EloChart::new(pool, options, consistency))?;
        files.elo.insert(pool.pool.clone(), stem);
        let stem = file_stem("head-to-head", &pool.pool);
        render(dir, &stem, &HeatMap::new(pool))?;
        files.head_to_head.insert(pool.pool.clone(), stem);
    }

    let time = TimeChart::new(tally);
    files.time_columns_beyond_oanquan = !time.columns.iter().all(|v| is_oanquan(v));
    files.time_floored = time.floored;
    if !time.is_empty() {
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
        Some((agent, elo)) if pool.groups > 1 => {
            format!("Elo ({agent} fixed at {elo}; other groups: mean 0)")
        }
        Some((agent, elo)) => format!("Elo ({agent} fixed at {elo})"),
        None if options.anchor.is_some() => "Elo (mean 0; the anchor did not play here)".into(),
        None if pool.groups > 1 => "Elo (mean of each group = 0)".to_owned(),
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

/// One agent in the Elo chart.
struct EloRow {
    label: String,
    elo: f64,
    interval: Option<Interval>,
    anchor: bool,
    group: usize,
}

/// Elo with 95% error bars, one row per agent, best at the top (by group). An end the games
/// leave open is an arrow; the anchor is a diamond without a bar.
struct EloChart {
    title: String,
    /// A line under the title (the pooled chart's test of one strength per agent).
    subtitle: Option<String>,
    x_label: String,
    /// Best first.
    rows: Vec<EloRow>,
    centre: f64,
    groups: usize,
}

impl EloChart {
    fn new(pool: &PoolRatings, options: &Options, consistency: Option<crate::Consistency>) -> Self {
        let rows = pool
            .standings
            .iter()
            .map(|s| {
                let mark = if s.finite { "" } else { " †" };
                let group = if pool.groups > 1 {
                    format!(" (group {})", s.group)
                } else {
                    String::new()
                };
                EloRow {
                    label: format!("{}{mark}{group}", s.agent),
                    elo: s.elo,
                    interval: s.interval,
                    anchor: s.anchor,
                    group: s.group,
                }
            })
            .collect();
        let pool_name = if pool.pool == ALL_POOL {
            "all variants".to_owned()
        } else {
            pool.pool.clone()
        };
        let title = if pool.intervals_reliable() {
            format!("Elo with 95% interval: {pool_name}")
        } else {
            format!("Elo with bootstrap interval (unreliable: coverage below 95%): {pool_name}")
        };
        let mut x_label = elo_axis_label(options, pool);
        if pool.standings.iter().any(|s| !s.finite) {
            x_label.push_str("; † no finite maximum: tiers placed by the weak prior");
        }
        let subtitle = consistency.map(|test| {
            if test.degrees_of_freedom == 0 {
                return "One strength per agent across variants: not testable on these games (0 df)"
                    .to_string();
            }
            let verdict = if test.p_value < 0.05 {
                "rejected: strengths differ between variants, the pooled rating averages them"
            } else {
                "not rejected"
            };
            let p = if test.p_value < 1e-4 {
                format!("{:.0e}", test.p_value)
            } else {
                format!("{:.4}", test.p_value)
            };
            format!(
                "One strength per agent across variants: χ² = {:.1} on {} df, p = {p}, {verdict}",
                test.statistic, test.degrees_of_freedom
            )
        });
        Self {
            title,
            subtitle,
            x_label,
            rows,
            centre: pool.anchor.as_ref().map_or(0.0, |(_, elo)| *elo),
            groups: pool.groups,
        }
    }
}

/// An interval as text ([`Interval`]'s display), `anchor (fixed)` for the anchor, `—` without
/// an interval.
pub(crate) fn interval_text(interval: Option<Interval>, anchor: bool) -> String {
    if anchor {
        return "anchor (fixed)".to_owned();
    }
    interval.map_or_else(|| "—".to_owned(), |i| i.to_string())
}

/// A filled arrowhead with its tip at `tip`, pointing along `(dx, dy)` (pixels).
fn arrow_head<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    tip: (i32, i32),
    (dx, dy): (f64, f64),
    color: RGBColor,
) -> DrawResult<DB> {
    let length = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / length, dy / length);
    let (size, half) = (12.0, 6.0);
    let base = (tip.0 as f64 - ux * size, tip.1 as f64 - uy * size);
    let corner = |sign: f64| {
        (
            (base.0 - uy * half * sign).round() as i32,
            (base.1 + ux * half * sign).round() as i32,
        )
    };
    area.draw(&Polygon::new(
        vec![tip, corner(1.0), corner(-1.0)],
        color.filled(),
    ))
}

impl Chart for EloChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.rows.len().max(1);
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for row in &self.rows {
            let ends = row
                .interval
                .map_or([None, None], |i| [i.low, i.high])
                .into_iter()
                .flatten();
            for x in ends.chain(std::iter::once(row.elo)) {
                low = low.min(x);
                high = high.max(x);
            }
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
        // An open end is an arrow this long beyond the point or the other end.
        let arrow = 0.12 * span;
        let reach = |row: &EloRow| -> (f64, f64) {
            let (a, b) = match row.interval {
                Some(i) => (
                    i.low.unwrap_or(row.elo - arrow),
                    i.high.unwrap_or(
                        row.interval
                            .and_then(|i| i.low)
                            .unwrap_or(row.elo)
                            .max(row.elo)
                            + arrow,
                    ),
                ),
                None => (row.elo, row.elo),
            };
            (a.min(row.elo), b.max(row.elo))
        };
        for row in &self.rows {
            let (a, b) = reach(row);
            low = low.min(a);
            high = high.max(b);
        }
        let span = high - low;
        let value_text = |row: &EloRow| match (row.anchor, row.interval) {
            (true, _) => format!("{} (anchor)", signed(row.elo)),
            (false, None) => signed(row.elo),
            (false, Some(i)) if !i.is_open() => format!("{} {i}", signed(row.elo)),
            (false, Some(i)) => format!("{} ({i})", signed(row.elo)),
        };
        let label_size = if n > 24 { 12.0 } else { 16.0 };
        let value_width = text_width(root, self.rows.iter().map(value_text), label_size - 2.0);
        let name_width = text_width(root, self.rows.iter().map(|r| r.label.clone()), label_size);
        // Leave room right of the highest bar for its value text.
        let plot_width = (CHART_SIZE.0 as f64 - name_width as f64 - 80.0).max(200.0);
        let right_room = (value_width as f64 + 36.0) / plot_width;
        let right_pad = span * (right_room / (1.0 - right_room).max(0.2)).min(3.0);
        let x_range = (low - 0.05 * span)..(high + right_pad);
        // Row k (0 = best) sits at y = n - 1 - k, so the best is at the top.
        let mut builder = ChartBuilder::on(root);
        if let Some(subtitle) = &self.subtitle {
            let centre = (CHART_SIZE.0 / 2) as i32;
            root.draw(&Text::new(
                self.title.clone(),
                (centre, 16),
                TextStyle::from(bold(24.0)).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
            root.draw(&Text::new(
                subtitle.clone(),
                (centre, 50),
                TextStyle::from(font(15.0)).pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
            builder.margin_top(80);
        } else {
            builder.caption(&self.title, bold(24.0)).margin_top(20);
        }
        let mut chart = builder
            .margin_left(20)
            .margin_right(20)
            .margin_bottom(20)
            .x_label_area_size(60)
            .y_label_area_size(name_width + 20)
            .build_cartesian_2d(x_range, -0.5..n as f64 - 0.5)?;
        let label = |y: &f64| {
            row_label(*y, n)
                .and_then(|k| self.rows.get(n - 1 - k))
                .map_or(String::new(), |r| r.label.clone())
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
        // Groups apart: a dashed line between them (ratings of different groups are not
        // comparable).
        if self.groups > 1 {
            for k in 1..self.rows.len() {
                if self.rows[k].group != self.rows[k - 1].group {
                    let y = (n - k) as f64 - 0.5;
                    let (x0, x1) = (chart.x_range().start, chart.x_range().end);
                    let dashes = 60;
                    chart.draw_series((0..dashes).step_by(2).map(|d| {
                        let a = x0 + (x1 - x0) * d as f64 / dashes as f64;
                        let b = x0 + (x1 - x0) * (d + 1) as f64 / dashes as f64;
                        PathElement::new(vec![(a, y), (b, y)], RGBColor(120, 120, 120))
                    }))?;
                }
            }
        }
        let color = PALETTE[0];
        for (k, row) in self.rows.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            if row.anchor {
                let centre = chart.backend_coord(&(row.elo, y));
                root.draw(&Polygon::new(
                    vec![
                        (centre.0, centre.1 - 8),
                        (centre.0 + 8, centre.1),
                        (centre.0, centre.1 + 8),
                        (centre.0 - 8, centre.1),
                    ],
                    PALETTE[2].filled(),
                ))?;
            } else {
                let (a, b) = reach(row);
                let interval = row.interval;
                let closed_low = interval.and_then(|i| i.low).unwrap_or(row.elo);
                let closed_high = interval.and_then(|i| i.high).unwrap_or(row.elo);
                chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
                    y,
                    closed_low.min(row.elo),
                    row.elo,
                    closed_high.max(row.elo),
                    color.filled().stroke_width(2),
                    12,
                )))?;
                for (open, from, to) in [
                    (
                        interval.is_some_and(|i| i.low.is_none()),
                        closed_low.min(row.elo),
                        a,
                    ),
                    (
                        interval.is_some_and(|i| i.high.is_none()),
                        closed_high.max(row.elo),
                        b,
                    ),
                ] {
                    if !open {
                        continue;
                    }
                    let start = chart.backend_coord(&(from, y));
                    let tip = chart.backend_coord(&(to, y));
                    root.draw(&PathElement::new(vec![start, tip], color.stroke_width(2)))?;
                    arrow_head(root, tip, ((tip.0 - start.0) as f64, 0.0), color)?;
                }
            }
            let (_, b) = reach(row);
            chart.draw_series(std::iter::once(
                EmptyElement::at((b, y))
                    + Text::new(
                        value_text(row),
                        (10, 0),
                        TextStyle::from(font(label_size - 2.0))
                            .pos(Pos::new(HPos::Left, VPos::Center)),
                    ),
            ))?;
        }
        Ok(())
    }
}

/// Score % of each row agent against each column agent: every agent against every other, or
/// in a gauntlet ([`PoolRatings::gauntlet_sides`]) the entrants against the field.
struct HeatMap {
    title: String,
    rows: Vec<String>,
    columns: Vec<String>,
    /// Whether rows and columns are the same agents (the diagonal is an agent against itself).
    square: bool,
    /// `score[row][column]` in 0..=1, `None` when the two never met.
    score: Vec<Vec<Option<f64>>>,
}

impl HeatMap {
    fn new(pool: &PoolRatings) -> Self {
        let pool_name = if pool.pool == ALL_POOL {
            "all variants".to_owned()
        } else {
            pool.pool.clone()
        };
        let (rows, columns, square, title) = match pool.gauntlet_sides() {
            Some((entrants, field)) => (
                entrants.iter().map(|a| a.to_string()).collect(),
                field.iter().map(|a| a.to_string()).collect(),
                false,
                format!("Against the field, score % of entrant (row): {pool_name}"),
            ),
            None => {
                let agents: Vec<String> = pool.standings.iter().map(|s| s.agent.clone()).collect();
                (
                    agents.clone(),
                    agents,
                    true,
                    format!("Head to head, score % of row against column: {pool_name}"),
                )
            }
        };
        let score = rows
            .iter()
            .map(|row| {
                columns
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
        Self {
            title,
            rows,
            columns,
            square,
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
        let n = self.rows.len().max(1);
        let m = self.columns.len().max(1);
        let label_size = if n.max(m) > 16 { 12.0 } else { 15.0 };
        let full_width = text_width(root, self.columns.iter().cloned(), label_size);
        let row_width = text_width(root, self.rows.iter().cloned(), label_size);
        // Rank numbers stand for the column names when the names would not fit across their
        // columns; the rows then carry the numbers too (a square map only: a gauntlet's
        // columns are the field, other agents than its rows).
        let numbered = self.square
            && full_width as f64 + 10.0 > (CHART_SIZE.0 as f64 - row_width as f64) / m as f64;
        let row_names: Vec<String> = self
            .rows
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
            (1..=m).map(|k| k.to_string()).collect()
        } else {
            self.columns.clone()
        };
        let name_width = text_width(root, row_names.iter().cloned(), label_size);
        // Cell (row r, column c) is centred on (c, n - 1 - r): row 0 at the top.
        let (rows, columns) = (n as f64, m as f64);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, bold(22.0))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(-0.5..columns - 0.5, -0.5..rows - 0.5)?;
        let x_label = |x: &f64| {
            row_label(*x, m)
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
            .x_labels(m)
            .y_labels(n)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .label_style(font(label_size))
            .x_desc(match (self.square, numbered) {
                (false, _) => "field (column)",
                (true, true) => "opponent (column, numbered as the rows)",
                (true, false) => "opponent (column)",
            })
            .y_desc(if self.square {
                "agent (row)"
            } else {
                "entrant (row)"
            })
            .axis_desc_style(font(16.0))
            .draw()?;
        let (width, height) = chart.plotting_area().dim_in_pixel();
        let cell = (width as f64 / m as f64).min(height as f64 / n as f64);
        let number_size = (cell * 0.4).clamp(9.0, 20.0);
        for (r, row) in self.score.iter().enumerate() {
            let y = rows - 1.0 - r as f64;
            for (c, score) in row.iter().enumerate() {
                let x = c as f64;
                let cell = [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)];
                let (fill, text, ink) = match score {
                    Some(s) => {
                        let dark = (s - 0.5).abs() > 0.3;
                        let ink = if dark { WHITE } else { BLACK };
                        (score_colour(*s), format!("{:.0}%", 100.0 * s), ink)
                    }
                    None if self.square && r == c => {
                        (RGBColor(210, 210, 210), String::new(), BLACK)
                    }
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

/// Mean time per move, one series per agent: the variants whose id gives a board size
/// ([`board_cells`]) against it (log-log), and every other variant on a panel of its own, one
/// column per variant (a ring of pits, or a board whose size the id does not say), sharing the
/// time axis. No variant is left out.
struct TimeChart {
    /// Agent, then `(cells, mean ms per move)` of its variants by board size, then
    /// `(column, mean ms per move)` of the others.
    series: Vec<TimeSeries>,
    /// The variants of the panel of columns, in the order of their column.
    columns: Vec<String>,
    floored: bool,
}

/// One agent of the time chart: name, board-size points, column points.
type TimeSeries = (String, BoardPoints, ColumnPoints);
/// `(cells, mean ms per move)`.
type BoardPoints = Vec<(f64, f64)>;
/// `(column, mean ms per move)`.
type ColumnPoints = Vec<(usize, f64)>;

impl TimeChart {
    fn new(tally: &Tally) -> Self {
        let mut by_agent: BTreeMap<&str, (BoardPoints, ColumnPoints)> = BTreeMap::new();
        let columns: Vec<String> = tally
            .variants
            .keys()
            .filter(|v| board_cells(v).is_none())
            .cloned()
            .collect();
        let mut floored = false;
        for (variant, games) in &tally.variants {
            let place = match board_cells(variant) {
                Some(cells) => Ok(cells as f64),
                None => Err(columns
                    .iter()
                    .position(|v| v == variant)
                    .expect("a variant without a board size has a column")),
            };
            for (agent, time) in &games.agents {
                if time.moves == 0 || time.thinking_ns == 0 {
                    continue;
                }
                let mean_ms = time.thinking_ns as f64 / 1e6 / time.moves as f64;
                floored |= mean_ms < TIME_FLOOR_MS;
                let entry = by_agent.entry(agent).or_default();
                match place {
                    Ok(cells) => entry.0.push((cells, mean_ms.max(TIME_FLOOR_MS))),
                    Err(column) => entry.1.push((column, mean_ms.max(TIME_FLOOR_MS))),
                }
            }
        }
        let mut series: Vec<TimeSeries> = by_agent
            .into_iter()
            .map(|(agent, (mut points, columns))| {
                points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                (agent.to_owned(), points, columns)
            })
            .collect();
        // Slowest first, so the legend reads in the order the lines stack up.
        let typical = |series: &TimeSeries| {
            let logs: Vec<f64> = series
                .1
                .iter()
                .map(|p| p.1.ln())
                .chain(series.2.iter().map(|p| p.1.ln()))
                .collect();
            logs.iter().sum::<f64>() / logs.len().max(1) as f64
        };
        series.sort_by(|a, b| typical(b).total_cmp(&typical(a)).then(a.0.cmp(&b.0)));
        Self {
            series,
            columns,
            floored,
        }
    }

    fn is_empty(&self) -> bool {
        self.series.is_empty()
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
            self.series.iter().map(|(name, _, _)| name),
            (140, CHART_SIZE.0 / 3),
        );
        let mnk = || self.series.iter().flat_map(|(_, points, _)| points.iter());
        let columns = || {
            self.series
                .iter()
                .flat_map(|(_, _, columns)| columns.iter())
        };
        let has_mnk = mnk().next().is_some();
        let has_columns = columns().next().is_some();
        let y_range = log_range(
            mnk().map(|p| p.1).chain(columns().map(|p| p.1)),
            TIME_FLOOR_MS,
        );
        root.draw(&Text::new(
            "Mean time per move",
            ((plot.dim_in_pixel().0 / 2) as i32, 12),
            TextStyle::from(bold(24.0)).pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        let (plot_width, _) = plot.dim_in_pixel();
        let columns_width = if !has_columns {
            0
        } else if has_mnk {
            (90 + 70 * self.columns.len() as u32).min(plot_width / 3)
        } else {
            plot_width
        };
        let (left, right) = plot.split_horizontally(plot_width - columns_width);
        let left = left.margin(50, 10, 10, 10);
        let right = right.margin(50, 10, 10, 10);
        if has_mnk {
            // Ticks at the board sizes played say more than powers of ten.
            let sizes = distinct(mnk().map(|p| p.0));
            let x_range = log_range(mnk().map(|p| p.0), 1.0);
            let mut chart = ChartBuilder::on(&left)
                .x_label_area_size(60)
                .y_label_area_size(80)
                .caption("m,n,k: against board size", font(17.0))
                .build_cartesian_2d(
                    x_range.log_scale().with_key_points(sizes),
                    y_range.clone().log_scale(),
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
            for (k, (_, points, _)) in self.series.iter().enumerate() {
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
        }
        if has_columns {
            let n = self.columns.len();
            // The committed reports' caption where the panel is O An Quan's alone.
            let caption = if self.columns.iter().all(|v| is_oanquan(v)) {
                "O An Quan"
            } else {
                "per variant"
            };
            let mut chart = ChartBuilder::on(&right)
                .x_label_area_size(60)
                .y_label_area_size(if has_mnk { 10 } else { 80 })
                .caption(caption, font(17.0))
                .build_cartesian_2d(-0.5..n as f64 - 0.5, y_range.log_scale())?;
            let name = |x: &f64| {
                row_label(*x, n)
                    .and_then(|k| self.columns.get(k))
                    .map_or(String::new(), Clone::clone)
            };
            let mut mesh = chart.configure_mesh();
            mesh.disable_x_mesh()
                .y_label_formatter(&|v| axis_number(*v))
                .x_labels(n)
                .x_label_formatter(&name)
                .x_desc("variant")
                .label_style(font(14.0))
                .axis_desc_style(font(18.0))
                .light_line_style(RGBColor(242, 242, 242))
                .max_light_lines(4);
            if has_mnk {
                // The m,n,k panel's axis on the left serves both.
                mesh.y_label_formatter(&|_| String::new());
            } else {
                mesh.y_desc("mean time per move (ms, log scale)");
            }
            mesh.draw()?;
            for (k, (_, _, columns)) in self.series.iter().enumerate() {
                let (color, marker) = series_style(k);
                for &(column, ms) in columns {
                    let center = chart.backend_coord(&(column as f64, ms));
                    draw_marker(root, center, color, marker)?;
                }
            }
        }
        draw_legend(&legend, "agent", &entries)
    }
}

/// The share of each agent's N-player games finished in each place, as stacked bars.
struct PlacesChart {
    title: String,
    /// Agent, its place counts; best average place first.
    rows: Vec<(String, Vec<u64>)>,
    places: usize,
}

impl PlacesChart {
    fn new(pool: &PoolRatings) -> Option<Self> {
        let mut rows: Vec<(String, Vec<u64>, f64)> = pool
            .standings
            .iter()
            .filter_map(|s| {
                let m = s.multiplayer.as_ref()?;
                Some((
                    format!("{} (avg {:.2})", s.agent, m.average_place()),
                    m.places.clone(),
                    m.average_place(),
                ))
            })
            .collect();
        if rows.is_empty() {
            return None;
        }
        rows.sort_by(|a, b| a.2.total_cmp(&b.2).then_with(|| a.0.cmp(&b.0)));
        let places = rows.iter().map(|r| r.1.len()).max().unwrap_or(1);
        Some(Self {
            title: format!("Places in N-player games: {}", pool.pool),
            rows: rows.into_iter().map(|(a, p, _)| (a, p)).collect(),
            places,
        })
    }
}

/// Place `k` of `places` (0 = first): dark blue for the first place to dark red for the last,
/// lighter in between (ColorBrewer's RdBu, never white, so every segment shows).
fn place_colour(k: usize, places: usize) -> RGBColor {
    const TWO: [RGBColor; 2] = [RGBColor(33, 102, 172), RGBColor(178, 24, 43)];
    const THREE: [RGBColor; 3] = [
        RGBColor(33, 102, 172),
        RGBColor(171, 171, 171),
        RGBColor(178, 24, 43),
    ];
    const FOUR: [RGBColor; 4] = [
        RGBColor(33, 102, 172),
        RGBColor(146, 197, 222),
        RGBColor(244, 165, 130),
        RGBColor(178, 24, 43),
    ];
    match places {
        0..=2 => TWO[k.min(1)],
        3 => THREE[k.min(2)],
        _ => FOUR[k.min(3)],
    }
}

impl Chart for PlacesChart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.rows.len().max(1);
        let label_size = if n > 16 { 12.0 } else { 16.0 };
        let names: Vec<String> = self.rows.iter().map(|r| r.0.clone()).collect();
        let name_width = text_width(root, names.iter().cloned(), label_size);
        let entries: Vec<String> = (1..=self.places).map(ordinal).collect();
        let (plot, legend) = root.split_horizontally(CHART_SIZE.0 - 150);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, bold(22.0))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(name_width + 20)
            .build_cartesian_2d(0.0..100.0, -0.5..n as f64 - 0.5)?;
        let label = |y: &f64| {
            row_label(*y, n)
                .and_then(|k| names.get(n - 1 - k))
                .map_or(String::new(), Clone::clone)
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|v| format!("{v:.0}%"))
            .x_desc("share of the agent's games (best average place at the top)")
            .label_style(font(label_size))
            .axis_desc_style(font(16.0))
            .light_line_style(WHITE)
            .draw()?;
        for (k, (_, places)) in self.rows.iter().enumerate() {
            let y = (n - 1 - k) as f64;
            let total: u64 = places.iter().sum();
            let mut start = 0.0;
            for (place, &count) in places.iter().enumerate() {
                let share = 100.0 * count as f64 / total.max(1) as f64;
                if share <= 0.0 {
                    continue;
                }
                let colour = place_colour(place, self.places);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(start, y - 0.35), (start + share, y + 0.35)],
                    colour.filled(),
                )))?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(start, y - 0.35), (start + share, y + 0.35)],
                    WHITE.stroke_width(1),
                )))?;
                if share >= 6.0 {
                    let dark = place == 0 || place + 1 == self.places || self.places == 2;
                    chart.draw_series(std::iter::once(Text::new(
                        format!("{share:.0}%"),
                        (start + share / 2.0, y),
                        font(13.0)
                            .color(if dark { &WHITE } else { &BLACK })
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    )))?;
                }
                start += share;
            }
        }
        let line = 26;
        legend.draw(&Text::new("place", (10, 40), bold(16.0)))?;
        for (k, entry) in entries.iter().enumerate() {
            let y = 70 + k as i32 * line;
            legend.draw(&Rectangle::new(
                [(10, y), (34, y + 16)],
                place_colour(k, self.places).filled(),
            ))?;
            legend.draw(&Text::new(entry.clone(), (42, y), font(16.0)))?;
        }
        Ok(())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`.
fn ordinal(place: usize) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// One agent of a family: budget, Elo, interval, name.
type BudgetPoint = (f64, f64, Option<Interval>, String);

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
            let ends = interval.map_or([None, None], |i| [i.low, i.high]);
            for x in ends.into_iter().flatten().chain(std::iter::once(*elo)) {
                low = low.min(x);
                high = high.max(x);
            }
        }
        if !low.is_finite() {
            (low, high) = (-100.0, 100.0);
        }
        // Room for the arrows of open ends.
        let pad = (high - low).max(100.0) * 0.12;
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
                let a = interval.and_then(|i| i.low).unwrap_or(elo).min(elo);
                let b = interval.and_then(|i| i.high).unwrap_or(elo).max(elo);
                chart.draw_series(std::iter::once(ErrorBar::new_vertical(
                    budget,
                    a,
                    elo,
                    b,
                    color.stroke_width(2),
                    10,
                )))?;
                // An open end: an arrow of 40 pixels beyond the closed part.
                for (open, from, sign) in [
                    (interval.is_some_and(|i| i.low.is_none()), a, 1),
                    (interval.is_some_and(|i| i.high.is_none()), b, -1),
                ] {
                    if open {
                        let start = chart.backend_coord(&(budget, from));
                        let tip = (start.0, start.1 + sign * 40);
                        root.draw(&PathElement::new(vec![start, tip], color.stroke_width(2)))?;
                        arrow_head(root, tip, (0.0, f64::from(sign)), color)?;
                    }
                }
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

/// One tuned parameter's values, for [`draw_tune`].
#[derive(Clone, Debug)]
pub struct TuneSeries {
    /// Its name.
    pub name: String,
    /// Its range.
    pub min: f64,
    /// Its range's top.
    pub max: f64,
    /// Its value at the start (index 0) and after each iteration.
    pub values: Vec<f64>,
    /// Whether the agent gets it rounded to a whole number (so does the legend).
    pub integer: bool,
}

/// What an SPSA tune did, for [`draw_tune`].
#[derive(Clone, Debug)]
pub struct TuneTrajectory {
    /// The chart's title.
    pub title: String,
    /// The parameters.
    pub params: Vec<TuneSeries>,
    /// The score of `theta + c_k * flip` against `theta - c_k * flip` in each iteration.
    pub plus_score: Vec<f64>,
}

/// Draws `trajectory` into `dir` as `stem.svg` and `stem.png`: the parameters over the
/// iterations (their values with one parameter, their place in their range with several), and
/// below them the score of theta+ against theta- (a moving average over a twentieth of the
/// iterations; it stays near 50% once theta is near a maximum). Returns the files.
pub fn draw_tune(dir: &Path, stem: &str, trajectory: &TuneTrajectory) -> Result<Vec<PathBuf>> {
    register_fonts(dir)?;
    render(dir, stem, trajectory)?;
    Ok(["svg", "png"]
        .iter()
        .map(|extension| dir.join(format!("{stem}.{extension}")))
        .collect())
}

impl TuneTrajectory {
    /// The moving average of the score and its window.
    fn smoothed_score(&self) -> (Vec<(f64, f64)>, usize) {
        let n = self.plus_score.len();
        let window = (n / 20).max(1);
        let mut sum = 0.0;
        let mut points = Vec::with_capacity(n);
        for (k, score) in self.plus_score.iter().enumerate() {
            sum += score;
            if k >= window {
                sum -= self.plus_score[k - window];
            }
            let count = (k + 1).min(window);
            points.push(((k + 1) as f64, 100.0 * sum / count as f64));
        }
        (points, window)
    }
}

impl Chart for TuneTrajectory {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        // The title over the whole width, so that a long one is not cut by the legend's panel.
        let root = root.titled(&self.title, bold(22.0))?;
        let root = &root;
        let single = self.params.len() == 1;
        let labels: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let last = p.values.last().copied().unwrap_or(p.min);
                let last = if p.integer { last.round() } else { last };
                format!(
                    "{} = {} ({} to {})",
                    p.name,
                    axis_value(last),
                    axis_value(p.min),
                    axis_value(p.max)
                )
            })
            .collect();
        let (entries, plot, legend) = with_legend(root, labels.iter(), (200, CHART_SIZE.0 / 2));
        let (top, bottom) = plot.split_vertically(CHART_SIZE.1 * 58 / 100);
        let iterations = self.plus_score.len().max(1) as f64;
        let (low, high) = if single {
            (self.params[0].min, self.params[0].max)
        } else {
            (0.0, 1.0)
        };
        let mut chart = ChartBuilder::on(&top)
            .margin(15)
            .x_label_area_size(30)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..iterations, low..high)?;
        let y_desc = if single {
            self.params[0].name.clone()
        } else {
            "place in its range (0 = min, 1 = max)".to_owned()
        };
        chart
            .configure_mesh()
            .y_desc(y_desc)
            .x_label_formatter(&|v: &f64| format!("{}", v.round()))
            .y_label_formatter(&|v| axis_value(*v))
            .label_style(font(15.0))
            .axis_desc_style(font(16.0))
            .light_line_style(RGBColor(242, 242, 242))
            .max_light_lines(4)
            .draw()?;
        for (k, param) in self.params.iter().enumerate() {
            let (color, _) = series_style(k);
            let width = param.max - param.min;
            chart.draw_series(LineSeries::new(
                param.values.iter().enumerate().map(|(i, &v)| {
                    let y = if single { v } else { (v - param.min) / width };
                    (i as f64, y)
                }),
                color.stroke_width(2),
            ))?;
        }

        let (score, window) = self.smoothed_score();
        let mut chart = ChartBuilder::on(&bottom)
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..iterations, 0.0..100.0)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc(format!("theta+ score, % (mean of {window})"))
            .x_label_formatter(&|v: &f64| format!("{}", v.round()))
            .y_label_formatter(&|v: &f64| format!("{}", v.round()))
            .label_style(font(15.0))
            .axis_desc_style(font(16.0))
            .light_line_style(RGBColor(242, 242, 242))
            .max_light_lines(2)
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(0.0, 50.0), (iterations, 50.0)],
            RGBColor(150, 150, 150).stroke_width(1),
        ))?;
        chart.draw_series(LineSeries::new(score, PALETTE[0].stroke_width(2)))?;
        draw_legend(&legend, "parameter = end (range)", &entries)
    }
}

/// A parameter's value on an axis or in a legend: at most four significant decimals.
fn axis_value(v: f64) -> String {
    let text = format!("{v:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}
