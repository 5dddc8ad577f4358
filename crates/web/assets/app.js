// arena in the browser: Play, Analyse, Replay, Report and Stats over the server's JSON API.
// Plain modern JavaScript, no build step: the server compiles this file into its binary.
"use strict";

// ---------------------------------------------------------------- small helpers

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SEAT_COLOURS = ["var(--x)", "var(--o)", "var(--p3)", "var(--p4)"];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("the server does not answer: is `arena serve` still running?", 0);
  }
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  return data;
}

let toastTimer = null;
function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4500);
}

const ms = (value) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(1)} ms`);
const count = (n) => Number(n).toLocaleString("en");

function statsText(stats, withReason = true) {
  if (!stats) return "";
  const parts = [ms(stats.ms), `${count(stats.nodes)} ${stats.nodes === 1 ? "node" : "nodes"}`];
  if (stats.depth !== null && stats.depth !== undefined) parts.push(`depth ${stats.depth}`);
  // Scores of a million and more are proven wins or losses: the reason says so in words.
  if (stats.score !== null && stats.score !== undefined && Math.abs(stats.score) < 1e6) {
    parts.push(`score ${Number.isInteger(stats.score) ? stats.score : stats.score.toFixed(3)}`);
  }
  return parts.join(", ") + (withReason && stats.reason ? `; ${stats.reason}` : "");
}

function seatBase(family, seat) {
  if (family === "mnk") return seat === 0 ? "X" : "O";
  return `player ${seat + 1}`;
}

const typing = () => {
  const el = document.activeElement;
  return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT");
};

// ---------------------------------------------------------------- boards

// An m,n,k board: cells, coordinates, stones, the last stone, the winning line, and on demand
// a hint, a keyboard cursor and the solver's value of each empty cell.
function drawMnk(view, opts = {}) {
  const C = 36, M = 24, P = 6;
  const { rows, cols } = view;
  const width = cols * C + M + P, height = rows * C + M + P;
  const root = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `board ${rows} by ${cols}` });
  // Small boards are drawn large, but not as large as the screen.
  root.style.maxWidth = `${Math.max(340, width * 1.9)}px`;
  root.append(s("rect", { x: 0, y: 0, width, height, fill: "var(--card)" }));
  root.append(s("rect", { x: M, y: M, width: cols * C, height: rows * C, fill: "var(--paper)", stroke: "var(--grid)" }));
  const at = (i) => ({ r: Math.floor(i / cols), c: i % cols });
  const centre = (i) => ({ x: M + (i % cols) * C + C / 2, y: M + Math.floor(i / cols) * C + C / 2 });
  const line = new Set(view.line || []);
  for (let c = 0; c < cols; c++) {
    root.append(s("text", { class: "label", x: M + c * C + C / 2, y: M - 8 }, String.fromCharCode(97 + c)));
  }
  for (let r = 0; r < rows; r++) {
    root.append(s("text", { class: "label", x: M / 2, y: M + r * C + C / 2 + 4 }, r + 1));
  }
  for (let i = 0; i < rows * cols; i++) {
    const { r, c } = at(i);
    const fill = line.has(i) ? "var(--win)" : view.last === i ? "var(--last)" : "none";
    root.append(s("rect", { x: M + c * C, y: M + r * C, width: C, height: C, fill, stroke: "var(--grid)", "stroke-width": 0.8 }));
  }
  if (view.line && view.line.length > 1) {
    const a = centre(view.line[0]), b = centre(view.line[view.line.length - 1]);
    root.append(s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#2e8b57", "stroke-width": 5, "stroke-linecap": "round", opacity: 0.45 }));
  }
  const stone = (i, mark, extra = "") => {
    const { x, y } = centre(i);
    const d = C * 0.28;
    if (mark === "X") {
      return s("g", { class: `stone-x ${extra}`, "data-stone": "X" },
        s("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }),
        s("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d }));
    }
    return s("circle", { class: `stone-o ${extra}`, cx: x, cy: y, r: d * 1.15, "data-stone": "O" });
  };
  for (let i = 0; i < view.cells.length; i++) {
    if (view.cells[i] === ".") continue;
    const placed = stone(i, view.cells[i]);
    placed.setAttribute("data-at", i);
    root.append(placed);
  }
  if (opts.values) {
    for (const [i, value] of Object.entries(opts.values)) {
      const { x, y } = centre(Number(i));
      const colour = value === "win" ? "#1e8449" : value === "loss" ? "var(--x)" : "var(--muted)";
      const letter = value === "win" ? "W" : value === "loss" ? "L" : value === "draw" ? "D" : "?";
      root.append(s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: colour }, letter));
    }
  }
  if (opts.hint !== undefined && opts.hint !== null) {
    const { x, y } = centre(opts.hint);
    root.append(s("circle", { class: "hint-ring", cx: x, cy: y, r: C * 0.44 }));
  }
  if (opts.onCell) {
    const mark = view.to_move === 0 ? "X" : "O";
    for (let i = 0; i < view.cells.length; i++) {
      if (view.cells[i] !== "." || (view.only !== null && view.only !== undefined && view.only !== i)) continue;
      const { r, c } = at(i);
      const hit = s("rect", {
        class: "cell-hit", x: M + c * C + 1, y: M + r * C + 1, width: C - 2, height: C - 2,
        "data-cell": i, "data-name": `${String.fromCharCode(97 + c)}${r + 1}`,
        onclick: () => opts.onCell(i, r, c),
      });
      hit.append(s("title", {}, `${String.fromCharCode(97 + c)}${r + 1}`));
      const ghost = stone(i, mark, "ghost");
      ghost.style.display = "none";
      ghost.style.pointerEvents = "none";
      hit.addEventListener("mouseenter", () => (ghost.style.display = ""));
      hit.addEventListener("mouseleave", () => (ghost.style.display = "none"));
      root.append(ghost, hit);
    }
  }
  if (opts.cursor !== undefined && opts.cursor !== null) {
    const { r, c } = at(opts.cursor);
    root.append(s("rect", { x: M + c * C + 2, y: M + r * C + 2, width: C - 4, height: C - 4, fill: "none", stroke: "var(--accent)", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none" }));
  }
  return root;
}

// Where each cell of an O An Quan ring is drawn. Two players: the classic board, player 2's
// squares on top (labels 6-10 left to right), player 1's below, mandarin B left and A right;
// sowing P runs to the right along the mover's own row. Three and four players: a triangle or
// a square, one side per player, mandarin cells at the corners, sowing P anticlockwise.
function ringLayout(players) {
  const cells = [];
  if (players === 2) {
    const W = 110, H = 96, X0 = 110, top = 40;
    for (let i = 0; i < 5; i++) cells[i] = { kind: "square", x: X0 + i * W, y: top + H, w: W, h: H, side: "bottom" };
    for (let i = 6; i <= 10; i++) cells[i] = { kind: "square", x: X0 + (10 - i) * W, y: top, w: W, h: H, side: "top" };
    cells[5] = { kind: "mandarin", x: X0 + 5 * W, y: top, w: 90, h: 2 * H, side: "right" };
    cells[11] = { kind: "mandarin", x: X0 - 90, y: top, w: 90, h: 2 * H, side: "left" };
    for (const cell of cells) {
      cell.cx = cell.x + cell.w / 2;
      cell.cy = cell.y + cell.h / 2;
    }
    cells[5].cx = X0 + 5 * W + 38;
    cells[11].cx = X0 - 38;
    return { left: 0, top: 0, width: 770, height: 290, cells, two: true };
  }
  const R = players === 3 ? 300 : 285, cx = 0, cy = 0;
  const corner = (k) => {
    const angle = ((90 + 180 / players - (k * 360) / players) * Math.PI) / 180;
    return { x: cx + R * Math.cos(angle), y: cy + R * Math.sin(angle) };
  };
  for (let side = 0; side < players; side++) {
    const a = corner(side), b = corner(side + 1);
    const tx = (b.x - a.x), ty = (b.y - a.y);
    const len = Math.hypot(tx, ty);
    for (let j = 0; j < 5; j++) {
      const t = 0.21 + j * 0.145;
      cells[6 * side + j] = { kind: "round", cx: a.x + tx * t, cy: a.y + ty * t, r: 31, tx: tx / len, ty: ty / len, owner: side };
    }
    cells[6 * side + 5] = { kind: "mandarin-round", cx: b.x, cy: b.y, r: 40, tx: tx / len, ty: ty / len, owner: side };
  }
  for (const cell of cells) {
    const dx = cell.cx - cx, dy = cell.cy - cy, d = Math.hypot(dx, dy) || 1;
    cell.ox = dx / d;
    cell.oy = dy / d;
  }
  // The drawing's box: every cell with its label outside it.
  const margin = 62;
  const xs = cells.map((c) => c.cx), ys = cells.map((c) => c.cy);
  const left = Math.min(...xs) - margin, top = Math.min(...ys) - margin;
  return { left, top, width: Math.max(...xs) + margin - left, height: Math.max(...ys) + margin - top, cells, two: false, cx, cy };
}

// Even-looking spots for `n` seeds in a unit box (a sunflower pattern, so one seed sits in
// the middle and many fill the box).
function seedSpots(n) {
  const spots = [];
  for (let k = 0; k < n; k++) {
    const ring = 0.46 * Math.sqrt((k + 0.5) / n), angle = k * 2.39996 + 0.7;
    spots.push({ x: 0.5 + ring * Math.cos(angle), y: 0.5 + ring * Math.sin(angle) });
  }
  return spots;
}
const MAX_SEEDS_DRAWN = 24;

// An O An Quan position. `opts.selectable` is the seat whose squares may be picked;
// `opts.selected` the picked square (its arrows shown); `opts.onSquare(i)`, `opts.onSow(i, dir)`
// the clicks; `opts.last` a move's place; `opts.active` and `opts.captured` cells to mark while
// a sowing plays; `opts.hand` the seeds in the hand; `opts.names` the seats' names.
function drawOanQuan(view, opts = {}) {
  const layout = ringLayout(view.players);
  const { width, height, cells } = layout;
  const root = s("svg", { viewBox: `${layout.left} ${layout.top} ${width} ${height}`, role: "img", "aria-label": "O An Quan board" });
  root.append(s("rect", { x: layout.left, y: layout.top, width, height, fill: "var(--card)" }));
  const lastSquare = opts.last && opts.last.square !== undefined ? opts.last.square : null;
  if (layout.two) {
    const p = cells[11], q = cells[5];
    root.append(s("path", {
      d: `M ${p.x + p.w} ${p.y} H ${q.x} A ${q.w} ${q.h / 2} 0 0 1 ${q.x} ${q.y + q.h} H ${p.x + p.w} A ${p.w} ${p.h / 2} 0 0 1 ${p.x + p.w} ${p.y} Z`,
      fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3,
    }));
  } else {
    const corners = [];
    for (let side = 0; side < view.players; side++) corners.push(cells[6 * side + 5]);
    root.append(s("polygon", { points: corners.map((c) => `${c.cx},${c.cy}`).join(" "), fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3, "stroke-linejoin": "round" }));
    for (let side = 0; side < view.players; side++) {
      const a = cells[6 * ((side + view.players - 1) % view.players) + 5], b = cells[6 * side + 5];
      root.append(s("line", { x1: a.cx, y1: a.cy, x2: b.cx, y2: b.cy, stroke: SEAT_COLOURS[side], "stroke-width": 7, opacity: 0.55, "stroke-linecap": "round" }));
    }
  }
  const mover = view.to_move;
  view.cells.forEach((cell, i) => {
    const place = cells[i];
    const mine = opts.selectable === cell.owner && !cell.mandarin && (cell.seeds > 0 || view.must_refill);
    let cls = "square";
    if (mine) cls += " mine";
    if (opts.selected === i) cls += " selected";
    if (lastSquare === i) cls += " last";
    if (opts.active === i) cls += " active";
    if (opts.captured && opts.captured.has(i)) cls += " captured";
    const attrs = { class: cls, "data-cell": i };
    if (cell.label !== null) attrs["data-label"] = cell.label;
    let shape;
    if (place.kind === "square") shape = s("rect", { ...attrs, x: place.x + 3, y: place.y + 3, width: place.w - 6, height: place.h - 6, rx: 8 });
    else if (place.kind === "mandarin") {
      // A half-disc against the squares: the board's rounded end.
      const right = place.side === "right";
      const x0 = right ? place.x + 3 : place.x + place.w - 3;
      const y0 = place.y + 3, y1 = place.y + place.h - 3;
      shape = s("path", { ...attrs, d: `M ${x0} ${y0} A ${place.w - 10} ${(y1 - y0) / 2} 0 0 ${right ? 1 : 0} ${x0} ${y1} Z` });
    }
    else shape = s("circle", { ...attrs, cx: place.cx, cy: place.cy, r: place.r, style: `stroke:${SEAT_COLOURS[place.owner]}` });
    if (mine && opts.onSquare) shape.addEventListener("click", () => opts.onSquare(i));
    root.append(shape);
    // Seeds, a piece, the count.
    // Where the seeds, the piece and the count go in each kind of cell.
    const group = s("g", { "pointer-events": "none" });
    let box, piece = null, countAt;
    if (place.kind === "square") {
      box = { x: place.x + 14, y: place.y + 16, w: place.w - 28, h: place.h - 26 };
      countAt = { x: place.x + 18, y: place.y + 22 };
    } else if (place.kind === "mandarin") {
      box = { x: place.cx - 26, y: place.cy + 12, w: 52, h: 52 };
      piece = { x: place.cx, y: place.cy - 34, r: 17 };
      countAt = { x: place.cx, y: place.cy + 2 };
    } else if (place.kind === "round") {
      box = { x: place.cx - 18, y: place.cy + 1, w: 36, h: 20 };
      countAt = { x: place.cx, y: place.cy - 6 };
    } else {
      box = { x: place.cx - 24, y: place.cy + 6, w: 48, h: 26 };
      piece = { x: place.cx - 12, y: place.cy - 13, r: 12 };
      countAt = { x: place.cx + 13, y: place.cy - 8 };
    }
    if (cell.piece && piece) group.append(s("circle", { class: "piece", cx: piece.x, cy: piece.y, r: piece.r }));
    const spots = seedSpots(Math.min(cell.seeds, MAX_SEEDS_DRAWN));
    const dot = place.kind === "square" || place.kind === "mandarin" ? 4.2 : 2.7;
    for (const spot of spots) {
      group.append(s("circle", { class: "seed-dot", cx: box.x + spot.x * box.w, cy: box.y + spot.y * box.h, r: dot }));
    }
    const value = cell.mandarin ? cell.value : cell.seeds;
    group.append(s("text", { class: "count", x: countAt.x, y: countAt.y, "data-count": i }, value));
    root.append(group);
    // The label players type, outside the ring; the arrows of a picked square.
    if (cell.label !== null) {
      let lx, ly;
      if (layout.two) {
        lx = place.cx;
        ly = place.side === "top" ? place.y - 10 : place.y + place.h + 20;
      } else {
        lx = place.cx + place.ox * 46;
        ly = place.cy + place.oy * 46 + 4;
      }
      if (opts.selected !== i) root.append(s("text", { class: "label", x: lx, y: ly }, cell.label));
    } else if (layout.two) {
      root.append(s("text", { class: "label", x: place.cx, y: place.y + place.h + 20 }, i === 5 ? "A" : "B"));
    }
    if (opts.selected === i && opts.onSow) {
      const arrow = (dir, x, y, glyph, title) => {
        const g = s("g", { class: "arrow", "data-dir": dir, onclick: (e) => { e.stopPropagation(); opts.onSow(i, dir); } },
          s("circle", { cx: x, cy: y, r: 15 }), s("text", { x, y }, glyph));
        g.append(s("title", {}, title));
        return g;
      };
      if (layout.two) {
        const y = place.side === "top" ? place.y - 14 : place.y + place.h + 16;
        root.append(arrow("T", place.cx - 26, y, "◀", `sow ${cell.label}T (left)`));
        root.append(arrow("P", place.cx + 26, y, "▶", `sow ${cell.label}P (right)`));
      } else {
        const bx = place.cx + place.ox * 50, by = place.cy + place.oy * 50;
        root.append(arrow("T", bx - place.tx * 22, by - place.ty * 22, "T", `sow ${cell.label}T (towards lower labels)`));
        root.append(arrow("P", bx + place.tx * 22, by + place.ty * 22, "P", `sow ${cell.label}P (towards higher labels)`));
      }
    }
  });
  if (opts.hand && opts.active !== undefined && opts.active !== null) {
    const place = cells[opts.active];
    const hx = layout.two ? place.cx + 34 : place.cx + place.ox * -40;
    const hy = layout.two ? place.y + 8 : place.cy + place.oy * -40;
    root.append(s("circle", { cx: hx, cy: hy, r: 13, fill: "var(--accent)" }), s("text", { class: "hand", x: hx, y: hy }, opts.hand));
  }
  if (opts.hint) {
    const place = cells[opts.hint.square];
    const r = place.kind === "square" ? 52 : place.r + 6;
    root.append(s("circle", { class: "hint-ring", cx: place.cx, cy: place.cy, r }));
  }
  // Who sits where, and what they captured.
  const names = opts.names || [];
  const tag = (seat) => `${names[seat] || seatBase("oanquan", seat)} · captured ${view.captures[seat]}`;
  const short = (seat) => `player ${seat + 1}: ${view.captures[seat]}`;
  if (layout.two) {
    root.append(s("text", { x: 110, y: 16, "font-size": 13, fill: SEAT_COLOURS[1], "font-weight": mover === 1 ? 700 : 400 }, (mover === 1 ? "▸ " : "") + tag(1)));
    root.append(s("text", { x: 110, y: 284, "font-size": 13, fill: SEAT_COLOURS[0], "font-weight": mover === 0 ? 700 : 400 }, (mover === 0 ? "▸ " : "") + tag(0)));
  } else {
    view.captures.forEach((_, seat) => {
      const a = cells[6 * ((seat + view.players - 1) % view.players) + 5], b = cells[6 * seat + 5];
      const mx = (a.cx + b.cx) / 2, my = (a.cy + b.cy) / 2;
      const dx = mx - layout.cx, dy = my - layout.cy, d = Math.hypot(dx, dy) || 1;
      const label = s("text", { x: layout.cx + (dx / d) * (d - 80), y: layout.cy + (dy / d) * (d - 80) + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[seat], "font-weight": mover === seat ? 700 : 400 }, (mover === seat ? "▸ " : "") + short(seat));
      label.append(s("title", {}, tag(seat)));
      root.append(label);
    });
  }
  return root;
}

function drawBoard(view, opts) {
  return view.family === "mnk" ? drawMnk(view, opts) : drawOanQuan(view, opts);
}

// Plays a sowing step by step on a copy of `before`, drawing each step into `target`, then
// stops; `still()` says whether to go on (a newer position cancels it).
async function animateSowing(target, before, steps, opts, stepMs, still) {
  const view = JSON.parse(JSON.stringify(before));
  const captured = new Set();
  let hand = 0, active = null;
  const draw = () => {
    target.replaceChildren(drawOanQuan(view, { ...opts, active, hand, captured, selectable: null, selected: null, hint: null }));
  };
  for (const step of steps) {
    if (!still()) return false;
    if (step.step === "refill") {
      for (const cell of view.cells) if (cell.owner === step.seat && !cell.mandarin) cell.seeds = 1;
      view.captures[step.seat] -= 5;
    } else if (step.step === "pick") {
      hand = step.seeds;
      active = step.cell;
      view.cells[step.cell].seeds = 0;
      view.cells[step.cell].value = view.cells[step.cell].piece ? view.mandarin_value : 0;
    } else if (step.step === "drop") {
      hand -= 1;
      active = step.cell;
      const cell = view.cells[step.cell];
      cell.seeds += 1;
      cell.value += 1;
    } else if (step.step === "capture") {
      active = step.cell;
      captured.add(step.cell);
      const cell = view.cells[step.cell];
      view.captures[step.seat] += step.value;
      cell.seeds = 0;
      cell.piece = false;
      cell.value = 0;
    }
    draw();
    await sleep(step.step === "capture" ? stepMs * 4 : step.step === "pick" ? stepMs * 2 : stepMs);
  }
  return still();
}

// ---------------------------------------------------------------- pages

const pages = ["play", "analyse", "replay", "report", "stats"];
let page = null;
let meta = null;

function showPage() {
  const wanted = location.hash.replace("#", "") || "play";
  const next = pages.includes(wanted) ? wanted : "play";
  for (const name of pages) $(`page-${name}`).hidden = name !== next;
  for (const link of document.querySelectorAll("#tabs a")) link.classList.toggle("active", link.dataset.page === next);
  const first = page !== next;
  page = next;
  document.title = `arena · ${next[0].toUpperCase()}${next.slice(1)}`;
  if (first) {
    if (next === "replay") Replay.open();
    if (next === "report") Report.open();
    if (next === "stats") Stats.open();
    if (next === "analyse") Analyse.open();
    if (next === "play") Play.resume();
  }
}

// ---------------------------------------------------------------- Play

const Play = {
  game: null,
  gen: 0,
  busy: false,
  selected: null,
  cursor: null,
  hint: null,
  paused: false,
  timer: null,
  animating: false,
  clockEnd: null,
  clockLimit: null,
  clockFrame: null,
  lastRequest: null,
  variant: null,

  init() {
    $("setup").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("family").addEventListener("change", () => { this.showFamilyParams(); this.buildId(); });
    for (const id of ["rows", "cols", "k", "rule", "center", "oq-players", "oq-mandarin", "oq-young", "oq-stop", "oq-end"]) {
      $(id).addEventListener("input", () => this.buildId());
      $(id).addEventListener("change", () => this.buildId());
    }
    let debounce = null;
    $("variant").addEventListener("input", () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => this.lookUp($("variant").value.trim(), true), 250);
    });
    for (const button of document.querySelectorAll("#modes button")) {
      button.addEventListener("click", () => this.mode(button.dataset.mode));
    }
    $("undo").addEventListener("click", () => this.undo());
    $("hint").addEventListener("click", () => this.askHint());
    $("resign").addEventListener("click", () => this.resign());
    $("new").addEventListener("click", () => this.leave());
    $("pause").addEventListener("click", () => this.togglePause());
    $("speed").addEventListener("input", () => this.showSpeed());
    $("sow-left").addEventListener("click", () => { if (this.selected !== null) this.sow(this.selected, this.arrowDir("left")); });
    $("sow-right").addEventListener("click", () => { if (this.selected !== null) this.sow(this.selected, this.arrowDir("right")); });
    this.showSpeed();
  },

  presets() {
    const box = $("presets");
    box.replaceChildren(...meta.presets.map((preset) =>
      h("button", { type: "button", "data-variant": preset.id, title: `${preset.id}: ${preset.about}`, onclick: () => { $("variant").value = preset.id; this.lookUp(preset.id, true); } }, preset.label)));
  },

  showFamilyParams() {
    const family = $("family").value;
    $("mnk-params").hidden = family !== "mnk";
    $("oanquan-params").hidden = family !== "oanquan";
  },

  // The variant id from the parameter fields.
  buildId() {
    let id;
    if ($("family").value === "mnk") {
      id = `mnk-${$("rows").value}x${$("cols").value}k${$("k").value}`;
      if ($("rule").value) id += `-${$("rule").value}`;
      if ($("center").checked) id += "-center";
    } else {
      id = "oanquan";
      if ($("oq-players").value !== "2") id += `-${$("oq-players").value}p`;
      if ($("oq-mandarin").value !== "10") id += `-mandarin${$("oq-mandarin").value}`;
      if ($("oq-stop").checked) id += "-stop";
      if ($("oq-young").value !== "0") id += `-young${$("oq-young").value}`;
      if ($("oq-end").checked) id += "-end";
    }
    $("variant").value = id;
    this.lookUp(id, false);
  },

  // Asks the server what a variant id is: players, presets, or what is wrong with it.
  async lookUp(id, syncFields) {
    const note = $("variant-note");
    try {
      const variant = await api("GET", `/api/variant?id=${encodeURIComponent(id)}`);
      this.variant = variant;
      note.classList.remove("bad");
      note.textContent = `${variant.id}: ${variant.players} players; easy is ${variant.easy}, hard is ${variant.hard}`;
      for (const chip of document.querySelectorAll("#presets button")) chip.classList.toggle("on", chip.dataset.variant === id);
      if (syncFields) {
        $("family").value = variant.family;
        this.showFamilyParams();
        const b = variant.board;
        if (variant.family === "mnk") {
          $("rows").value = b.rows; $("cols").value = b.cols; $("k").value = b.k;
          $("rule").value = b.rule === "freestyle" ? "" : b.rule;
          $("center").checked = b.center;
        } else {
          $("oq-players").value = String(variant.players);
          $("oq-mandarin").value = b.mandarin_value; $("oq-young").value = b.young;
          $("oq-stop").checked = b.stop; $("oq-end").checked = b.end;
        }
      }
      this.seatRows();
    } catch (error) {
      this.variant = null;
      note.classList.add("bad");
      note.textContent = error.message;
    }
  },

  // One row per seat: a person (with a name) or an agent (easy, hard, random, or any spec).
  seatRows() {
    const variant = this.variant;
    const box = $("seats");
    const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
      who: row.querySelector("select").value,
      text: row.querySelector("input").value,
    }));
    const saved = localStorage.getItem("arena.name") || meta.name;
    box.replaceChildren();
    for (let seat = 0; seat < variant.players; seat++) {
      const previous = old[seat] || { who: seat === 0 ? "person" : "hard", text: "" };
      const select = h("select", { "aria-label": `who plays ${seatBase(variant.family, seat)}` },
        h("option", { value: "person" }, "Person"),
        h("option", { value: "easy" }, "Easy AI"),
        h("option", { value: "hard" }, "Hard AI"),
        h("option", { value: "random" }, "Random"),
        h("option", { value: "custom" }, "Any agent…"));
      select.value = previous.who;
      const input = h("input", { spellcheck: "false", list: "spec-list" });
      const sync = () => {
        const who = select.value;
        input.disabled = who === "easy" || who === "hard" || who === "random";
        if (who === "person") {
          input.placeholder = "name";
          if (!input.value || old.length === 0 || previous.who !== "person") input.value = saved;
        } else if (who === "custom") {
          input.placeholder = "spec, like mcts:iterations=20000";
          if (previous.who !== "custom") input.value = "";
        } else {
          input.value = who === "easy" ? variant.easy : who === "hard" ? variant.hard : "random";
        }
      };
      input.value = previous.text;
      select.addEventListener("change", () => { previous.who = null; sync(); this.markMode(); });
      sync();
      box.append(h("div", { class: "seat-row" },
        h("span", { class: "who" }, h("span", { class: "dot", style: `background:${SEAT_COLOURS[seat]}` }), seatBase(variant.family, seat)),
        select, input));
    }
    this.markMode();
  },

  mode(name) {
    const rows = [...$("seats").querySelectorAll(".seat-row")];
    rows.forEach((row, seat) => {
      const select = row.querySelector("select");
      select.value = name === "pvp" ? "person" : name === "demo" ? "hard" : seat === 0 ? "person" : name;
      select.dispatchEvent(new Event("change"));
    });
    this.markMode();
  },

  markMode() {
    const whos = [...$("seats").querySelectorAll("select")].map((select) => select.value);
    const mode = whos.every((w) => w === "person") ? "pvp"
      : whos.every((w) => w !== "person") ? (whos.every((w) => w === "hard") ? "demo" : null)
        : whos.filter((w) => w === "person").length === 1 && whos.every((w) => w === "person" || w === "easy") ? "easy"
          : whos.filter((w) => w === "person").length === 1 && whos.every((w) => w === "person" || w === "hard") ? "hard" : null;
    for (const button of document.querySelectorAll("#modes button")) button.classList.toggle("on", button.dataset.mode === mode);
  },

  async start(request) {
    if (!request) {
      if (!this.variant) return toast("choose a variant first");
      const seats = [], names = [];
      for (const row of $("seats").querySelectorAll(".seat-row")) {
        const who = row.querySelector("select").value;
        const text = row.querySelector("input").value.trim();
        if (who === "person") {
          seats.push("human");
          names.push(text || null);
          if (text) localStorage.setItem("arena.name", text);
        } else {
          seats.push(text);
          names.push(null);
        }
      }
      request = { variant: this.variant.id, seats, names };
      const time = parseFloat($("move-time").value);
      if (!Number.isNaN(time)) request.move_time = time;
      const seed = $("seed").value.trim();
      if (seed !== "") request.seed = Number(seed);
    }
    try {
      const game = await api("POST", "/api/games", request);
      this.lastRequest = request;
      sessionStorage.setItem("arena.game", game.id);
      this.paused = false;
      this.begin(game);
    } catch (error) {
      toast(error.message);
    }
  },

  // Shows `game` from scratch (a new game, or one taken up again after a reload).
  begin(game) {
    this.gen += 1;
    this.game = game;
    this.selected = null;
    this.hint = null;
    this.cursor = null;
    $("setup").hidden = true;
    $("game").hidden = false;
    this.render();
    this.next();
  },

  async resume() {
    const id = sessionStorage.getItem("arena.game");
    // Back on the page: agents go on where they stopped.
    if (this.game) { this.next(); return; }
    if (!id) return;
    try {
      const game = await api("GET", `/api/games/${id}`);
      this.begin(game);
    } catch (error) {
      sessionStorage.removeItem("arena.game");
    }
  },

  leave() {
    const game = this.game;
    if (game && !game.over && game.ply > 0 && !confirm("Leave this game? A game left unfinished is not recorded.")) return;
    this.gen += 1;
    this.stopClock();
    clearTimeout(this.timer);
    this.game = null;
    sessionStorage.removeItem("arena.game");
    $("game").hidden = true;
    $("setup").hidden = false;
    $("start").focus();
  },

  agentsOnly() {
    return this.game && this.game.seats.every((seat) => !seat.person);
  },

  personToMove() {
    const game = this.game;
    return game && !game.over && game.to_move !== null && game.seats[game.to_move].person;
  },

  render() {
    const game = this.game;
    const view = game.position;
    if (game.over) {
      // A hint is for a move still to play.
      this.hint = null;
      $("hint-text").hidden = true;
    }
    const names = game.seats.map((seat) => seat.label);
    const interactive = this.personToMove() && !this.busy && !this.animating;
    const last = game.history.length ? game.history[game.history.length - 1].place : null;
    const opts = { names, last };
    if (view.family === "mnk") {
      if (interactive) opts.onCell = (i, r, c) => this.move(`${r},${c}`);
      if (this.hint) opts.hint = this.hint.cell;
      if (interactive && this.cursor !== null) opts.cursor = this.cursor;
    } else {
      if (interactive) {
        opts.selectable = view.to_move;
        opts.selected = this.selected;
        opts.onSquare = (i) => { this.selected = i; this.render(); };
        opts.onSow = (i, dir) => this.sow(i, dir);
      }
      if (this.hint) opts.hint = this.hint;
    }
    if (!this.animating) $("board").replaceChildren(drawBoard(view, opts));
    // Big buttons for the picked square's two sowings, for fingers on a phone.
    const bar = $("sow-bar");
    bar.hidden = !(interactive && view.family === "oanquan" && this.selected !== null);
    if (!bar.hidden) {
      const label = view.cells[this.selected].label;
      $("sow-left").querySelector("span").textContent = `sow ${label}${this.arrowDir("left")}`;
      $("sow-right").querySelector("span").textContent = `sow ${label}${this.arrowDir("right")}`;
    }
    $("oq-line").textContent = view.family === "oanquan" ? view.line : "";
    const preset = meta.presets.find((p) => p.id === game.variant || (p.id === "tictactoe" && game.variant === "mnk-3x3k3")
      || (p.id === "gomoku" && game.variant === "mnk-15x15k5") || (p.id === "caro" && game.variant === "mnk-15x15k5-caro"));
    $("game-title").textContent = preset ? preset.label : game.variant;
    $("game-seed").textContent = `${game.variant} · seed ${game.seed}`;
    $("game-seats").replaceChildren(...game.seats.map((seat, i) => {
      const score = view.family === "oanquan" ? `${view.captures[i]}` : "";
      return h("li", { class: game.to_move === i ? "turn" : "" },
        h("span", { class: "dot", style: `background:${SEAT_COLOURS[i]}` }),
        h("span", { class: "name", title: seat.label }, seat.label),
        game.thinking && game.to_move === i ? h("span", { class: "spinner" }) : null,
        h("span", { class: "score" }, score));
    }));
    const moves = $("move-list");
    moves.replaceChildren(...game.history.map((ply, i) => h("li", {
      class: i === game.history.length - 1 ? "now" : "",
      title: ply.stats ? statsText(ply.stats) : `${ms(ply.ms)} to think`,
      style: `--seat:${SEAT_COLOURS[ply.seat]}`,
    }, ply.move)));
    const lastPly = game.history[game.history.length - 1];
    $("last-move").textContent = lastPly && lastPly.stats
      ? `${game.seats[lastPly.seat].label} played ${lastPly.move}: ${statsText(lastPly.stats)}`
      : "";
    moves.parentElement.scrollTop = moves.parentElement.scrollHeight;
    const over = game.over;
    $("turn-buttons").hidden = !!over;
    $("undo").disabled = !game.can_undo || this.busy;
    $("hint").disabled = !this.personToMove() || this.busy;
    $("resign").disabled = !!over || !game.seats.some((seat) => seat.person);
    $("speed-box").hidden = !this.agentsOnly() || !!over;
    $("pause").textContent = this.paused ? "Go on" : "Pause";
    const result = $("result");
    result.hidden = !over;
    if (over) {
      const recorded = game.recorded
        ? game.recorded.error ? `not recorded: ${game.recorded.error}` : `recorded in ${game.recorded.file}, game ${game.recorded.game}`
        : "";
      result.replaceChildren(
        h("strong", {}, `${over.result} · ${over.summary}`),
        h("div", { class: "note" }, [
          over.termination === "win" || over.termination === "draw" ? null : over.termination,
          `${game.ply} ${game.ply === 1 ? "move" : "moves"}`,
          recorded,
        ].filter(Boolean).join(" · ")),
        h("div", { class: "buttons" },
          h("button", { class: "primary", onclick: () => this.start(this.lastRequest || this.requestOf(game)) }, "Play again"),
          h("button", { onclick: () => Analyse.openWith(game.variant, game.moves) }, "Analyse"),
          h("button", { onclick: () => this.leave() }, "New game")));
    }
    this.status();
  },

  requestOf(game) {
    return {
      variant: game.variant,
      seats: game.seats.map((seat) => (seat.person ? "human" : seat.spec)),
      names: game.seats.map((seat) => (seat.person ? seat.name : null)),
      move_time: game.move_time_ms ? game.move_time_ms / 1000 : undefined,
    };
  },

  status(text) {
    const box = $("status");
    const game = this.game;
    if (text) return box.replaceChildren(text);
    if (game.over) return box.replaceChildren(`Game over: ${game.over.summary}`);
    const seat = game.seats[game.to_move];
    if (this.busy && !seat.person) {
      return box.replaceChildren(h("span", { class: "spinner" }), `${seat.label} is thinking…`);
    }
    if (seat.person) {
      const how = game.position.family === "mnk" ? "click a cell" : "click one of your squares, then an arrow";
      const refill = game.position.must_refill ? " (your side is empty: one seed goes on each square, paid from your captures)" : "";
      return box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, ` · ${how}${refill}`));
    }
    box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, this.paused ? " · paused" : ""));
  },

  showSpeed() {
    const delay = Number($("speed").value);
    $("speed-text").textContent = delay === 0 ? "no pause" : `${(delay / 1000).toFixed(1)} s`;
  },

  togglePause() {
    if (!this.agentsOnly()) return;
    this.paused = !this.paused;
    this.render();
    if (!this.paused) this.next();
  },

  // Whose turn now: the person's clock, or the agent's move after a short pause.
  async next() {
    clearTimeout(this.timer);
    if (this.busy || this.animating) return;
    const game = this.game;
    const gen = this.gen;
    if (!game || game.over) { this.stopClock(); return; }
    const seat = game.seats[game.to_move];
    if (seat.person) {
      if (game.move_time_ms) {
        try {
          const answer = await api("POST", `/api/games/${game.id}/ready`, { ply: game.ply });
          if (gen !== this.gen) return;
          this.game = answer.game;
          if (answer.game.over) { this.render(); return; }
          this.startClock(answer.game.clock_ms, game.move_time_ms);
        } catch (error) {
          toast(error.message);
        }
      }
      return;
    }
    this.stopClock();
    if (this.paused) return;
    const delay = this.agentsOnly() ? Number($("speed").value) : 250;
    this.timer = setTimeout(() => { if (gen === this.gen && page === "play") this.think(); }, delay);
  },

  async think() {
    const game = this.game;
    const gen = this.gen;
    this.busy = true;
    this.render();
    try {
      const answer = await api("POST", `/api/games/${game.id}/think`, { ply: game.ply });
      if (gen !== this.gen) return;
      await this.apply(answer, gen);
    } catch (error) {
      if (gen !== this.gen) return;
      this.busy = false;
      toast(error.message);
      this.reload();
    }
  },

  // A game view from the server. Answers to moves and hints leave the move list out: the
  // page keeps it, adding the move just played.
  adopt(game, played) {
    if (!game.history) {
      const history = this.game ? this.game.history.slice() : [];
      if (played && played.move) {
        const { sowing, ...entry } = played;
        history.push(entry);
      }
      game.history = history;
    }
    this.game = game;
  },

  // A move came back (the person's or an agent's): animate a sowing, then show the game.
  async apply(answer, gen) {
    const before = this.game.position;
    this.busy = false;
    this.selected = null;
    this.hint = null;
    $("hint-text").hidden = true;
    const played = answer.played;
    this.adopt(answer.game, played);
    if (played && played.sowing && played.sowing.length) {
      this.animating = true;
      this.status(`${answer.game.seats[played.seat].label} sows ${played.move}`);
      const stepMs = this.agentsOnly() ? Math.max(25, Math.min(140, Number($("speed").value) / 8)) : 110;
      const opts = { names: answer.game.seats.map((seat) => seat.label), last: played.place };
      await animateSowing($("board"), before, played.sowing, opts, stepMs, () => gen === this.gen);
      this.animating = false;
      if (gen !== this.gen) return;
    }
    this.render();
    this.next();
  },

  async move(text) {
    if (this.busy || this.animating) return;
    const game = this.game;
    const gen = this.gen;
    this.busy = true;
    this.stopClock();
    try {
      const answer = await api("POST", `/api/games/${game.id}/move`, { move: text, ply: game.ply });
      if (gen !== this.gen) return;
      await this.apply(answer, gen);
    } catch (error) {
      this.busy = false;
      if (gen !== this.gen) return;
      toast(error.message);
      this.reload();
    }
  },

  // The direction letter of the left and right arrows: as drawn for two players (P runs to
  // the right along either row), anticlockwise P on the larger boards.
  arrowDir(side) {
    return side === "right" ? "P" : "T";
  },

  sow(square, dir) {
    const cell = this.game.position.cells[square];
    this.move(`${cell.label}${dir}`);
  },

  async reload() {
    const gen = this.gen;
    try {
      const game = await api("GET", `/api/games/${this.game.id}`);
      if (gen !== this.gen) return;
      this.game = game;
      this.render();
      this.next();
    } catch (error) {
      toast(error.message);
    }
  },

  async undo() {
    const game = this.game;
    if (!game || !game.can_undo || this.busy) return;
    const gen = ++this.gen;
    clearTimeout(this.timer);
    try {
      const answer = await api("POST", `/api/games/${game.id}/undo`, { ply: game.ply });
      if (gen !== this.gen) return;
      this.game = answer.game;
      this.selected = null;
      this.hint = null;
      $("hint-text").hidden = true;
      this.render();
      this.next();
    } catch (error) {
      toast(error.message);
    }
  },

  async askHint() {
    const game = this.game;
    if (!this.personToMove() || this.busy) return;
    const gen = this.gen;
    this.busy = true;
    this.status(h("span", {}, h("span", { class: "spinner" }), ` ${game.hint_agent} looks for a hint…`));
    try {
      const answer = await api("POST", `/api/games/${game.id}/hint`, { ply: game.ply });
      if (gen !== this.gen) return;
      this.busy = false;
      const hint = answer.hint;
      this.adopt(answer.game, null);
      const box = $("hint-text");
      box.hidden = false;
      if (hint.move) {
        this.hint = hint.place;
        box.textContent = `Hint: ${hint.move} — ${hint.reason} (${hint.agent}, ${statsText(hint.stats, false)})`;
      } else {
        box.textContent = hint.reason;
      }
      this.render();
    } catch (error) {
      this.busy = false;
      if (gen === this.gen) { toast(error.message); this.reload(); }
    }
  },

  async resign() {
    const game = this.game;
    if (!game || game.over || !confirm("Resign this game? It is recorded as a loss.")) return;
    const gen = ++this.gen;
    clearTimeout(this.timer);
    try {
      const answer = await api("POST", `/api/games/${game.id}/resign`, {});
      if (gen !== this.gen) return;
      this.busy = false;
      this.game = answer.game;
      this.render();
      this.next();
    } catch (error) {
      toast(error.message);
    }
  },

  startClock(left, limit) {
    this.stopClock();
    $("clock").hidden = false;
    this.clockEnd = performance.now() + left;
    this.clockLimit = limit;
    const gen = this.gen;
    const tick = () => {
      if (gen !== this.gen) return;
      const remaining = Math.max(0, this.clockEnd - performance.now());
      $("clock-bar").style.width = `${(100 * remaining) / this.clockLimit}%`;
      $("clock-text").textContent = `${(remaining / 1000).toFixed(1)} s`;
      $("clock").classList.toggle("low", remaining < 0.25 * this.clockLimit);
      if (remaining <= 0) {
        this.clockFrame = null;
        // The server's clock decides; ask it once its grace is over.
        setTimeout(() => { if (gen === this.gen) this.reload(); }, 600);
        return;
      }
      this.clockFrame = requestAnimationFrame(tick);
    };
    tick();
  },

  stopClock() {
    if (this.clockFrame) cancelAnimationFrame(this.clockFrame);
    this.clockFrame = null;
    $("clock").hidden = true;
  },

  key(event) {
    if ($("game").hidden) {
      if (event.key === "Enter" && document.activeElement === document.body) { event.preventDefault(); this.start(); }
      return;
    }
    const game = this.game;
    if (!game) return;
    const key = event.key;
    if (key === "u") return this.undo();
    if (key === "h") return this.askHint();
    if (key === "n") return game.over ? this.start(this.lastRequest || this.requestOf(game)) : this.leave();
    if (key === " " && this.agentsOnly()) { event.preventDefault(); return this.togglePause(); }
    if (!this.personToMove() || this.busy || this.animating) return;
    const view = game.position;
    if (view.family === "mnk") {
      const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (moves[key]) {
        event.preventDefault();
        const centre = Math.floor(view.rows / 2) * view.cols + Math.floor(view.cols / 2);
        const at = this.cursor === null ? centre : this.cursor;
        const r = Math.min(view.rows - 1, Math.max(0, Math.floor(at / view.cols) + moves[key][0]));
        const c = Math.min(view.cols - 1, Math.max(0, (at % view.cols) + moves[key][1]));
        this.cursor = this.cursor === null ? centre : r * view.cols + c;
        this.render();
      } else if ((key === "Enter" || key === " ") && this.cursor !== null) {
        event.preventDefault();
        this.move(`${Math.floor(this.cursor / view.cols)},${this.cursor % view.cols}`);
      }
      return;
    }
    // O An Quan: a label picks a square (two digits within a moment for 10 and more), an
    // arrow or p/t sows it.
    if (/^[0-9]$/.test(key)) {
      const now = performance.now();
      let label = key === "0" && !this.typed ? 10 : Number(key);
      if (this.typed && now - this.typedAt < 700) label = Number(`${this.typed}${key}`);
      this.typed = key;
      this.typedAt = now;
      const index = view.cells.findIndex((cell) => String(cell.label) === String(label) && cell.owner === view.to_move);
      if (index >= 0) { this.selected = index; this.render(); }
      return;
    }
    if (this.selected !== null) {
      const dir = key === "ArrowRight" || key === "p" || key === "P" ? "P" : key === "ArrowLeft" || key === "t" || key === "T" ? "T" : null;
      if (dir) { event.preventDefault(); this.sow(this.selected, dir); }
      if (key === "Escape") { this.selected = null; this.render(); }
    }
  },
};

// ---------------------------------------------------------------- Analyse

const Analyse = {
  answer: null,
  selected: null,
  opened: false,

  init() {
    $("analyse-form").addEventListener("submit", (e) => { e.preventDefault(); this.run(true); });
    $("an-back").addEventListener("click", () => {
      const moves = $("an-moves").value.trim().split(/\s+/).filter(Boolean);
      moves.pop();
      $("an-moves").value = moves.join(" ");
      this.run(false);
    });
    let debounce = null;
    for (const id of ["an-variant", "an-moves"]) {
      $(id).addEventListener("input", () => { clearTimeout(debounce); debounce = setTimeout(() => this.run(false), 350); });
    }
  },

  open() {
    if (!this.opened) { this.opened = true; this.run(false); }
  },

  openWith(variant, moves) {
    $("an-variant").value = variant;
    $("an-moves").value = moves;
    this.opened = true;
    location.hash = "#analyse";
    this.run(false);
  },

  // The position (and with `full`, the solver and the agents) for the form's move list.
  async run(full) {
    const request = { variant: $("an-variant").value.trim(), moves: $("an-moves").value.trim(), agents: [], solve: false };
    if (full) {
      request.agents = $("an-agents").value.split("\n").map((line) => line.trim()).filter(Boolean);
      request.solve = $("an-solve").checked;
      $("an-status").replaceChildren(h("span", { class: "spinner" }), " thinking…");
      $("an-run").disabled = true;
    }
    try {
      const answer = await api("POST", "/api/analyse", request);
      this.answer = answer;
      this.selected = null;
      this.draw();
      this.results(full);
    } catch (error) {
      $("an-status").textContent = error.message;
      if (full) toast(error.message);
    } finally {
      $("an-run").disabled = false;
    }
  },

  draw() {
    const answer = this.answer;
    const view = answer.position;
    const last = answer.moves.length ? answer.moves[answer.moves.length - 1].place : null;
    const opts = { last };
    const add = (text) => {
      $("an-moves").value = `${$("an-moves").value.trim()} ${text}`.trim();
      this.run(false);
    };
    if (!answer.over) {
      if (view.family === "mnk") opts.onCell = (i, r, c) => add(`${r},${c}`);
      else {
        opts.selectable = view.to_move;
        opts.selected = this.selected;
        opts.onSquare = (i) => { this.selected = i; this.draw(); };
        opts.onSow = (i, dir) => add(`${view.cells[i].label}${dir}`);
      }
    }
    if (answer.solver && answer.solver.moves && view.family === "mnk") {
      opts.values = {};
      for (const entry of answer.solver.moves) opts.values[entry.place.cell] = entry.value || "?";
    }
    $("an-board").replaceChildren(drawBoard(view, opts));
    $("an-line").textContent = view.family === "oanquan" ? view.line : "";
    const mover = seatBase(view.family, view.to_move);
    $("an-status").textContent = answer.over
      ? `Game over after ${answer.moves.length} moves: ${answer.over}`
      : `After ${answer.moves.length} moves, ${mover} to move`;
  },

  results(full) {
    const answer = this.answer;
    const box = $("an-results");
    if (!full) {
      box.replaceChildren(h("p", { class: "note" }, "Click the board to add moves, then Analyse (the solver's value and what each agent plays)."));
      return;
    }
    const parts = [];
    const solver = answer.solver;
    if (solver && solver.note) parts.push(h("p", { class: "note" }, solver.note));
    else if (solver) {
      const mover = seatBase(answer.position.family, answer.position.to_move);
      const verb = { win: "wins", draw: "draws", loss: "loses" }[solver.value];
      parts.push(h("h2", {}, "Exact value"));
      parts.push(h("p", {}, solver.value
        ? `${mover} ${verb} with best play (${solver.outcome}).`
        : `Not decided within the solver's limits (searched ${solver.depth} plies).`));
      if (solver.value && solver.value !== "loss") parts.push(h("p", { class: "note" }, `${solver.value === "win" ? "Winning" : "Drawing"} moves: ${solver.best.join(" ")}`));
      if (solver.moves.length && answer.position.family === "mnk") {
        parts.push(h("p", { class: "note" }, "On the board: each move's value for the side to move (W win, D draw, L loss)."));
      } else if (solver.moves.length) {
        parts.push(h("p", { class: "note" }, `Every move: ${solver.moves.map((m) => `${m.move} ${m.value || "?"}`).join(", ")}`));
      }
      parts.push(h("p", { class: "note" }, `${count(solver.nodes)} nodes in ${ms(solver.ms)}${solver.complete ? "" : " (incomplete)"}`));
    }
    if (answer.agents.length) {
      parts.push(h("h2", { style: "margin-top:1rem" }, "What the agents play"));
      parts.push(h("ul", { class: "answers" }, answer.agents.map((a) => h("li", {},
        h("div", {}, h("span", { class: "agent" }, a.agent), a.error ? null : h("strong", {}, a.move)),
        h("div", { class: "note" }, a.error ? a.error : statsText(a.stats))))));
    }
    if (!parts.length) parts.push(h("p", { class: "note" }, answer.over ? "The game is over: there is nothing to choose." : "Ask for the exact value or some agents."));
    box.replaceChildren(...parts);
  },
};

