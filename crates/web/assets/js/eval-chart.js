// The eval graph: a function of (points, options) to SVG.
import { h, s, SEAT_COLOURS } from "./dom.js";

// Issue 36, missing 3: the agents' own evaluation over a game, drawn. `points` are
// [{ply, seat, score}]: after move `ply` (1-based), the agent of `seat` valued its move at
// `score` from its own side (SearchStats' score: its own units, zero-sum, a proven result at
// 1e6 or more for alphabeta, ±1 for MCTS). In a game of two seats each is drawn from the first
// seat's side (the second's negated), scaled to the largest unproven value of its game, a
// proven result at the edge. Games of more seats have no one side to draw: null.
export const PROVEN = 1e6;
export const EVAL_POSITIONS = 200;
export function evalSeries(points, players) {
  if (players !== 2) return null;
  const known = points.filter((p) => p.score !== null && p.score !== undefined && Number.isFinite(p.score));
  if (!known.length) return null;
  const scale = Math.max(1e-9, ...known.filter((p) => Math.abs(p.score) < PROVEN).map((p) => Math.abs(p.score)));
  return known.map((p) => {
    const mine = p.seat === 0 ? p.score : -p.score;
    const proven = Math.abs(p.score) >= PROVEN;
    return { ply: p.ply, seat: p.seat, score: p.score, y: proven ? Math.sign(mine) : Math.max(-1, Math.min(1, mine / scale)), proven, scale };
  });
}

// The chart of `series` (evalSeries) over `plies` moves: a line through each seat's points,
// above the middle the first seat is better; `now` (a ply) marked; a click on a point calls
// `onPick(ply)`. `names` are the seats' names.
export function evalChart(series, plies, names, opts = {}) {
  const W = 300, H = 96, L = 6, T = 8, B = 8;
  const x = (ply) => L + (W - 2 * L) * (plies ? ply / plies : 0);
  const y = (v) => T + (H - T - B) * (1 - v) / 2;
  const root = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-chart", role: "img",
    "aria-label": `the agents' evaluation over ${plies} moves: ${names[0]} better above the line, ${names[1]} below` });
  root.append(s("rect", { x: L, y: T, width: W - 2 * L, height: (H - T - B) / 2, class: "eval-top" }),
    s("line", { x1: L, y1: y(0), x2: W - L, y2: y(0), class: "eval-zero" }));
  if (opts.now !== undefined && opts.now !== null) root.append(s("line", { x1: x(opts.now), y1: T, x2: x(opts.now), y2: H - B, class: "eval-now" }));
  for (const seat of [0, 1]) {
    const mine = series.filter((p) => p.seat === seat);
    if (mine.length > 1) root.append(s("polyline", { points: mine.map((p) => `${x(p.ply)},${y(p.y)}`).join(" "), class: "eval-line", stroke: SEAT_COLOURS[seat] }));
    for (const p of mine) {
      const shown = p.proven ? (p.score > 0 ? "a proven win" : "a proven loss") : `${Number.isInteger(p.score) ? p.score : p.score.toFixed(3)}`;
      const dot = s("circle", { cx: x(p.ply), cy: y(p.y), r: p.proven ? 4 : 3, fill: SEAT_COLOURS[seat], class: "eval-dot", "data-ply": p.ply, "data-seat": p.seat, "data-y": p.y.toFixed(3),
        onclick: opts.onPick ? () => opts.onPick(p.ply) : null },
      s("title", {}, `move ${p.ply}: ${names[seat]} valued it ${shown} (its own units)`));
      root.append(dot);
    }
  }
  return root;
}

// The chart in `box` with its caption, or a line saying why there is none.
export function showEval(box, points, players, plies, names, opts = {}) {
  const series = evalSeries(points, players);
  if (!series) {
    box.replaceChildren(h("p", { class: "note" }, players !== 2 ? "No evaluation graph with more than two seats (no one side to draw it from)." : opts.none || "No evaluation yet: the agents' values come with their moves."));
    box.dataset.points = "0";
    return;
  }
  box.dataset.points = String(series.length);
  box.replaceChildren(h("div", { class: "eval-caption" }, h("strong", {}, "Evaluation"), ` · above the line ${names[0]} is better, below ${names[1]}: each agent's own value of its move, scaled to the largest in this game (a proven result at the edge)`),
    evalChart(series, plies, names, opts));
}