// ---------------------------------------------------------------- Replay

const Replay = {
  file: null,
  offset: 0,
  total: 0,
  limit: 100,
  game: null,
  ply: 0,
  row: null,
  gen: 0,
  asked: 0,

  init() {
    $("rp-file").addEventListener("change", () => {
      this.file = $("rp-file").value;
      this.offset = 0;
      $("rp-agent").value = "";
      $("rp-result").value = "";
      $("rp-variant").value = "";
      this.list(true);
    });
    for (const id of ["rp-variant", "rp-result"]) $(id).addEventListener("change", () => { this.offset = 0; this.list(false); });
    let debounce = null;
    $("rp-agent").addEventListener("input", () => { clearTimeout(debounce); debounce = setTimeout(() => { this.offset = 0; this.list(false); }, 300); });
    $("rp-prev").addEventListener("click", () => { this.offset = Math.max(0, this.offset - this.limit); this.list(false); });
    $("rp-next").addEventListener("click", () => { this.offset += this.limit; this.list(false); });
    $("rp-first").addEventListener("click", () => this.step(-Infinity));
    $("rp-back").addEventListener("click", () => this.step(-1));
    $("rp-fwd").addEventListener("click", () => this.step(1));
    $("rp-last").addEventListener("click", () => this.step(Infinity));
    $("rp-ply").addEventListener("input", () => this.go(Number($("rp-ply").value)));
    $("rp-copy").addEventListener("click", () => this.copy());
    $("rp-analyse").addEventListener("click", () => {
      if (!this.game) return;
      Analyse.openWith(this.game.variant, this.game.moves.slice(0, this.ply).map((m) => m.move).join(" "));
    });
  },

  async open() {
    try {
      const answer = await api("GET", "/api/records");
      const files = answer.files.map((f) => f.file);
      $("rp-file").replaceChildren(...files.map((file) => h("option", { value: file }, file)));
      if (!files.length) {
        $("rp-count").textContent = `no game CSVs under ${answer.results} yet`;
        return;
      }
      const wanted = this.file && files.includes(this.file) ? this.file : files.includes("play/games.csv") ? "play/games.csv" : files[0];
      $("rp-file").value = wanted;
      this.file = wanted;
      this.list(true);
    } catch (error) {
      toast(error.message);
    }
  },

  async list(newFile) {
    if (!this.file) return;
    const query = new URLSearchParams({ file: this.file, offset: this.offset, limit: this.limit });
    if (!newFile && $("rp-variant").value) query.set("variant", $("rp-variant").value);
    if ($("rp-agent").value.trim()) query.set("agent", $("rp-agent").value.trim());
    if ($("rp-result").value) query.set("result", $("rp-result").value);
    // Answers can overtake each other: only the latest list is shown.
    const asked = ++this.asked;
    try {
      const answer = await api("GET", `/api/records/games?${query}`);
      if (asked !== this.asked) return;
      this.total = answer.total;
      if (newFile) {
        $("rp-variant").replaceChildren(h("option", { value: "" }, "any"), ...answer.variants.map((v) => h("option", { value: v }, v)));
        $("rp-agents").replaceChildren(...answer.agents.map((a) => h("option", { value: a })));
      }
      const body = $("rp-games").querySelector("tbody");
      body.replaceChildren(...answer.games.map((g) => h("tr", { "data-row": g.row, class: this.row === g.row ? "on" : "", onclick: () => this.show(g.row) },
        h("td", {}, g.game), h("td", {}, g.variant), h("td", {}, g.seats.join(" – ")), h("td", {}, g.result), h("td", {}, g.termination), h("td", { class: "num" }, g.plies))));
      const end = Math.min(this.total, this.offset + answer.games.length);
      $("rp-count").textContent = this.total ? `games ${this.offset + 1}–${end} of ${this.total}` : "no game matches";
      $("rp-prev").disabled = this.offset === 0;
      $("rp-next").disabled = end >= this.total;
    } catch (error) {
      toast(error.message);
    }
  },

  async show(row) {
    try {
      const game = await api("GET", `/api/records/game?file=${encodeURIComponent(this.file)}&row=${row}`);
      this.game = game;
      this.row = row;
      for (const tr of $("rp-games").querySelectorAll("tbody tr")) tr.classList.toggle("on", Number(tr.dataset.row) === row);
      $("rp-view").hidden = false;
      $("rp-title").textContent = `${game.variant}: ${game.seats.join(" – ")}`;
      $("rp-meta").textContent = `${game.file}, game ${game.game} (${game.experiment}), seed ${game.seed}: ${game.result} by ${game.termination}, ${game.plies} plies`;
      $("rp-ply").max = game.moves.length;
      $("rp-moves").replaceChildren(...game.moves.map((m, i) => h("li", { onclick: () => this.go(i + 1), style: `--seat:${SEAT_COLOURS[m.seat]}` }, m.move)));
      this.go(0);
      $("rp-view").scrollIntoView({ behavior: "smooth", block: "nearest" });
    } catch (error) {
      toast(error.message);
    }
  },

  step(delta) {
    if (!this.game) return;
    const target = Math.max(0, Math.min(this.game.moves.length, this.ply + delta));
    this.go(target, delta === 1);
  },

  async go(ply, animate = false) {
    const game = this.game;
    const gen = ++this.gen;
    const before = game.positions[this.ply];
    this.ply = ply;
    const view = game.positions[ply];
    const last = ply > 0 ? game.moves[ply - 1].place : null;
    const names = game.seats.map((name, i) => `${seatBase(view.family, i)} (${name})`);
    if (animate && view.family === "oanquan" && ply > 0 && game.moves[ply - 1].sowing) {
      await animateSowing($("rp-board"), before, game.moves[ply - 1].sowing, { names, last }, 45, () => gen === this.gen);
      if (gen !== this.gen) return;
    }
    $("rp-board").replaceChildren(drawBoard(view, { names, last }));
    $("rp-line").textContent = view.family === "oanquan" ? view.line : "";
    $("rp-ply").value = ply;
    const end = ply === game.moves.length ? ` · end: ${game.result} (${game.termination})` : "";
    $("rp-status").textContent = `move ${ply} of ${game.moves.length}${ply > 0 ? `: ${game.moves[ply - 1].move}` : ""}${end}`;
    $("rp-status").dataset.ply = ply;
    [...$("rp-moves").children].forEach((li, i) => li.classList.toggle("now", i === ply - 1));
  },

  async copy() {
    if (!this.game) return;
    const text = this.game.moves.map((m) => m.move).join(" ");
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      const area = h("textarea", {}, text);
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    toast(`copied ${this.game.moves.length} moves: arena replay ${this.game.variant} "${text.length > 60 ? text.slice(0, 60) + "…" : text}"`);
  },

  key(event) {
    if (!this.game || typing()) return;
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (keys[event.key] !== undefined) { event.preventDefault(); this.step(keys[event.key]); }
    if (event.key === "c") this.copy();
  },
};

// ---------------------------------------------------------------- Report

const Report = {
  folders: [],

  init() {
    $("rep-dir").addEventListener("change", () => this.show());
    $("rep-write").addEventListener("click", () => this.write());
  },

  async open() {
    try {
      const answer = await api("GET", "/api/reports");
      this.folders = answer.folders;
      if (!this.folders.length) {
        $("rep-body").replaceChildren(h("p", { class: "note" }, `No results under ${answer.results} yet: run an experiment with arena run, or play a game.`));
        return;
      }
      const current = $("rep-dir").value;
      $("rep-dir").replaceChildren(...this.folders.map((f) => h("option", { value: f.dir }, `${f.dir || "(results)"}${f.report ? "" : " · no report yet"}`)));
      const pick = this.folders.find((f) => f.dir === current) || this.folders.find((f) => f.dir === "default" && f.report) || this.folders.find((f) => f.report) || this.folders[0];
      $("rep-dir").value = pick.dir;
      this.show();
    } catch (error) {
      toast(error.message);
    }
  },

  async show() {
    const dir = $("rep-dir").value;
    const folder = this.folders.find((f) => f.dir === dir);
    $("rep-write").disabled = !folder || !folder.games;
    $("rep-write").textContent = folder && folder.report ? "Rewrite report" : "Write report";
    try {
      const answer = await api("GET", `/api/report?dir=${encodeURIComponent(dir)}`);
      const body = $("rep-body");
      body.innerHTML = answer.html;
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note" }, error.message));
    }
  },

  async write() {
    const dir = $("rep-dir").value;
    $("rep-write").disabled = true;
    $("rep-body").replaceChildren(h("p", {}, h("span", { class: "spinner" }), " writing the report (ratings with bootstrap intervals, charts)…"));
    try {
      const answer = await api("POST", "/api/report", { dir });
      $("rep-body").innerHTML = answer.html;
      await this.open();
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    } finally {
      $("rep-write").disabled = false;
    }
  },
};

// ---------------------------------------------------------------- Stats

const Stats = {
  init() {
    $("st-name").addEventListener("change", () => this.open());
  },

  async open() {
    const name = $("st-name").value;
    try {
      const answer = await api("GET", `/api/stats${name ? `?name=${encodeURIComponent(name)}` : ""}`);
      const select = $("st-name");
      const current = select.value;
      select.replaceChildren(h("option", { value: "" }, "everyone"), ...answer.people.map((p) => h("option", { value: p }, p)));
      select.value = answer.people.includes(current) ? current : "";
      const stats = answer.stats;
      $("st-note").textContent = `From the play record ${answer.record}: every finished game, in the terminal and here. In a terminal: arena play --stats${name ? ` --name "${name}"` : ""}.`;
      const body = $("st-body");
      if (!stats.games) {
        body.replaceChildren(h("p", { class: "note" }, "No games yet. Play one, and it shows here."));
        return;
      }
      const row = (cells, cls = "") => h("tr", { class: cls }, cells.map((c, i) => h("td", { class: i > 1 ? "num" : "" }, c)));
      body.replaceChildren(
        h("h2", {}, `${stats.games} ${stats.games === 1 ? "game" : "games"}${stats.name ? ` of ${stats.name}` : ""}`),
        h("div", { class: "table-wrap" }, h("table", {},
          h("thead", {}, h("tr", {}, ["mode", "counted for", "games", "wins", "draws", "losses"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.modes.map((m) => row([m.mode, m.view, m.tally.games, m.tally.wins, m.tally.draws, m.tally.losses])))))
        ,
        stats.levels.length ? h("h2", { style: "margin-top:1rem" }, "Against each AI level") : null,
        stats.levels.length ? h("div", { class: "table-wrap" }, h("table", {},
          h("thead", {}, h("tr", {}, ["variant", "level", "games", "W-D-L", "win rate"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.levels.map((l) => h("tr", {},
            h("td", {}, l.variant), h("td", {}, l.level), h("td", { class: "num" }, l.tally.games),
            h("td", { class: "num" }, `${l.tally.wins}-${l.tally.draws}-${l.tally.losses}`),
            h("td", { class: "num" }, h("span", { class: "rate", style: `width:${Math.round(60 * l.win_rate)}px` }), `${(100 * l.win_rate).toFixed(1)}%`)))))) : null,
        h("p", { class: "note" }, "The ratings of people against each agent: Report, or arena report on the play record."));
    } catch (error) {
      $("st-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    }
  },
};

// ---------------------------------------------------------------- start

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?" && !typing()) { event.preventDefault(); $("help").showModal(); return; }
  if (event.key === "Escape") { Play.selected = null; if (Play.game) Play.render(); return; }
  if (typing() && event.key !== "Enter") return;
  if (page === "play") Play.key(event);
  else if (page === "replay") Replay.key(event);
});

async function main() {
  Play.init();
  Analyse.init();
  Replay.init();
  Report.init();
  Stats.init();
  $("help-button").addEventListener("click", () => $("help").showModal());
  try {
    meta = await api("GET", "/api/meta");
  } catch (error) {
    toast(error.message);
    return;
  }
  $("variant-list").replaceChildren(...meta.presets.map((p) => h("option", { value: p.id }, `${p.label}: ${p.about}`)));
  $("spec-list").replaceChildren(...meta.kinds.map((k) => h("option", { value: k.name }, `${k.summary} (${k.reach})`)));
  Play.presets();
  await Play.lookUp($("variant").value, true);
  window.addEventListener("hashchange", showPage);
  showPage();
  document.body.dataset.ready = "1";
}

main();
