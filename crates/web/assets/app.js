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

// A result as the record writes it ("1-0", "1/2-1/2", or places "2-1-3") in words, with the
// seats' names from `view`.
function resultWords(view, result) {
  const parts = result.split("-");
  if (view.players === 2 && parts.length === 2 && !result.includes("/")) {
    const winner = parts[0] === "1" ? 0 : parts[1] === "1" ? 1 : null;
    return winner === null ? "a draw" : `${seatName(view, winner)} wins`;
  }
  if (result.includes("1/2")) return "a draw";
  const order = parts.map((place, seat) => [Number(place), seat]).sort((a, b) => a[0] - b[0]);
  return order.map(([place, seat]) => `${seatName(view, seat)} ${["first", "second", "third", "fourth"][place - 1] || `place ${place}`}`).join(", ");
}

// Text with `code` spans (as the registry's help texts write them) as nodes, the backticks gone.
const withCode = (text) => text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));

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

// Whether keys go to a text field (a slider or a check box takes none of the page's keys).
const typing = () => {
  const el = document.activeElement;
  if (!el) return false;
  if (el.tagName === "INPUT") return !["range", "checkbox", "radio", "button", "submit"].includes(el.type);
  return el.tagName === "TEXTAREA" || el.tagName === "SELECT";
};

// ---------------------------------------------------------------- boards
//
// Every game is drawn from the server's generic position JSON (crates/web/src/board.rs says
// its contract): a grid of cells with stones (with gravity, a person picks a column), or pits
// round a ring of N sides with or without big cells, points per seat, the legal moves with
// their places. Nothing here knows a game by name.

const isGrid = (view) => view.layout.kind === "grid";
const seatName = (view, seat) => (view.seat_names && view.seat_names[seat]) || `player ${seat + 1}`;

// The legal moves of `view`, one object each: [{move, place, forward}] (the server sends them
// as lists, one entry per move, to keep its answers small).
const legalMovesOf = new WeakMap();
function legalMoves(view) {
  const lists = view.moves;
  if (!lists || !lists.text) return [];
  if (!legalMovesOf.has(view)) {
    legalMovesOf.set(view, lists.text.map((move, i) => ({
      move, place: lists.place[i], forward: lists.forward && lists.forward[i] !== null ? lists.forward[i] : undefined,
    })));
  }
  return legalMovesOf.get(view);
}

// The legal moves of `view` by place: place -> [{move, forward}]. A pass has no place: it is
// not here (see `passButtons`).
function movesByPlace(view) {
  const at = new Map();
  for (const entry of legalMoves(view)) {
    if (entry.place === null) continue;
    if (!at.has(entry.place)) at.set(entry.place, []);
    at.get(entry.place).push(entry);
  }
  return at;
}

// A grid: cells, coordinates, stones, the last stone, the winning line, and on demand a hint,
// a keyboard cursor, the solver's value of each move, clicks (`opts.onMove(text)`) and the
// stones the last move turned over (`opts.turned`, a set of places).
function drawGrid(view, opts = {}) {
  const C = 36, M = 24, P = 6;
  const { rows, cols, gravity } = view.layout;
  const width = cols * C + M + P, height = rows * C + M + P;
  const root = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `board ${rows} by ${cols}`, "data-grid": JSON.stringify({ rows, cols }) });
  // Small boards are drawn large, but not as large as the screen.
  root.style.maxWidth = `${Math.max(340, width * 1.9)}px`;
  root.append(s("rect", { x: 0, y: 0, width, height, fill: "var(--card)" }));
  root.append(s("rect", { x: M, y: M, width: cols * C, height: rows * C, fill: gravity ? "#dfe8f5" : "var(--paper)", stroke: "var(--grid)" }));
  const centre = (i) => ({ x: M + (i % cols) * C + C / 2, y: M + Math.floor(i / cols) * C + C / 2 });
  const line = new Set(view.line || []);
  for (let c = 0; c < cols; c++) {
    root.append(s("text", { class: "label", x: M + c * C + C / 2, y: M - 8 }, String.fromCharCode(97 + c)));
  }
  if (!gravity) {
    for (let r = 0; r < rows; r++) root.append(s("text", { class: "label", x: M / 2, y: M + r * C + C / 2 + 4 }, r + 1));
  }
  for (let i = 0; i < rows * cols; i++) {
    const fill = line.has(i) ? "var(--win)" : view.last === i ? "var(--last)" : gravity ? "#f7f9fc" : "none";
    const { x, y } = centre(i);
    if (gravity) root.append(s("circle", { cx: x, cy: y, r: C * 0.42, fill, stroke: "#9fb3cf", "stroke-width": 1 }));
    else root.append(s("rect", { x: x - C / 2, y: y - C / 2, width: C, height: C, fill, stroke: "var(--grid)", "stroke-width": 0.8 }));
  }
  // X is a cross and O a ring; on a board with gravity stones are discs; other seats discs.
  const stone = (i, seat, extra = "") => {
    const { x, y } = centre(i);
    const d = C * 0.28;
    const mark = seatName(view, seat);
    if (!gravity && mark === "X") {
      return s("g", { class: `stone-x ${extra}`, "data-stone": seat },
        s("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }),
        s("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d }));
    }
    if (!gravity && mark === "O") return s("circle", { class: `stone-o ${extra}`, cx: x, cy: y, r: d * 1.15, "data-stone": seat });
    return s("circle", { class: `disc ${extra}`, cx: x, cy: y, r: C * 0.38, fill: SEAT_COLOURS[seat], "data-stone": seat });
  };
  const turned = opts.turned || new Set();
  view.places.forEach((seat, i) => {
    if (seat === null) return;
    const placed = stone(i, seat, turned.has(i) ? "turned" : "");
    if (turned.has(i)) placed.setAttribute("data-turned", i);
    placed.setAttribute("data-at", i);
    root.append(placed);
  });
  drawPieces(root, view, centre, C);
  // The last move and the winning line stand out (3:1 at least, WCAG 1.4.11): a dark ring
  // round the last stone, the line drawn over the stones with a light edge.
  if (view.last !== null && view.last !== undefined && !line.has(view.last)) {
    const { x, y } = centre(view.last);
    root.append(gravity
      ? s("circle", { class: "last-mark", cx: x, cy: y, r: C * 0.45, "data-last": view.last })
      : s("rect", { class: "last-mark", x: x - C / 2 + 2, y: y - C / 2 + 2, width: C - 4, height: C - 4, "data-last": view.last }));
  }
  if (view.line && view.line.length > 1) {
    const a = centre(view.line[0]), b = centre(view.line[view.line.length - 1]);
    const ends = { x1: a.x, y1: a.y, x2: b.x, y2: b.y, "stroke-linecap": "round", "pointer-events": "none" };
    root.append(s("line", { ...ends, stroke: "#ffffff", "stroke-width": 9 }),
      s("line", { ...ends, stroke: "#2e8b57", "stroke-width": 5, "data-line": "1" }));
  }
  if (opts.values) {
    for (const [i, value] of Object.entries(opts.values)) {
      const { x, y } = centre(Number(i));
      // On the board's paper, light in both themes: the light theme's grey there.
      const colour = value === "win" ? "#1e8449" : value === "loss" ? "var(--x)" : "var(--paper-muted, var(--muted))";
      const letter = value === "win" ? "W" : value === "loss" ? "L" : value === "draw" ? "D" : "?";
      root.append(s("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: colour, "pointer-events": "none" }, letter));
    }
  }
  // A hint of a pass has no place: its words say it.
  if (opts.hint !== undefined && opts.hint !== null && opts.hint.place !== null) {
    const { x, y } = centre(opts.hint.place);
    root.append(s("circle", { class: "hint-ring", cx: x, cy: y, r: C * 0.44 }));
  }
  for (const [place, labels] of agentMarks(opts.marks)) {
    const { x, y } = centre(place);
    root.append(agentMark(x, y, C * 0.46, labels, place));
  }
  if (opts.onMove && view.moves && view.moves.from) pieceClicks(root, view, opts, centre, C);
  else if (opts.onMove) {
    const mover = view.to_move;
    for (const [place, [entry]] of movesByPlace(view)) {
      const { x, y } = centre(place);
      const c = place % cols;
      // With gravity the whole column takes the click; the stone shows where it lands.
      const hit = gravity
        ? s("rect", { class: "cell-hit", x: M + c * C + 1, y: M + 1, width: C - 2, height: rows * C - 2, "data-column": c, "data-move": entry.move, onclick: () => opts.onMove(entry.move) })
        : s("rect", { class: "cell-hit", x: x - C / 2 + 1, y: y - C / 2 + 1, width: C - 2, height: C - 2, "data-cell": place, "data-move": entry.move, onclick: () => opts.onMove(entry.move) });
      hit.append(s("title", {}, entry.move));
      const ghost = stone(place, mover, "ghost");
      // A preview, not a stone on the board.
      ghost.removeAttribute("data-stone");
      ghost.style.display = "none";
      ghost.style.pointerEvents = "none";
      hit.addEventListener("mouseenter", () => (ghost.style.display = ""));
      hit.addEventListener("mouseleave", () => (ghost.style.display = "none"));
      root.append(ghost, hit);
    }
  }
  // Tap twice to play: the cell the first tap marked, its stone shown, ringed.
  if (opts.marked !== undefined && opts.marked !== null) {
    const { x, y } = centre(opts.marked);
    const ghost = stone(opts.marked, view.to_move, "ghost");
    ghost.removeAttribute("data-stone");
    ghost.style.pointerEvents = "none";
    root.append(ghost, s("circle", { class: "marked-ring", cx: x, cy: y, r: C * 0.47, "data-marked": opts.marked }));
  }
  if (opts.cursor !== undefined && opts.cursor !== null) {
    const { x, y } = centre(opts.cursor);
    root.append(s("rect", { x: x - C / 2 + 2, y: y - C / 2 + 2, width: C - 4, height: C - 4, fill: "none", stroke: "var(--accent)", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none" }));
  }
  return root;
}

// Pieces that move (issue 35; Breakthrough's pawns): the letter of each piece's kind on it
// (`view.kinds`, capitals for the first seat as chess diagrams write them), and the cell the
// last move's piece came from (`view.last_from`), so the last move reads from-to.
function drawPieces(root, view, centre, C) {
  if (view.kinds) {
    view.kinds.forEach((kind, i) => {
      if (!kind || view.places[i] === null) return;
      const { x, y } = centre(i);
      const letter = view.places[i] === 0 ? kind.toUpperCase() : kind.toLowerCase();
      root.append(s("text", { class: "piece-kind", x, y: y + 5, "text-anchor": "middle", "pointer-events": "none", "data-kind": i }, letter));
    });
  }
  if (view.last_from !== null && view.last_from !== undefined) {
    const { x, y } = centre(view.last_from);
    root.append(s("rect", { class: "last-from", x: x - C / 2 + 3, y: y - C / 2 + 3, width: C - 6, height: C - 6, "data-last-from": view.last_from }));
  }
}

// A move that takes a piece from one cell to another: a click on one of the mover's pieces
// picks it (its targets show as dots; a second click lets it go), a click on a target plays
// the move (`opts.onMove(text)`). The pick lives in the drawing: a new position draws anew.
function pieceClicks(root, view, opts, centre, C) {
  const lists = view.moves;
  const byFrom = new Map();
  lists.text.forEach((move, i) => {
    const from = lists.from[i];
    if (from === null || lists.place[i] === null) return;
    if (!byFrom.has(from)) byFrom.set(from, []);
    byFrom.get(from).push({ move, place: lists.place[i] });
  });
  const box = (i, attrs) => {
    const { x, y } = centre(i);
    return s("rect", { x: x - C / 2 + 1, y: y - C / 2 + 1, width: C - 2, height: C - 2, ...attrs });
  };
  const targets = s("g", { class: "piece-targets" });
  let picked = null;
  const pick = (from) => {
    picked = from;
    targets.replaceChildren();
    if (from === null) return;
    targets.append(box(from, { class: "piece-picked", "data-picked": from, "pointer-events": "none" }));
    for (const entry of byFrom.get(from)) {
      const { x, y } = centre(entry.place);
      const hit = box(entry.place, { class: "cell-hit target-hit", "data-cell": entry.place, "data-move": entry.move, onclick: () => opts.onMove(entry.move) });
      hit.append(s("title", {}, entry.move));
      targets.append(s("circle", { class: "target-dot", cx: x, cy: y, r: C * 0.13, "pointer-events": "none" }), hit);
    }
  };
  for (const [from, moves] of byFrom) {
    const hit = box(from, { class: "cell-hit piece-hit", "data-piece": from, onclick: () => pick(picked === from ? null : from) });
    hit.append(s("title", {}, moves.map((entry) => entry.move).join(" ")));
    root.append(hit);
  }
  root.append(targets);
}

// A piece's traced steps on a copy of a view: `move` takes it (and its kind) from one cell to
// another, `remove` takes a captured one off. True when the step was one of these.
function applyPieceStep(view, step) {
  if (step.step === "move") {
    view.places[step.to] = view.places[step.from];
    view.places[step.from] = null;
    if (view.kinds) {
      view.kinds[step.to] = view.kinds[step.from];
      view.kinds[step.from] = null;
    }
    view.last_from = step.from;
    view.last = step.to;
    return true;
  }
  if (step.step === "remove") {
    view.places[step.place] = null;
    if (view.kinds) view.kinds[step.place] = null;
    return true;
  }
  return false;
}

// The animation of a `move` step: the piece (and its letter), just drawn on its target, slides
// there from the cell it left.
function slidePiece(target, step, stepMs) {
  if (step.step !== "move" || !stepMs) return;
  const svg = target.querySelector("svg");
  const at = svg && svg.querySelector(`[data-at="${step.to}"]`);
  if (!at) return;
  const { cols } = JSON.parse(svg.dataset.grid || "{}");
  if (!cols) return;
  const C = 36;
  const dx = ((step.from % cols) - (step.to % cols)) * C, dy = (Math.floor(step.from / cols) - Math.floor(step.to / cols)) * C;
  for (const el of [at, svg.querySelector(`[data-kind="${step.to}"]`)]) {
    if (el && el.animate) el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: stepMs * 0.9, easing: "ease-out" });
  }
}

// Where each pit of a ring is drawn, and which way on screen a sowing goes. Two seats: the
// classic board, seat 1's pits on top (right to left in ring order), seat 0's below (left to
// right), big cells at the ends; sowing towards increasing ring index runs anticlockwise.
// Three seats and more: a polygon, one side per seat, big cells at the corners.
function ringLayout(view, compact, flip) {
  const layout = ringLayoutUpright(view, compact);
  return flip && layout.two ? turned(layout) : layout;
}

// A two-seat board turned half round, for the player of the second seat (their pits below).
function turned(layout) {
  const { width, height } = layout;
  const cells = layout.cells.map((cell) => ({
    ...cell, x: width - cell.x - cell.w, y: height - cell.y - cell.h, cx: width - cell.cx, cy: height - cell.cy,
    tx: -cell.tx, ty: -cell.ty, row: cell.row === "top" ? "bottom" : cell.row === "bottom" ? "top" : cell.row,
  }));
  return { ...layout, cells, flipped: true };
}

function ringLayoutUpright(view, compact) {
  const { per_side: per, big_last: big } = view.layout;
  const players = view.players;
  const small = per - (big ? 1 : 0);
  const cells = [];
  if (players === 2) {
    // Room above and below the pits for a picked pit's arrows (30 px) and, beyond them, the
    // seats' names, which the arrows must not cover.
    const W = 110, H = compact ? 104 : 96, B = big ? 90 : 0, X0 = (compact ? 8 : 40) + B, top = compact ? 30 : 56;
    for (let j = 0; j < small; j++) {
      cells[j] = { kind: "square", x: X0 + j * W, y: top + H, w: W, h: H, row: "bottom", tx: 1, ty: 0 };
      cells[per + j] = { kind: "square", x: X0 + (small - 1 - j) * W, y: top, w: W, h: H, row: "top", tx: -1, ty: 0 };
    }
    if (big) {
      cells[small] = { kind: "big", x: X0 + small * W, y: top, w: B, h: 2 * H, end: "right", tx: 0, ty: -1 };
      cells[per + small] = { kind: "big", x: X0 - B, y: top, w: B, h: 2 * H, end: "left", tx: 0, ty: 1 };
    }
    for (const cell of cells) {
      cell.cx = cell.x + cell.w / 2;
      cell.cy = cell.y + cell.h / 2;
    }
    if (big) {
      cells[small].cx = X0 + small * W + 38;
      cells[per + small].cx = X0 - 38;
    }
    const width = 2 * X0 + small * W;
    return { left: 0, top: 0, width, height: 2 * top + 2 * H, cells, two: true, X0, W, H, B, topY: top, small };
  }
  const R = (players === 3 ? 300 : 285) * Math.max(1, per / 6);
  const corner = (k) => {
    const angle = ((90 + 180 / players - (k * 360) / players) * Math.PI) / 180;
    return { x: R * Math.cos(angle), y: R * Math.sin(angle) };
  };
  for (let side = 0; side < players; side++) {
    const a = corner(side), b = corner(side + 1);
    const tx = b.x - a.x, ty = b.y - a.y, len = Math.hypot(tx, ty);
    for (let j = 0; j < small; j++) {
      const t = big ? 0.21 + (j * 0.58) / Math.max(1, small - 1) : (j + 0.5) / small;
      cells[per * side + j] = { kind: "round", cx: a.x + tx * t, cy: a.y + ty * t, r: Math.min(31, (len * 0.6) / small / 2.1), tx: tx / len, ty: ty / len, owner: side };
    }
    if (big) cells[per * side + small] = { kind: "big-round", cx: b.x, cy: b.y, r: 40, tx: tx / len, ty: ty / len, owner: side };
  }
  for (const cell of cells) {
    const d = Math.hypot(cell.cx, cell.cy) || 1;
    cell.ox = cell.cx / d;
    cell.oy = cell.cy / d;
  }
  const margin = 62;
  const xs = cells.map((c) => c.cx), ys = cells.map((c) => c.cy);
  const left = Math.min(...xs) - margin, top = Math.min(...ys) - margin;
  return { left, top, width: Math.max(...xs) + margin - left, height: Math.max(...ys) + margin - top, cells, two: false, R, corner };
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

// The screen direction of a sowing from pit `place`: +1 along the pit's drawn tangent
// (towards increasing ring index), -1 against it.
const onScreen = (forward) => (forward ? 1 : -1);

// A ring of pits. `opts.onMove(text)` plays a move; `opts.onPick(place)` picks a pit with
// several moves (its arrows shown when `opts.selected` is it); `opts.last` a move's place;
// `opts.active`, `opts.captured`, `opts.hand` mark a sowing as it plays; `opts.names` the
// seats' names; `opts.compact` a phone's drawing (bigger figures for a smaller screen).
function drawRing(view, opts = {}) {
  const compact = !!opts.compact;
  const layout = ringLayout(view, compact, !!opts.flip);
  const { width, height, cells } = layout;
  const { per_side: per } = view.layout;
  const root = s("svg", { viewBox: `${layout.left} ${layout.top} ${width} ${height}`, role: "img", "aria-label": `board of ${view.places.length} pits`, class: compact ? "ring compact" : "ring" });
  root.append(s("rect", { x: layout.left, y: layout.top, width, height, fill: "var(--card)" }));
  const last = opts.last && opts.last.place !== undefined ? opts.last.place : null;
  if (layout.two) {
    const { X0, W, H, B, topY, small } = layout;
    const x1 = X0 + small * W;
    const d = B
      ? `M ${X0} ${topY} H ${x1} A ${B} ${H} 0 0 1 ${x1} ${topY + 2 * H} H ${X0} A ${B} ${H} 0 0 1 ${X0} ${topY} Z`
      : `M ${X0 - 6} ${topY - 6} H ${x1 + 6} V ${topY + 2 * H + 6} H ${X0 - 6} Z`;
    root.append(s("path", { d, fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3, "stroke-linejoin": "round" }));
  } else {
    const corners = [];
    for (let side = 0; side < view.players; side++) corners.push(layout.corner(side + 1));
    root.append(s("polygon", { points: corners.map((c) => `${c.x},${c.y}`).join(" "), fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3, "stroke-linejoin": "round" }));
    for (let side = 0; side < view.players; side++) {
      const a = layout.corner(side), b = layout.corner(side + 1);
      root.append(s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: SEAT_COLOURS[side], "stroke-width": 7, opacity: 0.55, "stroke-linecap": "round" }));
    }
  }
  const moves = opts.onMove ? movesByPlace(view) : new Map();
  const pieceValue = pieceWorth(view);
  const countFont = compact ? 30 : 15;
  view.places.forEach((pit, i) => {
    const place = cells[i];
    const playable = moves.has(i);
    let cls = "square";
    if (playable) cls += " mine";
    if (opts.selected === i) cls += " selected";
    if (last === i) cls += " last";
    if (opts.active === i) cls += " active";
    if (opts.captured && opts.captured.has(i)) cls += " captured";
    const attrs = { class: cls, "data-cell": i };
    if (pit.label !== null) attrs["data-label"] = pit.label;
    let shape;
    if (place.kind === "square") shape = s("rect", { ...attrs, x: place.x + 3, y: place.y + 3, width: place.w - 6, height: place.h - 6, rx: 8 });
    else if (place.kind === "big") {
      const right = place.end === "right";
      const x0 = right ? place.x + 3 : place.x + place.w - 3;
      const y0 = place.y + 3, y1 = place.y + place.h - 3;
      shape = s("path", { ...attrs, d: `M ${x0} ${y0} A ${place.w - 10} ${(y1 - y0) / 2} 0 0 ${right ? 1 : 0} ${x0} ${y1} Z` });
    } else shape = s("circle", { ...attrs, cx: place.cx, cy: place.cy, r: place.r, style: `stroke:${SEAT_COLOURS[place.owner]}` });
    if (playable) {
      const here = moves.get(i);
      shape.addEventListener("click", () => (here.length === 1 ? opts.onMove(here[0].move) : opts.onPick && opts.onPick(i)));
      if (here.length === 1) shape.setAttribute("data-move", here[0].move);
      shape.append(s("title", {}, here.map((m) => m.move).join(" or ")));
    }
    root.append(shape);
    // Seeds, a piece, the count.
    const group = s("g", { "pointer-events": "none" });
    let box, piece = null, countAt;
    if (place.kind === "square") {
      box = compact ? { x: place.x + 14, y: place.y + 40, w: place.w - 28, h: place.h - 50 } : { x: place.x + 14, y: place.y + 16, w: place.w - 28, h: place.h - 26 };
      countAt = compact ? { x: place.cx, y: place.y + 34 } : { x: place.x + 18, y: place.y + 22 };
    } else if (place.kind === "big") {
      box = { x: place.cx - 26, y: place.cy + 12, w: 52, h: 52 };
      piece = { x: place.cx, y: place.cy - 34, r: 17 };
      countAt = { x: place.cx, y: place.cy + (compact ? 8 : 2) };
    } else if (place.kind === "round") {
      box = { x: place.cx - place.r * 0.6, y: place.cy + 1, w: place.r * 1.2, h: place.r * 0.65 };
      countAt = { x: place.cx, y: place.cy - 6 };
    } else {
      box = { x: place.cx - 24, y: place.cy + 6, w: 48, h: 26 };
      piece = { x: place.cx - 12, y: place.cy - 13, r: 12 };
      countAt = { x: place.cx + 13, y: place.cy - 8 };
    }
    if (pit.piece && piece) group.append(s("circle", { class: "piece", cx: piece.x, cy: piece.y, r: piece.r }));
    const spots = seedSpots(Math.min(pit.seeds, MAX_SEEDS_DRAWN));
    const dot = place.kind === "square" || place.kind === "big" ? (compact ? 5.5 : 4.2) : 2.7;
    for (const spot of spots) {
      group.append(s("circle", { class: "seed-dot", cx: box.x + spot.x * box.w, cy: box.y + spot.y * box.h, r: dot }));
    }
    const value = pit.piece ? pit.seeds + pieceValue : pit.seeds;
    group.append(s("text", { class: "count", x: countAt.x, y: countAt.y, "data-count": i, style: `font-size:${countFont}px` }, value));
    root.append(group);
    // The label players type, outside the ring.
    const labelFont = compact ? 22 : 12;
    if (pit.label !== null && opts.selected !== i) {
      let lx, ly;
      if (layout.two) {
        lx = place.cx;
        ly = place.row === "top" ? place.y - (compact ? 6 : 10) : place.y + place.h + (compact ? 22 : 20);
      } else {
        lx = place.cx + place.ox * 46;
        ly = place.cy + place.oy * 46 + 4;
      }
      root.append(s("text", { class: "label", x: lx, y: ly, style: `font-size:${labelFont}px` }, pit.label));
    }
    // The arrows of a picked pit: one per move from it, pointing the way it sows.
    if (opts.selected === i && playable) {
      for (const entry of moves.get(i)) {
        const dir = onScreen(entry.forward);
        const g = s("g", { class: "arrow", "data-move": entry.move, onclick: (e) => { e.stopPropagation(); opts.onMove(entry.move); } });
        let x, y;
        if (layout.two) {
          x = place.cx + dir * place.tx * 26;
          y = place.row === "top" ? place.y - 14 : place.y + place.h + 16;
        } else {
          x = place.cx + place.ox * 50 + dir * place.tx * 22;
          y = place.cy + place.oy * 50 + dir * place.ty * 22;
        }
        // Round the polygon, increasing ring index runs anticlockwise on screen.
        const glyph = layout.two ? (dir * place.tx > 0 ? "▶" : "◀") : entry.forward ? "↺" : "↻";
        const way = layout.two ? "" : entry.forward ? " (anticlockwise)" : " (clockwise)";
        g.append(s("circle", { cx: x, cy: y, r: 15 }), s("text", { x, y }, glyph), s("title", {}, `sow ${entry.move}${way}`));
        root.append(g);
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
    const place = cells[opts.hint.place];
    const r = place.kind === "square" ? 52 : place.r + 6;
    root.append(s("circle", { class: "hint-ring", cx: place.cx, cy: place.cy, r }));
  }
  for (const [at, labels] of agentMarks(opts.marks)) {
    const place = cells[at];
    if (place) root.append(agentMark(place.cx, place.cy, place.kind === "square" ? 50 : place.r + 4, labels, at));
  }
  // Who sits where, and their points (two seats: above and below; more: inside the ring).
  const names = opts.names || [];
  const points = (seat) => (view.points ? ` · ${view.points[seat]}` : "");
  const mover = view.to_move;
  if (layout.two) {
    if (!compact) {
      const tag = (seat, y) => s("text", { class: "seat-tag", x: layout.X0, y, "font-size": 13, fill: SEAT_COLOURS[seat], "font-weight": mover === seat ? 700 : 400, "data-seat": seat }, `${mover === seat ? "▸ " : ""}${names[seat] || seatName(view, seat)}${points(seat)}`);
      const [above, below] = layout.flipped ? [0, 1] : [1, 0];
      root.append(tag(above, 15), tag(below, height - 5));
    }
  } else {
    for (let seat = 0; seat < view.players; seat++) {
      const a = layout.corner(seat), b = layout.corner(seat + 1);
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, d = Math.hypot(mx, my) || 1;
      const label = s("text", { class: "seat-tag", x: (mx / d) * (d - 80), y: (my / d) * (d - 80) + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[seat], "font-weight": mover === seat ? 700 : 400, "data-seat": seat }, `${mover === seat ? "▸ " : ""}${seatName(view, seat)}${points(seat)}`);
      label.append(s("title", {}, names[seat] || seatName(view, seat)));
      root.append(label);
    }
  }
  return root;
}

// What a piece adds to its pit's count: read from a pit that holds one, else the variant's
// first number (the contract of board.rs).
function pieceWorth(view) {
  // A grid's places are seats or null: no pieces there.
  const pit = view.places.find((p) => p && p.piece);
  if (pit) return pit.value - pit.seeds;
  const first = Object.values(view.notes || {})[0];
  return first || 0;
}

// Issue 36, missing 3 (defect 13): the moves agents chose, marked on the board in Analyse.
// `marks` is [{place, label}] (a pass has no place and no mark); one place chosen by several
// agents carries all their labels. Returns [place, "1,2"] pairs.
function agentMarks(marks) {
  const by = new Map();
  for (const mark of marks || []) {
    if (mark.place === null || mark.place === undefined) continue;
    by.set(mark.place, [...(by.get(mark.place) || []), mark.label]);
  }
  return [...by].map(([place, labels]) => [place, labels.join(",")]);
}

// A ring of radius `r` round (x, y) and a badge with the agents' labels at its upper right.
function agentMark(x, y, r, labels, place) {
  const bx = x + r * 0.72, by = y - r * 0.72, br = Math.max(8, r * 0.42);
  return s("g", { class: "agent-mark", "data-mark": labels, "data-at": place, "pointer-events": "none" },
    s("circle", { class: "agent-ring", cx: x, cy: y, r }),
    s("rect", { class: "agent-badge", x: bx - br * (0.6 + 0.35 * labels.length), y: by - br, width: br * (1.2 + 0.7 * labels.length), height: br * 2, rx: br }),
    s("text", { class: "agent-label", x: bx, y: by, "font-size": br * 1.25 }, labels));
}

// Issue 36, missing 3: the agents' own evaluation over a game, drawn. `points` are
// [{ply, seat, score}]: after move `ply` (1-based), the agent of `seat` valued its move at
// `score` from its own side (SearchStats' score: its own units, zero-sum, a proven result at
// 1e6 or more for alphabeta, ±1 for MCTS). In a game of two seats each is drawn from the first
// seat's side (the second's negated), scaled to the largest unproven value of its game, a
// proven result at the edge. Games of more seats have no one side to draw: null.
const PROVEN = 1e6;
const EVAL_POSITIONS = 200;
function evalSeries(points, players) {
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
function evalChart(series, plies, names, opts = {}) {
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
function showEval(box, points, players, plies, names, opts = {}) {
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

const narrow = () => window.matchMedia("(max-width: 600px)").matches;

function drawBoard(view, opts = {}) {
  return isGrid(view) ? drawGrid(view, opts) : drawRing(view, { compact: narrow(), ...opts });
}

// The moves that put nothing anywhere (a pass: its place is null), as buttons under the board
// when `opts.onMove` plays moves; none otherwise.
function passButtons(view, opts = {}) {
  if (!opts.onMove) return [];
  const buttons = legalMoves(view).filter((entry) => entry.place === null).map((entry) =>
    h("button", { class: "pass-move", "data-move": entry.move, title: "no move on the board is legal", onclick: () => opts.onMove(entry.move) }, entry.move));
  return buttons.length ? [h("div", { class: "pass-row" }, ...buttons)] : [];
}

// The places a move's traced steps turned over (`turn` steps).
const turnedBy = (steps) => new Set((steps || []).filter((step) => step.step === "turn").map((step) => step.place));

// Applies one traced step to a copy of a view (as board.rs's contract describes them).
function applyStep(view, step, piece) {
  if (applyPieceStep(view, step)) return;
  const place = view.places[step.place];
  if (step.step === "put" || step.step === "turn") view.places[step.place] = step.seat;
  else if (step.step === "refill") {
    const { per_side: per, big_last: big } = view.layout;
    for (let j = 0; j < per - (big ? 1 : 0); j++) {
      const pit = view.places[step.seat * per + j];
      pit.seeds = 1;
      pit.value = pit.piece ? 1 + piece : 1;
    }
    if (view.points) view.points[step.seat] -= step.cost;
  } else if (step.step === "pick") {
    place.seeds = 0;
    place.value = place.piece ? piece : 0;
  } else if (step.step === "drop") {
    place.seeds += 1;
    place.value += 1;
  } else if (step.step === "capture") {
    if (view.points) view.points[step.seat] += step.value;
    place.seeds = 0;
    place.piece = false;
    place.value = 0;
  }
}

// Plays a move's steps one by one on a copy of `before`, drawing each into `target`, then
// stops; `still()` says whether to go on (a newer position cancels it).
async function animateSteps(target, before, steps, opts, stepMs, still) {
  const view = JSON.parse(JSON.stringify(before));
  view.moves = null;
  const piece = pieceWorth(before);
  const captured = new Set(), turned = new Set();
  let hand = 0, active = null;
  for (const step of steps) {
    if (!still()) return false;
    applyStep(view, step, piece);
    if (step.step === "pick") { hand = step.seeds; active = step.place; }
    else if (step.step === "drop") { hand -= 1; active = step.place; }
    else if (step.step === "capture") { active = step.place; captured.add(step.place); }
    else if (step.step === "turn") turned.add(step.place);
    else if (step.step === "pass") continue;
    target.replaceChildren(drawBoard(view, { ...opts, active, hand, captured, turned, onMove: null, selected: null, hint: null }));
    slidePiece(target, step, stepMs);
    await sleep(step.step === "capture" ? stepMs * 4 : step.step === "pick" ? stepMs * 2 : stepMs);
  }
  return still();
}

// The screen side ("left" or "right") a sowing from a two-seat board's pit goes, for buttons.
function sideOf(view, entry, flip = false) {
  const per = view.layout.per_side;
  const top = view.players === 2 && (Math.floor(entry.place / per) === 1) !== flip;
  return entry.forward === !top ? "right" : "left";
}

// A move list as numbered rounds: "1. e5 f6", one column per seat.
function moveRounds(moves, players, options = {}) {
  const rows = [];
  for (let at = 0; at < moves.length; at += players) {
    const round = moves.slice(at, at + players);
    rows.push(h("li", { class: "round" },
      h("span", { class: "num" }, `${at / players + 1}.`),
      ...round.map((m, k) => h("span", {
        class: `mv${options.now === at + k ? " now" : ""}`,
        "data-ply": at + k + 1,
        title: m.title || null,
        style: `--seat:${SEAT_COLOURS[m.seat]}`,
        onclick: options.onPick ? () => options.onPick(at + k + 1) : null,
      }, m.move))));
  }
  return rows;
}

// ---------------------------------------------------------------- pages

const pages = ["play", "analyse", "replay", "report", "live", "stats"];
let page = null;
let meta = null;

function showPage() {
  // `#replay?variant=...&moves=...&ply=N` and `#analyse?variant=...&moves=...`: a shared game.
  const [wanted0, query] = location.hash.replace("#", "").split("?");
  const wanted = wanted0 || "play";
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
    if (next === "live") Live.open();
    if (next === "analyse") Analyse.open();
    if (next === "play") Play.resume();
  }
  const shared = new URLSearchParams(query || "");
  if (next === "replay" && shared.has("file")) Replay.filtered(shared, first);
  else if (shared.has("variant") && (next === "replay" || next === "analyse")) {
    const moves = (shared.get("moves") || "").trim();
    if (next === "analyse") Analyse.openWith(shared.get("variant"), moves);
    else Replay.openLine(shared.get("variant"), moves, Number(shared.get("ply") || 0));
  }
}

// The address that opens a game (its variant and moves) in Replay (`page` "replay", at `ply`)
// or Analyse (the position after `ply` moves).
function gameLink(page, variant, moves, ply) {
  const query = new URLSearchParams({ variant, moves: page === "analyse" ? moves.slice(0, ply).join(" ") : moves.join(" ") });
  if (page === "replay") query.set("ply", ply);
  return `${location.origin}${location.pathname}#${page}?${query}`;
}

// Copies `text` to the clipboard (a hidden text area where the Clipboard API is refused).
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    const area = h("textarea", {}, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

// ---------------------------------------------------------------- Play

// A game clock as a chess clock shows it: 4:58.3 from a minute up, else 58.3 s.
function clockFace(ms) {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const rest = tenths % 600;
  const seconds = `${Math.floor(rest / 10)}.${rest % 10}`;
  return minutes > 0 ? `${minutes}:${seconds.padStart(4, "0")}` : `${seconds} s`;
}

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
  clockFrame: null,
  lastRequest: null,
  variant: null,
  // Other tabs of this browser and the game each shows (BroadcastChannel "arena.play").
  tab: Math.random().toString(36).slice(2),
  channel: null,
  peers: new Map(),
  // The names typed into people's seats, kept per seat whatever the seat menus do.
  typedNames: [],
  // Looking back: the number of moves of the position shown (null: the live one), and that
  // position from the API (`/api/analyse`).
  looking: null,
  lookView: null,
  lookAsked: 0,
  // The position last asked for (null: the live one): keys pressed quickly step from it.
  lookTarget: null,

  init() {
    $("setup").addEventListener("submit", (e) => { e.preventDefault(); this.start(); });
    $("family").addEventListener("change", () => this.pickFamily($("family").value, true));
    let debounce = null;
    $("variant").addEventListener("input", () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => this.lookUp($("variant").value.trim()), 250);
    });
    for (const button of document.querySelectorAll("#modes button")) {
      button.addEventListener("click", () => this.mode(button.dataset.mode));
    }
    $("undo").addEventListener("click", () => this.undo());
    $("hint").addEventListener("click", () => this.askHint());
    $("resign").addEventListener("click", () => this.resign());
    $("move-now").addEventListener("click", () => this.moveNow());
    $("new").addEventListener("click", () => this.leave());
    $("pause").addEventListener("click", () => this.togglePause());
    $("flip").addEventListener("click", () => { this.flip = !this.flip; this.render(); });
    $("speed").addEventListener("input", () => this.showSpeed());
    // A click on the board while a sowing is shown skips to its end.
    $("board").addEventListener("click", () => { if (this.animating) this.skipping = true; });
    // The slider keeps no focus: Space pauses, as it does before the slider is touched.
    $("speed").addEventListener("change", () => $("speed").blur());
    $("sow-bar").addEventListener("click", (e) => {
      const button = e.target.closest("button[data-move]");
      if (button) this.move(button.dataset.move);
    });
    // A closed or reloaded tab tells the server, which frees the game unless the reload
    // takes it up again within a few seconds; not while another tab (a duplicate) shows it.
    window.addEventListener("pagehide", () => {
      if (!this.game) return;
      const shared = [...this.peers.values()].includes(this.game.id);
      this.tell("bye");
      if (!shared && navigator.sendBeacon) navigator.sendBeacon(`/api/games/${this.game.id}/leave`);
    });
    // Tabs of one browser showing the same game (a duplicated tab shares its session) tell
    // each other which game they show and when it moved, so each follows the other's moves.
    if (window.BroadcastChannel) {
      this.channel = new BroadcastChannel("arena.play");
      this.channel.onmessage = (e) => this.heard(e.data);
    }
    this.showSpeed();
    // A phone turned, a window resized: the ring board is drawn for the new width.
    let resized = null;
    window.addEventListener("resize", () => {
      clearTimeout(resized);
      resized = setTimeout(() => { if (this.game && !this.animating && !$("game").hidden) this.render(); }, 150);
    });
  },

  // The family menu and its variants, from the registry's families (`/api/meta`).
  families() {
    // A family's other names in its entry, so that "caro" or "gomoku" is found in the menu.
    $("family").replaceChildren(...meta.families.map((f) => h("option", { value: f.name },
      f.aliases.length ? `${f.title} (${f.aliases.map((a) => a.alias).join(", ")})` : f.title)));
  },

  pickFamily(name, lookUp) {
    const family = meta.families.find((f) => f.name === name) || meta.families[0];
    $("family").value = family.name;
    $("presets").replaceChildren(...family.variants.map((v) =>
      h("button", { type: "button", "data-variant": v.id, title: v.about === v.id ? v.id : `${v.id}: ${v.about}`, onclick: () => { $("variant").value = v.id; this.lookUp(v.id); } }, v.label)));
    $("variant-help").replaceChildren("Ids: ", ...withCode(family.ids), "; for example ", h("code", {}, family.example), ".");
    if (lookUp) {
      const id = family.variants.length ? family.variants[0].id : family.example;
      $("variant").value = id;
      this.lookUp(id);
    }
  },

  // Asks the server what a variant id is: players, seats' names, or what is wrong with it.
  async lookUp(id) {
    const note = $("variant-note");
    // Answers can overtake each other while a person types: only the latest counts.
    const asked = (this.asked = (this.asked || 0) + 1);
    try {
      const variant = await api("GET", `/api/variant?id=${encodeURIComponent(id)}`);
      if (asked !== this.asked) return;
      this.variant = variant;
      note.classList.remove("bad");
      const players = variant.seat_names.join(", ");
      const agent = (level, spec) => (spec === level ? null : `${level} is ${spec}`);
      note.textContent = [`${variant.id}: ${variant.title}, ${variant.players} players (${players})`, agent("easy", variant.easy), agent("hard", variant.hard)].filter(Boolean).join("; ");
      // The variant's own rule, from the game, in one line.
      $("variant-rule").textContent = variant.rules.line || "";
      $("variant-rule").hidden = !variant.rules.line;
      if ($("family").value !== variant.family) this.pickFamily(variant.family, false);
      for (const chip of document.querySelectorAll("#presets button")) chip.classList.toggle("on", chip.dataset.variant === variant.id);
      this.seatRows();
      note.dataset.asked = id;
    } catch (error) {
      if (asked !== this.asked) return;
      this.variant = null;
      note.classList.add("bad");
      note.textContent = error.message;
      $("variant-rule").hidden = true;
      note.dataset.asked = id;
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
      const name = seatNameOf(variant, seat);
      const select = h("select", { "aria-label": `who plays ${name}` },
        h("option", { value: "person" }, "Person"),
        h("option", { value: "easy" }, "Easy AI"),
        h("option", { value: "hard" }, "Hard AI"),
        h("option", { value: "random" }, "Random"),
        ...this.ownOptions(variant),
        h("option", { value: "custom" }, "Any agent…"));
      select.value = previous.who;
      // A seat's own agent that does not play the new variant goes back to the default.
      if (select.value !== previous.who) select.value = seat === 0 ? "person" : "hard";
      const input = h("input", { spellcheck: "false", list: "spec-list" });
      let custom = previous.who === "custom" ? previous.text : "";
      const sync = () => {
        const who = select.value;
        input.setAttribute("aria-label", who === "person" ? `name of the person playing ${name}` : `agent playing ${name}`);
        const own = who.startsWith("own:") ? who.slice(4) : null;
        input.disabled = who === "easy" || who === "hard" || who === "random" || own !== null;
        input.removeAttribute("list");
        if (who === "person") {
          input.placeholder = "name";
          input.value = this.typedNames[seat] || saved;
        } else if (who === "custom") {
          input.placeholder = "spec, like mcts:iterations=20000";
          input.setAttribute("list", "spec-list");
          input.value = custom;
        } else {
          input.value = own !== null ? own : who === "easy" ? variant.easy : who === "hard" ? variant.hard : "random";
        }
      };
      input.addEventListener("input", () => {
        if (select.value === "person") this.typedNames[seat] = input.value;
        if (select.value === "custom") custom = input.value;
      });
      select.addEventListener("change", () => { sync(); this.markMode(); });
      sync();
      box.append(h("div", { class: "seat-row" },
        h("span", { class: "who" }, h("span", { class: "dot", style: `background:${SEAT_COLOURS[seat]}` }), name),
        select, input));
    }
    this.markMode();
    this.ownNote(variant);
  },

  // The operator's agents (`arena serve --agent NAME=SPEC`, from /api/meta) in a seat's menu:
  // those that passed their check on this variant, by name.
  ownOptions(variant) {
    return (meta.agents || []).filter((a) => this.ownPlays(a, variant))
      .map((a) => h("option", { value: `own:${a.name}` }, `${a.name} (your agent)`));
  },

  // Whether an operator's agent may sit at `variant`: one it passed at start, or an id typed
  // by hand of a game its kind plays (the server checks it when the game starts).
  ownPlays(agent, variant) {
    if (agent.unavailable) return false;
    if (agent.variants.includes(variant.id)) return true;
    const offered = meta.families.some((f) => f.variants.some((v) => v.id === variant.id));
    return !offered && agent.families.includes(variant.family);
  },

  // Under the seats: which of the operator's agents do not play here, and why.
  ownNote(variant) {
    const box = $("own-note");
    const lines = (meta.agents || []).filter((a) => !this.ownPlays(a, variant))
      .map((a) => a.unavailable ? `${a.name} is unavailable: ${a.unavailable}` : `${a.name} does not play ${variant.id}`);
    box.hidden = !lines.length;
    box.replaceChildren(...lines.map((line) => h("span", { class: "own-line" }, ...withCode(line))));
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
      const tc = $("tc") ? $("tc").value.trim() : "";
      if (tc) request.tc = tc;
      const seed = $("seed").value.trim();
      if (seed !== "") request.seed = Number(seed);
    }
    try {
      const old = this.game;
      const game = await api("POST", "/api/games", request);
      // The game played before is freed at once.
      if (old && old.id !== game.id) api("DELETE", `/api/games/${old.id}`).catch(() => {});
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
    this.note = null;
    // Playing the second seat of a two-seat ring alone: the board turned, your pits below.
    this.flip = game.players === 2 && !isGrid(game.position) && game.seats[1].person && !game.seats[0].person;
    this.busy = false;
    this.selected = null;
    this.hint = null;
    this.cursor = null;
    this.looking = null;
    this.lookView = null;
    this.lookTarget = null;
    $("hint-text").hidden = true;
    $("setup").hidden = true;
    $("game").hidden = false;
    this.render();
    this.tell("here");
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
      // The old page's "left" beacon may arrive after this page's first request: say again,
      // a moment later, that the game is taken up.
      setTimeout(() => { if (this.game && this.game.id === id) fetch(`/api/games/${id}`, { method: "HEAD" }).catch(() => {}); }, 2000);
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
    this.busy = false;
    sessionStorage.removeItem("arena.game");
    // The server frees the game now rather than at its idle timeout, unless another tab
    // shows it.
    const shared = game && [...this.peers.values()].includes(game.id);
    if (game) this.tell("bye", game);
    if (game && !shared) api("DELETE", `/api/games/${game.id}`).catch(() => {});
    $("game").hidden = true;
    $("setup").hidden = false;
    $("start").focus();
  },

  // Says to the other tabs what this one shows: "here" (a game taken up), "moved", "bye".
  tell(kind, game = this.game) {
    if (this.channel) this.channel.postMessage({ kind, tab: this.tab, id: game ? game.id : null, ply: game ? game.ply : null });
  },

  heard(message) {
    const { kind, tab, id } = message;
    if (kind === "bye") this.peers.delete(tab);
    else this.peers.set(tab, id);
    if (!this.game || id !== this.game.id) return;
    // A newcomer showing this game learns that this tab shows it too.
    if (kind === "here") this.tell("also");
    // The other tab closed: whatever its beacon said, this tab still shows the game.
    if (kind === "bye") setTimeout(() => { if (this.game && this.game.id === id) fetch(`/api/games/${id}`, { method: "HEAD" }).catch(() => {}); }, 1000);
    if (kind === "moved" && message.ply !== this.game.ply && !this.busy && !this.animating) this.reload();
  },

  // The game is no longer on the server (freed, closed elsewhere, the server restarted): say
  // so plainly, with the way on, instead of a board that still looks live.
  gone(message) {
    this.gen += 1;
    this.stopClock();
    clearTimeout(this.timer);
    this.busy = false;
    sessionStorage.removeItem("arena.game");
    $("board").replaceChildren(drawBoard(this.game.position, { names: this.game.seats.map((seat) => seat.label) }));
    $("turn-buttons").hidden = true;
    $("speed-box").hidden = true;
    $("sow-bar").hidden = true;
    this.status("This game is gone");
    const result = $("result");
    result.hidden = false;
    result.replaceChildren(h("strong", { class: "gone" }, "This game is no longer on the server"), h("p", { class: "note" }, message),
      h("div", { class: "buttons" }, h("button", { class: "primary", onclick: () => this.leave() }, "New game")));
    this.game = null;
  },

  // An error from the server during the game: a game gone is said plainly, anything else in
  // a toast.
  failed(error) {
    if (error.status === 404 && this.game) this.gone(error.message);
    else toast(error.message);
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
    // Looking back at an earlier position: drawn from the API, and no move is made on it.
    const looking = this.looking !== null && this.lookView ? this.lookView : null;
    const interactive = !looking && this.personToMove() && !this.busy && !this.animating && !game.thinking;
    const last = game.history.length ? game.history[game.history.length - 1].place : null;
    const opts = { names, last, flip: this.flip };
    if (interactive) {
      opts.onMove = (text) => this.move(text);
      BoardTools.wrap(opts, view, () => this.render());
      opts.onPick = (place) => { this.selected = place; this.render(); };
      opts.selected = this.selected;
      if (this.cursor !== null) opts.cursor = this.cursor;
    }
    if (this.hint) opts.hint = this.hint;
    // The stones the last move turned over stay marked until the next move.
    if (this.turned && this.turned.ply === game.history.length) opts.turned = this.turned.places;
    const lookOpts = () => ({ names, flip: this.flip, last: this.looking > 0 ? looking.moves[this.looking - 1].place : null });
    if (!this.animating) {
      $("board").replaceChildren(...(looking ? [drawBoard(looking.position, lookOpts())] : [drawBoard(view, opts), ...passButtons(view, opts)]));
      BoardTools.fit(looking ? looking.position : view, opts.marked !== undefined && opts.marked !== null ? opts.marked : last);
    }
    $("board").classList.toggle("looking", !!looking);
    this.sowBar(interactive);
    // The engine's text of the position, folded away: for whoever compares it with a log.
    $("oq-line").textContent = isGrid(view) ? "" : view.text;
    $("oq-text").hidden = isGrid(view);
    $("game-title").textContent = this.titleOf(game);
    $("game-seed").textContent = `${game.variant} · seed ${game.seed}`;
    const rule = game.rules && game.rules.line;
    $("game-rule").textContent = rule || "";
    $("game-rule").hidden = !rule;
    $("rule-note").textContent = this.note || "";
    $("rule-note").hidden = !this.note;
    $("game-seats").replaceChildren(...game.seats.map((seat, i) => h("li", { class: game.to_move === i ? "turn" : "" },
      h("span", { class: "dot", style: `background:${SEAT_COLOURS[i]}` }),
      h("span", { class: "name", title: seat.label }, seat.label),
      game.thinking && game.to_move === i ? h("span", { class: "spinner" }) : null,
      h("span", { class: "score", title: "points" }, view.points ? `${view.points[i]}` : ""))));
    this.clocks();
    const moves = $("move-list");
    moves.replaceChildren(...moveRounds(game.history.map((ply) => ({
      move: ply.move, seat: ply.seat, title: ply.stats ? statsText(ply.stats) : `${ms(ply.ms)} to think`,
    })), game.players, { now: looking ? this.looking - 1 : game.history.length - 1, onPick: (ply) => this.lookAt(ply) }));
    this.drawEval(game, looking);
    this.showMoveNow(game);
    const lastPly = game.history[game.history.length - 1];
    $("last-move").textContent = lastPly && lastPly.stats
      ? `${game.seats[lastPly.seat].label} played ${lastPly.move}: ${statsText(lastPly.stats)}`
      : "";
    if (looking) {
      const now = moves.querySelector(".mv.now");
      if (now) now.scrollIntoView({ block: "nearest" });
    } else moves.parentElement.scrollTop = moves.parentElement.scrollHeight;
    this.keep(game);
    const over = game.over;
    $("turn-buttons").hidden = !!over;
    $("undo").disabled = !game.can_undo || this.busy || game.thinking || !!looking;
    $("hint").disabled = !this.personToMove() || this.busy || game.thinking || !!looking;
    $("resign").disabled = !!over || !game.seats.some((seat) => seat.person);
    $("flip").hidden = isGrid(view) || game.players !== 2;
    // The speed of the agents' moves (with agents alone) and of sowings shown seed by seed.
    $("speed-box").hidden = !!over || !(this.agentsOnly() || !isGrid(view));
    $("pause").hidden = !this.agentsOnly();
    $("pause").textContent = this.paused ? "Go on" : "Pause";
    this.showSpeed();
    const result = $("result");
    result.hidden = !over;
    if (over) this.result(game, result);
    this.status();
  },

  // Issue 36, defect 22: "Move now" while a seat's agent thinks about its move: the server
  // asks it for its best move so far (alphabeta and mcts answer at once; others finish), and
  // the move comes back to the think request as ever.
  showMoveNow(game) {
    const thinking = !game.over && !this.personToMove() && (this.busy || game.thinking) && !this.animating && this.looking === null;
    $("move-now").hidden = !thinking;
    $("move-now").disabled = !!this.movingNow;
  },
  async moveNow() {
    const game = this.game;
    if (!game || $("move-now").hidden) return;
    this.movingNow = true;
    $("move-now").disabled = true;
    try {
      await api("POST", `/api/games/${game.id}/move-now`, {});
    } catch (error) {
      // The move came first: nothing to hurry.
      if (error.status !== 409) toast(error.message);
    } finally {
      this.movingNow = false;
    }
  },

  // Issue 36, missing 3: the agents' evaluations of their moves so far, drawn (showEval).
  drawEval(game, looking) {
    const points = game.history.map((ply, i) => ({ ply: i + 1, seat: ply.seat, score: ply.stats ? ply.stats.score : null }));
    const names = game.seats.map((seat) => seat.label);
    showEval($("eval"), points, game.players, game.history.length, names,
      { now: looking ? this.looking : game.history.length, onPick: (ply) => this.lookAt(ply) });
  },

  titleOf(game) {
    const family = meta.families.find((f) => f.name === game.position.family);
    const variant = family && family.variants.find((v) => v.id === game.variant);
    // The variant's name after the game's only where it says more ("m,n,k games: caro", not
    // "O An Quan: O An Quan" or "Connect Four: connect-four").
    if (!family) return game.variant;
    const label = variant ? variant.label : game.variant;
    const plain = (text) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
    return [family.title, family.name].some((name) => plain(name) === plain(label)) ? family.title : `${family.title}: ${label}`;
  },

  // The end: the result, and where the game counts points, each seat's final score (its
  // points, what is left on its side, the total) and how the places follow from it.
  result(game, box) {
    const over = game.over, view = game.position;
    const recorded = game.recorded
      ? game.recorded.error ? `not recorded: ${game.recorded.error}` : `recorded in ${game.recorded.file}, game ${game.recorded.game}`
      : "";
    let score = null;
    if (view.totals) {
      const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
      const shared = new Set(over.places.filter((p, i) => over.places.indexOf(p) !== i));
      score = h("div", { class: "table-wrap score-table", tabindex: 0, role: "region", "aria-label": "final score" }, h("table", { class: "final" },
        h("thead", {}, h("tr", {}, h("th", {}, "seat"), h("th", { class: "num" }, "points"), h("th", { class: "num", title: "what the end added to the points (the rule below)" }, "at the end"), h("th", { class: "num" }, "total"), h("th", { class: "num" }, "place"))),
        h("tbody", {}, game.seats.map((seat, i) => h("tr", { "data-seat": i },
          h("td", {}, h("span", { class: "dot", style: `background:${SEAT_COLOURS[i]}` }), " ", seat.label),
          h("td", { class: "num" }, view.points ? view.points[i] : ""),
          h("td", { class: "num" }, view.points ? view.totals[i] - view.points[i] : ""),
          h("td", { class: "num" }, h("strong", {}, view.totals[i])),
          h("td", { class: "num" }, `${shared.has(over.places[i]) ? "=" : ""}${ordinal(over.places[i])}`))))));
      // How the totals rank the seats is the game's own rule.
      const rule = ["win", "draw", "ply-cap"].includes(over.termination)
        ? (game.rules && game.rules.totals) || ""
        : "The game did not end on the board: the seat that left it is last; the others are placed by their totals.";
      score = [score, h("p", { class: "note rule" }, rule)];
    }
    box.replaceChildren(
      // Two seats: "1-0 · X wins"; more: the summary names every place ("2-4-1-3" says little).
      h("strong", {}, game.players > 2 ? over.summary : `${over.result} · ${over.summary}`),
      ...(score || []),
      h("div", { class: "note" }, [
        over.termination === "win" || over.termination === "draw" ? null : over.termination,
        `${game.ply} ${game.ply === 1 ? "move" : "moves"}`,
        recorded,
      ].filter(Boolean).join(" · ")),
      // The clock's figures when a flag fell, for whoever wants them.
      ...(over.detail ? [h("details", { class: "note detail" }, h("summary", {}, "the clock's figures"), over.detail)] : []),
      h("div", { class: "buttons" },
        h("button", { class: "primary", onclick: () => this.start(this.lastRequest || this.requestOf(game)) }, "Play again"),
        // The same seats, each moved one place round (two seats: colours swapped).
        h("button", { class: "swap", onclick: () => this.start(this.swapped(this.requestOf(game))) }, game.players === 2 ? "Play again, sides swapped" : "Play again, seats moved round"),
        h("button", { onclick: () => Analyse.openWith(game.variant, game.moves) }, "Analyse"),
        h("button", { id: "replay-game", onclick: () => this.replayThis(game) }, "Replay this game"),
        h("button", { onclick: () => this.leave() }, "New game")));
  },

  // Opens the finished game in Replay: its row of the play record where the results folder
  // holds it (its index is its row), else by its moves.
  replayThis(game) {
    const recorded = game.recorded;
    if (recorded && !recorded.error && !recorded.file.startsWith("/")) {
      Replay.file = recorded.file;
      location.hash = "#replay";
      Replay.show(recorded.game);
    } else {
      location.hash = gameLink("replay", game.variant, this.movesOf(game), 0).split("#")[1];
    }
  },

  movesOf(game) {
    return game.history.map((ply) => ply.move);
  },

  // Shows the position after `ply` moves (null, or the number of moves played: the live
  // one), asked of the API; moving waits until the live position is back.
  async lookAt(ply) {
    const game = this.game;
    if (!game) return;
    const n = game.history.length;
    const asked = ++this.lookAsked;
    if (ply === null || ply >= n) {
      this.lookTarget = null;
      this.looking = null;
      this.lookView = null;
      return this.render();
    }
    const target = Math.max(0, ply);
    this.lookTarget = target;
    try {
      const answer = await api("POST", "/api/analyse", { variant: game.variant, moves: this.movesOf(game).slice(0, target).join(" "), agents: [], solve: false });
      if (asked !== this.lookAsked || this.game !== game) return;
      this.looking = target;
      this.lookView = answer;
      this.render();
    } catch (error) {
      toast(error.message);
    }
  },

  // ← → Home End step through the game's positions (End: the live one), except while a
  // person places a stone with the board's cursor or has picked a pit (those keys are theirs).
  lookKey(event) {
    const steps = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    const step = steps[event.key];
    if (step === undefined || this.animating) return false;
    const game = this.game;
    const mine = this.lookTarget === null && this.personToMove() && (this.cursor !== null || this.selected !== null);
    if (mine) return false;
    const n = game.history.length;
    if (n === 0) return false;
    event.preventDefault();
    const now = this.lookTarget === null ? n : this.lookTarget;
    const next = Math.max(0, Math.min(n, now + step));
    if (next !== now || (this.lookTarget !== null && next === n)) this.lookAt(next);
    return true;
  },

  // Keep and share: the moves as text, the play record's row once written, a link to the
  // position shown (Replay), all from the game's API.
  keep(game) {
    const id = game.id;
    const recorded = game.recorded && !game.recorded.error;
    const ply = this.looking === null ? game.history.length : this.looking;
    $("keep").replaceChildren(...[
      h("a", { href: `/api/games/${id}/moves.txt`, download: "", id: "keep-moves" }, "Moves as text"),
      recorded ? h("a", { href: `/api/games/${id}/record.csv`, download: "", id: "keep-record" }, "Record row (CSV)") : null,
      h("a", { href: gameLink("replay", game.variant, this.movesOf(game), ply), id: "keep-replay", title: "this game in Replay, at the position shown" }, "Link: Replay"),
      h("a", { href: gameLink("analyse", game.variant, this.movesOf(game), ply), id: "keep-analyse", title: "the position shown in Analyse" }, "Link: Analyse"),
      h("button", { id: "keep-link", title: "a link that opens this game in Replay at the position shown",
        onclick: async () => { await copyText(gameLink("replay", game.variant, this.movesOf(game), ply)); toast(`copied a link to this game at move ${ply}`); } }, "Copy link")].filter(Boolean));
  },

  // Big buttons for a picked pit's sowings, for fingers on a phone; hidden while a move plays.
  sowBar(interactive) {
    const bar = $("sow-bar");
    const view = this.game.position;
    const here = interactive && this.selected !== null ? movesByPlace(view).get(this.selected) || [] : [];
    bar.hidden = here.length < 2;
    if (bar.hidden) return;
    const side = (entry) => sideOf(view, entry, this.flip);
    const sorted = here.slice().sort((a, b) => (side(a) === "left" ? -1 : 1) - (side(b) === "left" ? -1 : 1));
    bar.replaceChildren(...sorted.map((entry) => h("button", { class: "primary", "data-move": entry.move },
      side(entry) === "left" ? `◀ sow ${entry.move}` : `sow ${entry.move} ▶`)));
  },

  swapped(request) {
    const round = (list) => [list[list.length - 1], ...list.slice(0, -1)];
    return { ...request, seats: round(request.seats), names: round(request.names) };
  },

  requestOf(game) {
    return {
      variant: game.variant,
      seats: game.seats.map((seat) => (seat.person ? "human" : seat.spec)),
      names: game.seats.map((seat) => (seat.person ? seat.name : null)),
      move_time: game.move_time_ms ? game.move_time_ms / 1000 : undefined,
      tc: game.tc ?? undefined,
    };
  },

  status(text) {
    const box = $("status");
    const game = this.game;
    if (text) return box.replaceChildren(text);
    if (this.looking !== null && this.lookView) {
      const n = game.history.length, k = this.looking;
      return box.replaceChildren(h("span", { class: "looking-note" }, k === 0 ? `The start, before move 1 of ${n}` : `After move ${k} of ${n}: ${game.history[k - 1].move}`),
        h("span", { class: "sub" }, " · looking back · "),
        h("button", { id: "live", onclick: () => this.lookAt(null) }, game.over ? "The end" : "Back to the game", " ", h("kbd", {}, "End")));
    }
    if (game.over) return box.replaceChildren(`Game over: ${game.over.summary}`);
    const seat = game.seats[game.to_move];
    if ((this.busy || game.thinking) && !seat.person) {
      return box.replaceChildren(h("span", { class: "spinner" }), `${seat.label} is thinking…`);
    }
    if (seat.person) {
      const view = game.position;
      const how = isGrid(view) ? (view.layout.gravity ? "click a column" : view.moves && view.moves.from ? "click one of your pieces, then its target" : BoardTools.tapTwice(view) ? "tap a cell twice" : "click a cell")
        : legalMoves(view).some((m, i, all) => all.findIndex((o) => o.place === m.place) !== i) ? "click one of your pits, then an arrow" : "click one of your pits";
      return box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, ` · ${how}`));
    }
    box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, this.paused ? " · paused" : ""));
  },

  // The Speed slider reads as a speed (right is faster); the page waits the opposite.
  delay() {
    return 2000 - Number($("speed").value);
  },

  showSpeed() {
    const delay = this.delay();
    $("speed-text").textContent = this.game && !this.agentsOnly()
      ? (delay === 0 ? "no animation" : `${this.stepMs()} ms a seed`)
      : delay === 0 ? "no pause" : `${(delay / 1000).toFixed(1)} s a move`;
  },

  // A sowing's time a seed, from the Speed slider; 0 at its fastest: no animation.
  stepMs() {
    const delay = this.delay();
    return delay === 0 ? 0 : Math.round(Math.max(25, Math.min(140, delay / 8)));
  },

  togglePause() {
    if (!this.agentsOnly()) return;
    this.paused = !this.paused;
    // The next agent's move waiting out its delay waits for "Go on" too.
    if (this.paused) clearTimeout(this.timer);
    this.render();
    if (!this.paused) this.next();
  },

  // Whose turn now: the person's clock, an agent already thinking (after a reload), or the
  // agent's move after a short pause.
  async next() {
    clearTimeout(this.timer);
    if (this.busy || this.animating) return;
    const game = this.game;
    const gen = this.gen;
    if (!game || game.over) { this.stopClock(); Reply.ready(); return; }
    if (game.thinking) { this.waitForAgent(gen); return; }
    const seat = game.seats[game.to_move];
    if (seat.person) {
      Reply.ready();
      if (game.move_time_ms || game.clocks) {
        try {
          const answer = await api("POST", `/api/games/${game.id}/ready`, { ply: game.ply });
          if (gen !== this.gen) return;
          this.game = answer.game;
          if (answer.game.over) { this.render(); return; }
          if (answer.game.clocks) this.clocks();
          else this.startClock(answer.game.clock_ms);
        } catch (error) {
          if (gen === this.gen) this.failed(error);
        }
      }
      return;
    }
    this.stopClock();
    if (this.paused) return;
    const delay = this.agentsOnly() ? this.delay() : Math.min(250, this.delay());
    Reply.waited(delay);
    // The game plays on while another page is shown (a demo goes on while the report is).
    this.timer = setTimeout(() => { if (gen === this.gen && !this.paused) this.think(); }, delay);
  },

  // An agent thinks at this table for an earlier page (a reload): show it, and look again
  // until its move is in.
  waitForAgent(gen) {
    this.status();
    this.timer = setTimeout(async () => {
      if (gen !== this.gen) return;
      try {
        const game = await api("GET", `/api/games/${this.game.id}`);
        if (gen !== this.gen) return;
        this.game = game;
        this.render();
        this.next();
      } catch (error) {
        if (gen === this.gen) this.failed(error);
      }
    }, 400);
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
      // Another page's request got there first (it thinks, or moved): no toast, just catch up.
      if (error.status !== 409 && error.status !== 404) toast(error.message);
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
    // The rules in words come with whole views only.
    if (!game.rules && this.game) game.rules = this.game.rules;
    this.game = game;
  },

  // A move came back (the person's or an agent's): animate its steps, then show the game.
  async apply(answer, gen) {
    const before = this.game.position;
    this.busy = false;
    this.selected = null;
    this.hint = null;
    $("hint-text").hidden = true;
    const played = answer.played;
    this.adopt(answer.game, played);
    this.turned = { ply: answer.game.history.length, places: turnedBy(played && played.sowing) };
    const stepMs = this.stepMs();
    if (played && played.sowing && played.sowing.length && stepMs > 0) {
      this.animating = true;
      this.skipping = false;
      $("sow-bar").hidden = true;
      const sows = played.sowing.some((step) => step.step === "pick");
      this.status(h("span", {}, `${answer.game.seats[played.seat].label} ${sows ? "sows" : "plays"} ${played.move}`, h("span", { class: "sub" }, " · click the board or press Esc to skip")));
      const opts = { names: answer.game.seats.map((seat) => seat.label), last: played.place, flip: this.flip };
      Reply.waited(played.sowing.length * stepMs);
      await animateSteps($("board"), before, played.sowing, opts, stepMs, () => gen === this.gen && !this.skipping);
      this.animating = false;
      if (gen !== this.gen) return;
    }
    // What the rules made of the move, when a player might not expect it (a caro five
    // blocked at both ends): shown until the next such note or the game's next start.
    if (played && played.note) this.note = played.note;
    this.render();
    if (played && played.move) Reply.moved(answer.game, played);
    this.tell("moved");
    this.next();
  },

  async move(text) {
    if (this.busy || this.animating) return;
    const game = this.game;
    const gen = this.gen;
    this.busy = true;
    this.stopClock(true);
    BoardTools.marked = null;
    Reply.click();
    $("sow-bar").hidden = true;
    try {
      const answer = await api("POST", `/api/games/${game.id}/move`, { move: text, ply: game.ply });
      if (gen !== this.gen) return;
      await this.apply(answer, gen);
    } catch (error) {
      this.busy = false;
      if (gen !== this.gen) return;
      if (error.status !== 409 && error.status !== 404) toast(error.message);
      this.reload();
    }
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
      if (gen === this.gen) this.failed(error);
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
      this.tell("moved");
      this.next();
    } catch (error) {
      if (gen === this.gen) this.failed(error);
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
        box.replaceChildren(h("strong", {}, `Hint: ${hint.move}`), ` — ${hint.reason}`);
        box.title = `${hint.agent}: ${statsText(hint.stats, false)}${hint.search ? `; ${hint.search}` : ""}`;
      } else {
        box.textContent = hint.reason;
      }
      this.render();
    } catch (error) {
      this.busy = false;
      if (gen === this.gen) { if (error.status !== 404) toast(error.message); this.reload(); }
    }
  },

  async resign() {
    const game = this.game;
    if (!game || game.over) return;
    // Who resigns: the person to move, else the one person at the table.
    const seat = game.to_move !== null && game.seats[game.to_move].person ? game.to_move : game.seats.findIndex((s) => s.person);
    if (seat < 0 || !confirm(`Resign for ${game.seats[seat].label}? The game is recorded as a loss for them.`)) return;
    const gen = ++this.gen;
    clearTimeout(this.timer);
    try {
      const answer = await api("POST", `/api/games/${game.id}/resign`, { seat });
      if (gen !== this.gen) return;
      this.busy = false;
      this.game = answer.game;
      this.render();
      this.tell("moved");
      this.next();
    } catch (error) {
      if (gen === this.gen) this.failed(error);
    }
  },

  // Every seat's clock, always in place while the game has one: the seat to move counts
  // down, the others show what they have. Per-move clocks (`move_time_ms`) refill at each
  // move; a game clock (`game.clocks`: each seat's ms left when the server answered) keeps
  // each seat's own time, and the mover's counts down between answers (`gameClock`).
  clocks() {
    const game = this.game;
    const box = $("clocks");
    const timed = !!(game.move_time_ms || game.clocks);
    box.hidden = !timed;
    if (!timed) return;
    const running = !game.over && game.to_move !== null ? game.to_move : null;
    box.replaceChildren(...game.seats.map((seat, i) => {
      const limit = game.clocks ? game.clocks[i] : game.move_time_ms;
      const text = game.clocks ? clockFace(limit) : `${(limit / 1000).toFixed(1)} s`;
      return h("div", { class: `clock${running === i ? " running" : ""}`, "data-seat": i },
        h("span", { class: "dot", style: `background:${SEAT_COLOURS[i]}` }),
        h("span", { class: "who" }, seat.seat || `seat ${i + 1}`),
        // A game clock with a limit per move too (tc and st): the move's time beside it.
        game.clocks && game.move_time_ms ? h("span", { class: "move-left", title: "time left for this move", hidden: true }, h("span", { class: "word" }, "move "), h("span", { class: "left" })) : null,
        h("span", { class: "time" }, text),
        h("div", { class: "bar", style: game.clocks ? "display:none" : "" }));
    }));
    if (game.clocks) this.gameClock(running);
  },

  // The mover's game clock counts down from the server's answer: a person's from the page's
  // `ready` (their turn's start on the server), an agent's while it thinks. The server's
  // clock decides; once a person's time for the move (`clock_ms`) is gone, ask it.
  gameClock(seat) {
    this.stopClock();
    const game = this.game;
    if (seat === null) return;
    const person = game.seats[seat].person;
    if (!person && !(this.busy || game.thinking)) return;
    // A new answer (a poll while an agent thinks, a reload) has the time since taken off
    // already: count down from it, not from the first answer of the turn.
    const key = `${game.id}:${game.ply}:${game.clocks[seat]}:${person ? game.clock_ms : "thinking"}`;
    if (this.gameClockKey !== key) {
      this.gameClockKey = key;
      this.gameClockAt = performance.now();
    }
    const from = game.clocks[seat];
    const gen = this.gen;
    const tick = () => {
      if (gen !== this.gen || this.game !== game) return;
      const clock = document.querySelector(`#clocks .clock[data-seat='${seat}']`);
      if (!clock) return;
      const ran = performance.now() - this.gameClockAt;
      const remaining = Math.max(0, from - ran);
      clock.querySelector(".time").textContent = clockFace(remaining);
      const moveLeft = clock.querySelector(".move-left .left");
      let low = remaining < 10000;
      if (moveLeft && person && game.clock_ms !== null) {
        const forMove = Math.max(0, game.clock_ms - ran);
        moveLeft.textContent = clockFace(forMove);
        moveLeft.parentNode.hidden = false;
        low = low || forMove < 0.25 * game.move_time_ms;
      }
      clock.classList.toggle("low", low);
      if (person && game.clock_ms !== null && ran >= game.clock_ms) {
        this.clockFrame = null;
        setTimeout(() => { if (gen === this.gen) this.reload(); }, 600);
        return;
      }
      this.clockFrame = requestAnimationFrame(tick);
    };
    tick();
  },

  startClock(left) {
    this.stopClock();
    const game = this.game;
    const limit = game.move_time_ms;
    this.clockEnd = performance.now() + left;
    const gen = this.gen;
    const seat = game.to_move;
    const tick = () => {
      if (gen !== this.gen) return;
      const clock = document.querySelector(`#clocks .clock[data-seat='${seat}']`);
      if (!clock) return;
      const remaining = Math.max(0, this.clockEnd - performance.now());
      clock.querySelector(".bar").style.width = `${(100 * remaining) / limit}%`;
      clock.querySelector(".time").textContent = `${(remaining / 1000).toFixed(1)} s`;
      clock.classList.toggle("low", remaining < 0.25 * limit);
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
    if (key === "m") return this.moveNow();
    if (key === "n") return game.over ? this.start(this.lastRequest || this.requestOf(game)) : this.leave();
    if (key === " " && this.agentsOnly()) { event.preventDefault(); return this.togglePause(); }
    if (this.lookKey(event)) return;
    if (this.looking !== null) return;
    if (!this.personToMove() || this.busy || this.animating) return;
    const view = game.position;
    const moves = movesByPlace(view);
    if (isGrid(view)) {
      const { rows, cols, gravity } = view.layout;
      const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (steps[key]) {
        event.preventDefault();
        const centre = Math.floor(rows / 2) * cols + Math.floor(cols / 2);
        const at = this.cursor === null ? centre : this.cursor;
        const r = Math.min(rows - 1, Math.max(0, Math.floor(at / cols) + steps[key][0]));
        const c = Math.min(cols - 1, Math.max(0, (at % cols) + steps[key][1]));
        this.cursor = this.cursor === null ? centre : r * cols + c;
        this.render();
      } else if ((key === "Enter" || key === " ") && this.cursor !== null) {
        event.preventDefault();
        const column = this.cursor % cols;
        const entry = gravity
          ? legalMoves(view).find((m) => m.place % cols === column)
          : (moves.get(this.cursor) || [])[0];
        if (entry) this.move(entry.move);
      }
      return;
    }
    // A ring: a label picks a pit (two digits within a moment for 10 and more); a pit with
    // one move plays it; an arrow or the move's last letter sows the picked pit that way.
    if (/^[0-9a-zA-Z]$/.test(key) && key !== "u" && key !== "h" && key !== "n") {
      const now = performance.now();
      let label = key;
      if (this.typed && now - this.typedAt < 700 && /^[0-9]$/.test(key)) label = `${this.typed}${key}`;
      this.typed = key;
      this.typedAt = now;
      if (this.selected !== null) {
        const picked = view.places[this.selected].label;
        const entry = (moves.get(this.selected) || []).find((m) => m.move.toLowerCase() === `${picked}${key}`.toLowerCase());
        if (entry) { event.preventDefault(); return this.move(entry.move); }
      }
      const wanted = label === "0" ? "10" : label;
      const index = view.places.findIndex((pit, i) => moves.has(i) && String(pit.label).toLowerCase() === wanted.toLowerCase());
      if (index >= 0) {
        const here = moves.get(index);
        if (here.length === 1) return this.move(here[0].move);
        this.selected = index;
        this.render();
      }
      return;
    }
    if (this.selected !== null) {
      const side = key === "ArrowRight" ? "right" : key === "ArrowLeft" ? "left" : null;
      const entry = side && (moves.get(this.selected) || []).find((m) => sideOf(view, m, this.flip) === side);
      if (entry) { event.preventDefault(); this.move(entry.move); }
      if (key === "Escape") { this.selected = null; this.render(); }
    }
  },
};

// A seat's name from a variant's answer (`/api/variant`).
const seatNameOf = (variant, seat) => (variant.seat_names && variant.seat_names[seat]) || `player ${seat + 1}`;

// ---------------------------------------------------------------- Analyse

const Analyse = {
  answer: null,
  selected: null,
  opened: false,
  asked: 0,
  debounce: null,

  init() {
    $("analyse-form").addEventListener("submit", (e) => { e.preventDefault(); this.run(true); });
    $("an-back").addEventListener("click", () => {
      const moves = $("an-moves").value.trim().split(/\s+/).filter(Boolean);
      moves.pop();
      $("an-moves").value = moves.join(" ");
      this.run(false);
    });
    for (const id of ["an-variant", "an-moves"]) {
      $(id).addEventListener("input", () => { clearTimeout(this.debounce); this.debounce = setTimeout(() => this.run(false), 350); });
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
    // A run supersedes the position a typed change was about to ask for, and answers can
    // overtake each other: only the latest request's answer is shown.
    clearTimeout(this.debounce);
    const asked = ++this.asked;
    const request = { variant: $("an-variant").value.trim(), moves: $("an-moves").value.trim(), agents: [], solve: false };
    if (full) {
      request.agents = $("an-agents").value.split("\n").map((line) => line.trim()).filter(Boolean);
      request.solve = $("an-solve").checked;
      $("an-status").replaceChildren(h("span", { class: "spinner" }), " thinking…");
      $("an-run").disabled = true;
    }
    try {
      const answer = await api("POST", "/api/analyse", request);
      if (asked !== this.asked) return;
      this.answer = answer;
      this.selected = null;
      this.remember(answer);
      this.draw();
      this.results(full);
    } catch (error) {
      if (asked !== this.asked) return;
      // Nothing of an earlier position stays on screen beside an error.
      this.answer = null;
      $("an-board").replaceChildren();
      $("an-line").textContent = "";
      $("an-results").replaceChildren(h("p", { class: "note bad" }, error.message));
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
    // A click adds the move in the game's own notation (the legal moves say which).
    if (!answer.over) {
      opts.onMove = add;
      opts.selected = this.selected;
      opts.onPick = (i) => { this.selected = i; this.draw(); };
    }
    if (answer.solver && answer.solver.moves && isGrid(view)) {
      opts.values = {};
      for (const entry of answer.solver.moves) if (entry.place.place !== null) opts.values[entry.place.place] = entry.value || "?";
    }
    opts.marks = (answer.agents || []).map((a, i) => (a.place ? { place: a.place.place, label: String(i + 1) } : null)).filter(Boolean);
    $("an-board").replaceChildren(drawBoard(view, opts), ...passButtons(view, opts));
    $("an-line").textContent = isGrid(view) ? "" : view.text;
    this.drawEval();
    const mover = seatName(view, view.to_move);
    const n = answer.moves.length, moves = `${n} ${n === 1 ? "move" : "moves"}`;
    $("an-status").textContent = answer.over
      ? `Game over after ${moves}: ${answer.over} (${resultWords(view, answer.over)})`
      : n ? `After ${moves}, ${mover} to move` : `At the start, ${mover} to move`;
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
      const mover = seatName(answer.position, answer.position.to_move);
      const verb = { win: "wins", draw: "draws", loss: "loses" }[solver.value];
      parts.push(h("h2", {}, "Exact value"));
      parts.push(h("p", {}, solver.value
        ? `${mover} ${verb} with best play (${solver.outcome}).`
        : `Not decided within the solver's limits (${solver.depth ? `${solver.depth} plies deep, ` : ""}${count(solver.nodes)} positions searched).`));
      if (solver.value && solver.value !== "loss") parts.push(h("p", { class: "note" }, `${solver.value === "win" ? "Winning" : "Drawing"} moves: ${solver.best.join(" ")}`));
      if (solver.moves.length && isGrid(answer.position)) {
        parts.push(h("p", { class: "note" }, "On the board: each move's value for the side to move (W win, D draw, L loss)."));
      } else if (solver.moves.length) {
        parts.push(h("p", { class: "note" }, `Every move: ${solver.moves.map((m) => `${m.move} ${m.value || "?"}`).join(", ")}`));
      }
      parts.push(h("p", { class: "note" }, `${count(solver.nodes)} nodes in ${ms(solver.ms)}${solver.complete ? "" : " (incomplete)"}`));
    }
    if (answer.agents.length) {
      parts.push(h("h2", { style: "margin-top:1rem" }, "What the agents play"));
      if (answer.agents.some((a) => a.place && a.place.place !== null)) parts.push(h("p", { class: "note" }, "On the board: each agent's move, ringed with its number."));
      parts.push(h("ul", { class: "answers" }, answer.agents.map((a, i) => h("li", {},
        h("div", {}, h("span", { class: "agent-number", "aria-hidden": "true" }, String(i + 1)), h("span", { class: "agent" }, a.agent), a.error ? null : h("strong", {}, a.move)),
        h("div", { class: "note" }, a.error ? a.error : statsText(a.stats)),
        a.error ? null : this.pvLine(a.pv)))));
    }
    if (!parts.length) parts.push(h("p", { class: "note" }, answer.over ? "The game is over: there is nothing to choose." : "Ask for the exact value or some agents."));
    box.replaceChildren(...parts);
  },

  // Issue 36, missing 3: an agent's principal variation (the line it expects, its move
  // first), each move a button that plays the line on the board up to it.
  pvLine(pv) {
    if (!pv || !pv.length) return null;
    const before = this.answer.moves.map((m) => m.move);
    return h("div", { class: "pv", "data-pv": pv.join(" ") }, h("span", { class: "note" }, "Expected line: "),
      ...pv.map((move, i) => h("button", { type: "button", class: "pv-move", title: `play the line to here (${i + 1} of ${pv.length})`,
        onclick: () => { $("an-moves").value = [...before, ...pv.slice(0, i + 1)].join(" "); this.run(false); } }, move)));
  },

  // Issue 36, missing 3: the evaluation graph of Play and Replay (showEval) over the line of
  // moves shown, filled by the first agent's value each time Analyse asks the agents: one
  // point per position asked, kept while the line goes through it.
  evalPoints: [],
  remember(answer) {
    const a = (answer.agents || [])[0];
    if (!a || a.error || !a.stats) return;
    const moves = answer.moves.map((m) => m.move).join(" ");
    this.evalPoints = this.evalPoints.filter((p) => p.moves !== moves);
    this.evalPoints.push({ moves, ply: answer.moves.length, seat: answer.position.to_move, score: a.stats.score, variant: answer.variant });
  },
  drawEval() {
    const answer = this.answer, view = answer.position;
    const line = answer.moves.map((m) => m.move);
    const through = (p) => p.variant === answer.variant && line.slice(0, p.ply).join(" ") === p.moves;
    const points = this.evalPoints.filter(through).sort((a, b) => a.ply - b.ply);
    if (!points.length) { $("an-eval").replaceChildren(); $("an-eval").dataset.points = "0"; return; }
    showEval($("an-eval"), points, answer.players, line.length, [0, 1].map((i) => seatName(view, i)),
      { now: line.length, onPick: (ply) => { $("an-moves").value = line.slice(0, ply).join(" "); this.run(false); },
        none: "No value from the first agent (it gives none)." });
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
  optionsOf: null,

  init() {
    let debounce = null;
    $("rp-file").addEventListener("change", () => {
      // A name typed just before is dropped with its pending listing.
      clearTimeout(debounce);
      this.file = $("rp-file").value;
      this.offset = 0;
      $("rp-agent").value = "";
      $("rp-against").value = "";
      $("rp-result").value = "";
      // The old file's game goes too (and a toast about it): nothing of it passes for the new.
      this.gen += 1;
      this.stopPlay();
      this.game = null;
      this.row = null;
      $("rp-view").hidden = true;
      $("toast").hidden = true;
      // The old file's variants go at once: one picked before the new file's come would
      // filter the new listing by a variant its picker no longer shows.
      $("rp-variant").replaceChildren(h("option", { value: "" }, "any"));
      this.list(true);
    });
    for (const id of ["rp-variant", "rp-result"]) $(id).addEventListener("change", () => { this.offset = 0; this.list(false); });
    for (const id of ["rp-agent", "rp-against"]) $(id).addEventListener("input", () => { clearTimeout(debounce); debounce = setTimeout(() => { this.offset = 0; this.list(false); }, 300); });
    $("rp-prev").addEventListener("click", () => { this.offset = Math.max(0, this.offset - this.limit); this.list(false); });
    $("rp-next").addEventListener("click", () => { this.offset += this.limit; this.list(false); });
    $("rp-first").addEventListener("click", () => this.step(-Infinity));
    $("rp-back").addEventListener("click", () => this.step(-1));
    $("rp-fwd").addEventListener("click", () => this.step(1));
    $("rp-last").addEventListener("click", () => this.step(Infinity));
    $("rp-ply").addEventListener("input", () => this.go(Number($("rp-ply").value)));
    $("rp-copy").addEventListener("click", () => this.copy());
    $("rp-play").addEventListener("click", () => this.togglePlay());
    $("rp-eval-form").addEventListener("submit", (e) => { e.preventDefault(); this.evaluate(); });
    $("rp-analyse").addEventListener("click", () => {
      if (!this.game) return;
      Analyse.openWith(this.game.variant, this.game.moves.slice(0, this.ply).map((m) => m.move).join(" "));
    });
  },

  // Issue 36, missing 5: `#replay?file=F&variant=V&agent=A&against=B` (the report's links):
  // that file's listing with those filters (`"name"` in quotes is the whole name).
  wanted: null,
  filtered(query, first) {
    this.wanted = { file: query.get("file"), variant: query.get("variant") || "", agent: query.get("agent") || "", against: query.get("against") || "" };
    if (!first) this.open();
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
      const asked = this.wanted && files.includes(this.wanted.file) ? this.wanted : null;
      if (this.wanted && !asked) toast(`no games file ${this.wanted.file} under ${answer.results}`);
      this.wanted = null;
      const wanted = asked ? asked.file : this.file && files.includes(this.file) ? this.file : files.includes("play/games.csv") ? "play/games.csv" : files[0];
      $("rp-file").value = wanted;
      if (asked) {
        this.stopPlay();
        this.game = null;
        this.row = null;
        $("rp-view").hidden = true;
        this.offset = 0;
        $("rp-agent").value = asked.agent;
        $("rp-against").value = asked.against;
        $("rp-result").value = "";
      }
      this.file = wanted;
      this.list(true, asked ? asked.variant : "");
    } catch (error) {
      toast(error.message);
    }
  },

  async list(newFile, variant = "") {
    if (!this.file) return;
    // The file's variants and agents are shown by the first answer for it that is shown (a
    // newer listing of the same file can overtake the one that asked for them).
    if (newFile) this.optionsOf = null;
    const query = new URLSearchParams({ file: this.file, offset: this.offset, limit: this.limit });
    if (!newFile && $("rp-variant").value) query.set("variant", $("rp-variant").value);
    if (newFile && variant) query.set("variant", variant);
    if ($("rp-agent").value.trim()) query.set("agent", $("rp-agent").value.trim());
    if ($("rp-agent").value.trim() && $("rp-against").value.trim()) query.set("against", $("rp-against").value.trim());
    if ($("rp-result").value) query.set("result", $("rp-result").value);
    // Answers can overtake each other: only the latest list is shown.
    const asked = ++this.asked;
    try {
      const answer = await api("GET", `/api/records/games?${query}`);
      if (asked !== this.asked) return;
      this.total = answer.total;
      if (this.optionsOf !== this.file) {
        this.optionsOf = this.file;
        $("rp-variant").replaceChildren(h("option", { value: "" }, "any"), ...answer.variants.map((v) => h("option", { value: v }, v)));
        if (newFile && variant) $("rp-variant").value = variant;
        $("rp-agents").replaceChildren(...answer.agents.map((a) => h("option", { value: a })));
      }
      const body = $("rp-games").querySelector("tbody");
      body.replaceChildren(...answer.games.map((g) => h("tr", { "data-row": g.row, class: this.row === g.row ? "on" : "", onclick: () => this.show(g.row) },
        h("td", {}, g.game), h("td", {}, g.variant), h("td", {}, g.seats.join(" – ")), Replay.resultCell(g), h("td", {}, g.termination), h("td", { class: "num" }, g.plies))));
      const end = Math.min(this.total, this.offset + answer.games.length);
      $("rp-count").textContent = this.total ? `games ${this.offset + 1}–${end} of ${this.total}` : "no game matches";
      $("rp-prev").disabled = this.offset === 0;
      $("rp-next").disabled = end >= this.total;
    } catch (error) {
      toast(error.message);
    }
  },

  // A game given by its variant and moves (a link), shown at `ply`.
  async openLine(variant, moves, ply) {
    try {
      const line = await api("GET", `/api/replay?${new URLSearchParams({ variant, moves })}`);
      const n = line.moves.length;
      this.display({ ...line, seats: [], shared: true }, null, Math.max(0, Math.min(n, ply || 0)));
    } catch (error) {
      toast(error.message);
    }
  },

  async show(row) {
    try {
      const game = await api("GET", `/api/records/game?file=${encodeURIComponent(this.file)}&row=${row}`);
      this.display(game, row, 0);
    } catch (error) {
      toast(error.message);
    }
  },

  // Shows `game` (a recorded row, or a shared line with `shared` set) at `ply`.
  display(game, row, ply) {
    this.stopPlay();
    this.game = game;
    this.resetEval();
    this.row = row;
    $("toast").hidden = true;
    for (const tr of $("rp-games").querySelectorAll("tbody tr")) tr.classList.toggle("on", Number(tr.dataset.row) === row);
    $("rp-view").hidden = false;
    $("rp-title").textContent = game.shared ? `${game.variant}: a game shared by its moves` : `${game.variant}: ${game.seats.join(" – ")}`;
    $("rp-meta").textContent = game.shared ? `${game.moves.length} moves, from a link` : `${game.file}, game ${game.game} (${game.experiment}), seed ${game.seed}: ${game.result} by ${game.termination}, ${game.plies} plies`;
    $("rp-ply").max = game.moves.length;
    this.players = game.positions[0].players;
    $("rp-moves").replaceChildren(...moveRounds(game.moves, this.players, { onPick: (ply) => this.go(ply) }));
    this.go(ply);
    $("rp-view").scrollIntoView({ behavior: "smooth", block: "nearest" });
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
    const names = game.shared ? undefined : game.seats.map((name, i) => `${seatName(view, i)} (${name})`);
    if (animate && ply > 0 && game.moves[ply - 1].sowing) {
      await animateSteps($("rp-board"), before, game.moves[ply - 1].sowing, { names, last }, 45, () => gen === this.gen);
      if (gen !== this.gen) return;
    }
    const turned = ply > 0 ? turnedBy(game.moves[ply - 1].sowing) : new Set();
    $("rp-board").replaceChildren(drawBoard(view, { names, last, turned }));
    $("rp-line").textContent = isGrid(view) ? "" : view.text;
    $("rp-ply").value = ply;
    const end = ply === game.moves.length && !game.shared ? ` · end: ${game.result} (${game.termination})` : "";
    $("rp-status").textContent = `move ${ply} of ${game.moves.length}${ply > 0 ? `: ${game.moves[ply - 1].move}` : ""}${end}`;
    $("rp-status").dataset.ply = ply;
    this.drawEval();
    for (const move of $("rp-moves").querySelectorAll(".mv")) move.classList.toggle("now", Number(move.dataset.ply) === ply);
    // The list follows the move shown (End on a long game shows its last rounds).
    const now = $("rp-moves").querySelector(".mv.now");
    if (now) now.scrollIntoView({ block: "nearest" });
  },

  // Issue 36, missing 3: the game evaluated by an agent, position by position (POST
  // /api/analyse for each, one after another, at most EVAL_POSITIONS), drawn as it comes.
  evalGen: 0,
  evalPoints: null,
  evalNames() {
    const view = this.game.positions[0];
    return this.game.shared ? [0, 1].map((i) => seatName(view, i)) : this.game.seats;
  },
  resetEval() {
    this.evalGen += 1;
    this.evalPoints = null;
    $("rp-eval").replaceChildren();
    $("rp-eval-status").textContent = "";
    $("rp-eval-run").disabled = false;
  },
  async evaluate() {
    const game = this.game;
    if (!game) return;
    const spec = $("rp-eval-agent").value.trim();
    const gen = ++this.evalGen;
    const moves = game.moves.map((m) => m.move);
    const n = Math.min(moves.length, EVAL_POSITIONS);
    const points = [];
    this.evalPoints = points;
    $("rp-eval-run").disabled = true;
    try {
      for (let p = 0; p < n; p++) {
        const answer = await api("POST", "/api/analyse", { variant: game.variant, moves: moves.slice(0, p).join(" "), agents: [spec], solve: false, seed: p });
        if (gen !== this.evalGen || this.game !== game) return;
        const a = answer.agents[0];
        if (!a) break;
        if (a.error) throw new Error(`${a.agent}: ${a.error}`);
        points.push({ ply: p, seat: answer.position.to_move, score: a.stats.score });
        this.drawEval();
        $("rp-eval-status").textContent = `${p + 1} of ${n} positions${n < moves.length ? ` (the first ${n})` : ""} valued by ${a.agent}`;
      }
    } catch (error) {
      if (gen === this.evalGen) $("rp-eval-status").textContent = error.message;
    } finally {
      if (gen === this.evalGen) $("rp-eval-run").disabled = false;
    }
  },
  drawEval() {
    if (!this.evalPoints || !this.game) return;
    showEval($("rp-eval"), this.evalPoints, this.players, this.game.moves.length, this.evalNames(),
      { now: this.ply, onPick: (ply) => this.go(ply), none: "No value from this agent (it gives none)." });
  },

  // Issue 36, defect 15: a result of more than two seats in words ("mcts first, random
  // second, ..."), its code kept in the tooltip; two seats keep the familiar 1-0 / 0-1.
  resultCell(g) {
    if (g.seats.length <= 2) return h("td", {}, g.result);
    // Two seats of one name are told apart by their seat.
    const names = g.seats.map((name, i) => (g.seats.indexOf(name) !== g.seats.lastIndexOf(name) ? `${name} (seat ${i + 1})` : name));
    const words = resultWords({ players: g.seats.length, seat_names: names }, g.result);
    return h("td", { class: "result-words", title: g.result }, words);
  },

  // Issue 36, missing 5: autoplay. Play steps a move every `rp-speed` ms until the end (or
  // Pause, another game, another file); stepping by hand meanwhile goes on from there.
  autoTimer: null,
  autoGame: null,
  togglePlay() {
    if (this.autoTimer) return this.stopPlay();
    if (!this.game) return;
    if (this.ply >= this.game.moves.length) this.go(0);
    this.autoGame = this.game;
    const tick = async () => {
      if (this.game !== this.autoGame || this.ply >= this.game.moves.length) return this.stopPlay();
      await this.go(this.ply + 1, true);
      if (!this.autoTimer) return;
      if (this.ply >= this.game.moves.length) return this.stopPlay();
      this.autoTimer = setTimeout(tick, Number($("rp-speed").value));
    };
    this.autoTimer = setTimeout(tick, Math.min(300, Number($("rp-speed").value)));
    this.showPlay();
  },
  stopPlay() {
    clearTimeout(this.autoTimer);
    this.autoTimer = null;
    this.autoGame = null;
    this.showPlay();
  },
  showPlay() {
    const on = !!this.autoTimer;
    $("rp-play").textContent = on ? "❚❚ Pause" : "▶ Play";
    $("rp-play").setAttribute("aria-pressed", String(on));
    $("rp-play").title = on ? "Pause (p)" : "Play the moves one after another (p)";
  },

  async copy() {
    if (!this.game) return;
    const text = this.game.moves.map((m) => m.move).join(" ");
    await copyText(text);
    toast(`copied ${this.game.moves.length} moves: arena replay ${this.game.variant} "${text.length > 60 ? text.slice(0, 60) + "…" : text}"`);
  },

  key(event) {
    if (!this.game || typing()) return;
    const keys = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (keys[event.key] !== undefined) { event.preventDefault(); this.step(keys[event.key]); }
    if (event.key === "c") this.copy();
    if (event.key === "p") this.togglePlay();
  },
};

// ---------------------------------------------------------------- Report

const Report = {
  folders: [],

  init() {
    $("rep-dir").addEventListener("change", () => this.show());
    $("rep-write").addEventListener("click", () => this.write());
  },

  // The folders' list; then the picked folder's report, unless `show` is false (a report just
  // written is on the page already).
  async open(show = true) {
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
      if (show) this.show();
    } catch (error) {
      toast(error.message);
    }
  },

  async show() {
    const dir = $("rep-dir").value;
    const folder = this.folders.find((f) => f.dir === dir);
    $("rep-write").disabled = !folder || !folder.games;
    $("rep-write").textContent = folder && folder.report ? "Rewrite report" : "Write report";
    // A folder without a report: say so, rather than ask for what is not there.
    if (folder && !folder.report) {
      $("rep-body").replaceChildren(h("p", { class: "note" }, folder.games
        ? `No report in ${dir || "the results folder"} yet: Write report makes one from its games.`
        : `No report in ${dir || "the results folder"}, and no games to write one from.`));
      return;
    }
    try {
      const answer = await api("GET", `/api/report?dir=${encodeURIComponent(dir)}`);
      const body = $("rep-body");
      body.innerHTML = answer.html;
      chartsReadable(body);
      this.navigate(dir);
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note" }, error.message));
    }
  },

  // Issue 36, missing 5: the report's contents scroll to their section (the page's own
  // `#page` addresses are left alone), and where the folder has its games.csv, each agent of a
  // table with an Agent column links to its games in Replay, and each Opponent to the pair's,
  // in the section's variant (a `##` heading that starts with an id and no space, like
  // "mnk-3x3k3 (9 cells)"; the pooled section's links take every variant).
  navigate(dir) {
    const body = $("rep-body");
    for (const link of body.querySelectorAll('a[href^="#"]')) {
      const target = decodeURIComponent(link.getAttribute("href").slice(1));
      link.addEventListener("click", (event) => {
        const section = document.getElementById(target);
        if (!section || !body.contains(section)) return;
        event.preventDefault();
        section.scrollIntoView({ block: "start" });
        section.setAttribute("tabindex", "-1");
        section.focus({ preventScroll: true });
      });
    }
    const folder = this.folders.find((f) => f.dir === dir);
    if (!folder || !folder.games) return;
    const file = dir ? `${dir}/games.csv` : "games.csv";
    let variant = "";
    for (const node of body.querySelectorAll("h2, table")) {
      if (node.tagName === "H2") {
        const id = node.textContent.match(/^(\S+)( \(.*\))?$/);
        variant = id ? id[1] : "";
        continue;
      }
      const heads = [...node.querySelectorAll("thead th")].map((th) => th.textContent.trim());
      const agentAt = heads.indexOf("Agent"), opponentAt = heads.indexOf("Opponent");
      if (agentAt < 0) continue;
      for (const row of node.querySelectorAll("tbody tr")) {
        const cells = row.children;
        const agent = cells[agentAt] && cells[agentAt].textContent.trim();
        if (!agent) continue;
        const where = variant ? ` in ${variant}` : "";
        const link = (cell, against) => {
          const query = new URLSearchParams({ file, agent: `"${agent}"` });
          if (variant) query.set("variant", variant);
          if (against) query.set("against", `"${against}"`);
          const a = h("a", { href: `#replay?${query}`, class: "to-replay",
            title: against ? `${agent}'s games against ${against}${where}, in Replay` : `${agent}'s games${where}, in Replay` }, ...cell.childNodes);
          cell.replaceChildren(a);
        };
        link(cells[agentAt], null);
        if (opponentAt >= 0 && cells[opponentAt]) link(cells[opponentAt], cells[opponentAt].textContent.trim());
      }
    }
  },

  async write() {
    const dir = $("rep-dir").value;
    $("rep-write").disabled = true;
    $("rep-body").replaceChildren(h("p", {}, h("span", { class: "spinner" }), " writing the report (ratings with bootstrap intervals, charts)…"));
    try {
      const answer = await api("POST", "/api/report", { dir });
      $("rep-body").innerHTML = answer.html;
      chartsReadable($("rep-body"));
      this.navigate(dir);
      await this.open(false);
      $("rep-write").textContent = "Rewrite report";
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    } finally {
      $("rep-write").disabled = false;
    }
  },
};

// A report's charts each in a box of its own: on a phone the chart keeps a size its numbers
// read at (a heatmap's cells) and scrolls sideways there, not the page (issue 36, defect 24).
function chartsReadable(body) {
  for (const img of body.querySelectorAll("img")) {
    if (img.parentElement.classList.contains("chart-scroll")) continue;
    const box = h("div", { class: "chart-scroll", tabindex: 0, role: "region", "aria-label": img.alt || "chart" });
    img.replaceWith(box);
    box.append(img);
  }
}

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
      // Second or third of three or four: neither a win nor a loss (a column where there is one).
      const placed = stats.modes.some((m) => m.tally.placed) || stats.levels.some((l) => l.tally.placed);
      const wdl = (t) => (placed ? `${t.wins}-${t.draws}-${t.placed}-${t.losses}` : `${t.wins}-${t.draws}-${t.losses}`);
      body.replaceChildren(...[
        h("h2", {}, `${stats.games} ${stats.games === 1 ? "game" : "games"}${stats.name ? ` of ${stats.name}` : ""}`),
        h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "table" }, h("table", { class: "modes" },
          h("thead", {}, h("tr", {}, ["mode", "counted for", "games", "wins", "draws", ...(placed ? ["placed"] : []), "losses"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.modes.map((m) => row([m.mode, m.view, m.tally.games, m.tally.wins, m.tally.draws, ...(placed ? [m.tally.placed] : []), m.tally.losses])))))
        ,
        stats.levels.length ? h("h2", { style: "margin-top:1rem" }, "Against each AI level") : null,
        stats.levels.length ? h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "table" }, h("table", {},
          h("thead", {}, h("tr", {}, ["variant", "level", "games", placed ? "W-D-P-L" : "W-D-L", "win rate"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.levels.map((l) => h("tr", {},
            h("td", {}, l.variant), h("td", {}, l.level), h("td", { class: "num" }, l.tally.games),
            h("td", { class: "num" }, wdl(l.tally)),
            h("td", { class: "num" }, h("span", { class: "rate", style: `width:${Math.round(60 * l.win_rate)}px` }), `${(100 * l.win_rate).toFixed(1)}%`)))))) : null,
        placed ? h("p", { class: "note" }, "Placed (P): second or third at a table of three or four, counted neither won nor lost.") : null,
        h("p", { class: "note" }, "The ratings of people against each agent: Report, or arena report on the play record.")].filter(Boolean));
    } catch (error) {
      $("st-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    }
  },
};

// ---------------------------------------------------------------- Live

// A run as it plays (crates/web/src/api_live.rs): polled every LIVE_POLL_MS while the page is
// shown; an answer whose files did not change is `{unchanged: true}` and redraws nothing.
const LIVE_POLL_MS = 1500;

const Live = {
  timer: null,
  version: null,
  dir: null,
  asked: 0,

  init() {
    $("lv-dir").addEventListener("change", () => { this.dir = $("lv-dir").value; this.version = null; this.poll(); });
  },

  async open() {
    try {
      const answer = await api("GET", "/api/live");
      const runs = answer.runs;
      if (!runs.length) {
        $("lv-dir").replaceChildren();
        this.status(`No run under ${answer.results} yet: start one with arena run EXPERIMENT --out ${answer.results}/NAME, and it shows here as it plays.`, "");
        return;
      }
      $("lv-dir").replaceChildren(...runs.map((r) => h("option", { value: r.dir }, `${r.dir || "(results)"}${r.playing ? " · playing" : ""}`)));
      const keep = runs.find((r) => r.dir === this.dir);
      this.dir = keep ? keep.dir : runs[0].dir;
      $("lv-dir").value = this.dir;
      this.version = null;
      this.poll();
    } catch (error) {
      this.status(error.message, "bad");
    }
  },

  status(text, cls) {
    $("lv-status").textContent = text;
    $("lv-status").className = `live-status ${cls}`;
  },

  // One poll, then the next while the page is shown (a hidden tab polls no more).
  async poll() {
    clearTimeout(this.timer);
    if (page !== "live") return;
    const asked = ++this.asked;
    const dir = this.dir;
    try {
      const query = new URLSearchParams({ dir });
      if (this.version) query.set("since", this.version);
      const state = await api("GET", `/api/live/run?${query}`);
      if (asked !== this.asked || dir !== this.dir) return;
      this.version = state.version;
      if (!state.unchanged) this.render(state);
    } catch (error) {
      if (asked !== this.asked) return;
      this.version = null;
      this.status(error.message, "bad");
    }
    if (asked === this.asked && page === "live") this.timer = setTimeout(() => this.poll(), LIVE_POLL_MS);
  },

  render(state) {
    const total = state.total;
    const words = { playing: "playing", stopped: "stopped", finished: "finished" }[state.status] || state.status;
    const of = total ? ` of ${count(total)}` : "";
    const more = state.status === "stopped" ? " · not running: arena run with the same experiment and --out resumes it" : "";
    this.status(`${state.experiment || state.dir}: ${words} · ${count(state.done)}${of} games${state.playing.length ? ` · ${state.playing.length} in progress` : ""}${more}${state.problems.length ? ` · ${state.problems.join("; ")}` : ""}`, state.status);
    $("lv-status").dataset.status = state.status;
    $("lv-bar").hidden = !total;
    if (total) $("lv-bar-done").style.width = `${Math.min(100, (100 * state.done) / total).toFixed(1)}%`;
    this.standings(state);
    this.crosstable(state.crosstable);
    this.playing(state.playing);
    this.finished(state);
  },

  standings(state) {
    $("lv-pool").textContent = state.pool ? `(${state.pool === "all" ? "every variant" : state.pool})` : "";
    const heads = ["#", "agent", "score", "games", "Elo", "W-D-L", "faults"];
    const table = $("lv-standings");
    if (!state.standings.length) {
      table.replaceChildren(h("tbody", {}, h("tr", {}, h("td", {}, "No game finished yet."))));
      return;
    }
    table.replaceChildren(
      h("thead", {}, h("tr", {}, heads.map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
      h("tbody", {}, state.standings.map((s, i) => h("tr", {},
        h("td", { class: "num" }, i + 1), h("td", {}, s.agent), h("td", { class: "num" }, s.score),
        h("td", { class: "num" }, s.games), h("td", { class: "num" }, s.elo === null ? "–" : s.elo),
        h("td", { class: "num" }, `${s.wins}-${s.draws}-${s.losses}`), h("td", { class: "num" }, s.faults || "")))));
  },

  crosstable(cross) {
    $("lv-cross-box").hidden = !cross;
    if (!cross) return;
    const short = (name) => (name.length > 8 ? `${name.slice(0, 7)}…` : name);
    $("lv-cross").replaceChildren(
      h("thead", {}, h("tr", {}, h("th", {}, ""), cross.agents.map((a, j) => h("th", { title: a }, short(a) || j + 1)))),
      h("tbody", {}, cross.agents.map((a, i) => h("tr", {}, h("td", {}, a),
        cross.cells[i].map((c, j) => h("td", { class: i === j ? "self" : "" }, c ? c.join("-") : ""))))));
  },

  playing(games) {
    const boards = $("lv-playing");
    if (!games.length) {
      boards.replaceChildren(h("p", { class: "note" }, "No game in progress."));
      return;
    }
    boards.replaceChildren(...games.map((g) => {
      const board = h("div", { class: "board" });
      if (g.position) {
        const names = g.seats.map((name, i) => `${seatName(g.position, i)} (${name})`);
        board.append(drawBoard(g.position, { names, last: g.last, compact: true }));
      }
      return h("div", { class: "live-game", "data-game": g.game },
        h("div", { class: "who" }, g.seats.join(" – ")),
        h("div", { class: "what" }, `game ${g.game} · ${g.variant} · move ${g.plies}${g.last_move ? `: ${g.last_move}` : ""}${g.error ? ` · ${g.error}` : ""}`),
        board);
    }));
  },

  finished(state) {
    $("lv-recent").replaceChildren(
      h("thead", {}, h("tr", {}, ["#", "players", "result", "how", "plies"].map((t, i) => h("th", { class: i === 4 ? "num" : "" }, t)))),
      h("tbody", {}, state.recent.map((g) => h("tr", { onclick: () => this.replay(g.file, g.row) },
        h("td", {}, g.game), h("td", {}, g.seats.join(" – ")), Replay.resultCell(g), h("td", {}, g.termination), h("td", { class: "num" }, g.plies)))));
    $("lv-faults").replaceChildren(...(state.faults.length ? state.faults.map((f) => h("li", {},
      f.file === null ? f.text : h("a", { onclick: () => this.replay(f.file, f.row) }, f.text))) : [h("li", { class: "note" }, "none")]));
  },

  // A finished game in Replay.
  replay(file, row) {
    Replay.file = file;
    location.hash = "#replay";
    Replay.show(row);
  },
};

// ---------------------------------------------------------------- start

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?" && !typing()) { event.preventDefault(); $("help").showModal(); return; }
  if (event.key === "Escape") {
    // Escape ends a sowing shown seed by seed at once (as a click on the board does).
    if (Play.animating) { Play.skipping = true; return; }
    Play.selected = null;
    if (Play.game) Play.render();
    return;
  }
  if (typing() && event.key !== "Enter") return;
  if (page === "play") Play.key(event);
  else if (page === "replay") Replay.key(event);
});

// ---------------------------------------------------------------- Preferences, sound, replies
//
// Issue 36, missing 6 and defects 21, 24 (and the sowing games' reply time). The page's own
// settings, remembered in the browser (localStorage "arena.*"): the theme (the system's
// `prefers-color-scheme` until the header's switch picks one), the move sound, and on a grid too
// big for the screen the zoom and "tap twice to play".

const Prefs = {
  get(key, fallback) {
    try { const value = localStorage.getItem(`arena.${key}`); return value === null ? fallback : value; } catch { return fallback; }
  },
  set(key, value) {
    try { if (value === null) localStorage.removeItem(`arena.${key}`); else localStorage.setItem(`arena.${key}`, value); } catch { /* a private window: not remembered */ }
  },

  init() {
    const system = window.matchMedia("(prefers-color-scheme: dark)");
    const systemTheme = () => (system.matches ? "dark" : "light");
    const theme = () => {
      const now = this.get("theme", null) || systemTheme();
      document.documentElement.dataset.theme = now;
      $("theme-button").setAttribute("aria-pressed", String(now === "dark"));
      $("theme-button").title = `Dark theme: ${now === "dark" ? "on" : "off"}${this.get("theme", null) ? "" : " (the system's)"}`;
    };
    system.addEventListener("change", theme);
    $("theme-button").addEventListener("click", () => {
      const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
      // Back to the system's theme: follow it again.
      this.set("theme", next === systemTheme() ? null : next);
      theme();
    });
    theme();
    const sound = () => {
      const on = Sound.on();
      $("sound-button").setAttribute("aria-pressed", String(on));
      $("sound-button").textContent = on ? "♪" : "✕";
      $("sound-button").title = `Move sound: ${on ? "on" : "off"}`;
    };
    $("sound-button").addEventListener("click", () => { this.set("sound", Sound.on() ? "off" : "on"); sound(); });
    sound();
    BoardTools.init();
  },
};

// A short tone at each move, made in the page (WebAudio), a little higher for the first seat.
const Sound = {
  made: 0,
  context: null,
  on() { return Prefs.get("sound", "on") !== "off"; },
  move(seat) {
    if (!this.on()) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      this.context = this.context || new Context();
      const audio = this.context;
      if (audio.state === "suspended") audio.resume();
      const t = audio.currentTime;
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.type = "triangle";
      tone.frequency.setValueAtTime(seat % 2 ? 523 : 659, t);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.006);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.09);
      tone.connect(gain).connect(audio.destination);
      tone.start(t);
      tone.stop(t + 0.1);
      this.made += 1;
    } catch { /* no sound on this browser */ }
  },
};

// A move shown: its sound, and an agent's reply said in the live region (#announce) for a
// screen reader. And the person's reply time: from their click (`click`) to the board ready for
// their next move (`ready`), with the agents' own think times (`ms` of their moves) and every
// wait the page scheduled (an animation, a pause before an agent's move) beside it.
const Reply = {
  asked: null,
  thinkMs: 0,
  waitMs: 0,
  agentMoves: 0,
  log: [],
  click() {
    this.asked = performance.now();
    this.thinkMs = 0;
    this.waitMs = 0;
    this.agentMoves = 0;
  },
  waited(ms) { if (this.asked !== null) this.waitMs += ms; },
  moved(game, played) {
    Sound.move(played.seat);
    if (played.person) return;
    if (this.asked !== null) { this.thinkMs += played.ms || 0; this.agentMoves += 1; }
    const seat = game.seats[played.seat];
    const next = game.over ? ` Game over: ${game.over.summary}.` : game.to_move !== null && game.seats[game.to_move].person ? ` ${game.seats[game.to_move].label} to move.` : "";
    $("announce").textContent = `${seat.label} played ${played.move}.${next}`;
  },
  ready() {
    if (this.asked === null) return;
    if (this.agentMoves) {
      const waitedMs = performance.now() - this.asked;
      this.log.push({ waitedMs, thinkMs: this.thinkMs, scheduledMs: this.waitMs, agentMoves: this.agentMoves, overMs: waitedMs - this.thinkMs });
    }
    this.asked = null;
  },
};

// A grid too big for the screen (cells under 30 px, as 15x15 and 19x19 on a phone): the zoom
// (34 px cells, the board scrolls; on by itself where the cells would be under 24 px) and "tap
// twice to play" (on by itself on a touch screen): the first tap marks a cell, the second plays.
const BoardTools = {
  ZOOMED: 34,
  marked: null,
  view: null,

  init() {
    $("zoom").addEventListener("click", () => {
      Prefs.set("zoom", this.zoomed() ? "off" : "on");
      if (Play.game) Play.render();
    });
    $("tap-twice").addEventListener("change", () => {
      Prefs.set("tap", $("tap-twice").checked ? "on" : "off");
      this.marked = null;
      if (Play.game) Play.render();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.marked !== null) { this.marked = null; if (Play.game) Play.render(); }
    });
  },

  // The cell size the board has when fitted to its box, in CSS pixels (Infinity: not a grid).
  fitted(view) {
    if (!view || !isGrid(view)) return Infinity;
    const room = $("board").clientWidth || document.documentElement.clientWidth;
    const { cols } = view.layout;
    return (room * 36) / (cols * 36 + 30);
  },
  big(view) { return this.fitted(view) < 30; },
  zoomed(view = this.view) {
    const chosen = Prefs.get("zoom", "auto");
    return this.big(view) && (chosen === "on" || (chosen === "auto" && this.fitted(view) < 24));
  },
  tapTwice(view) {
    const chosen = Prefs.get("tap", "auto");
    return this.big(view) && (chosen === "on" || (chosen === "auto" && window.matchMedia("(pointer: coarse)").matches));
  },

  // A person's move on a big grid: a first tap marks, a second on the same cell plays.
  wrap(opts, view, redraw) {
    if (!this.tapTwice(view)) { this.marked = null; return; }
    const play = opts.onMove;
    const placeOf = (text) => { const entry = legalMoves(view).find((m) => m.move === text); return entry ? entry.place : null; };
    if (this.marked !== null && placeOf(this.marked) === null) this.marked = null;
    opts.marked = this.marked === null ? null : placeOf(this.marked);
    opts.onMove = (text) => {
      if (this.marked === text) { this.marked = null; return play(text); }
      this.marked = text;
      redraw();
      Play.status(h("span", {}, `${text} marked`, h("span", { class: "sub" }, " · tap it again to play, or another cell")));
    };
  },

  // After a drawing: the tools shown where they help, the board zoomed or fitted, the marked
  // (else the last) cell in view.
  fit(view, focus) {
    this.view = view;
    const box = $("board");
    $("board-tools").hidden = !this.big(view);
    const zoom = this.zoomed(view);
    box.classList.toggle("zoomed", zoom);
    $("zoom").setAttribute("aria-pressed", String(zoom));
    $("tap-twice").checked = this.tapTwice(view);
    const svg = box.querySelector("svg");
    if (zoom) {
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", "board, zoomed: it scrolls");
    } else {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
    if (!svg || !zoom) return;
    const { cols, rows } = view.layout;
    const scale = this.ZOOMED / 36;
    svg.style.width = `${(cols * 36 + 30) * scale}px`;
    svg.style.height = `${(rows * 36 + 30) * scale}px`;
    // The marked or last cell in view; on an empty board, its centre.
    if (focus === null || focus === undefined) focus = Math.floor(rows / 2) * cols + Math.floor(cols / 2);
    const x = (24 + (focus % cols) * 36 + 18) * scale, y = (24 + Math.floor(focus / cols) * 36 + 18) * scale;
    box.scrollLeft = x - box.clientWidth / 2;
    box.scrollTop = y - box.clientHeight / 2;
  },
};

async function main() {
  Play.init();
  Analyse.init();
  Replay.init();
  Report.init();
  Stats.init();
  Live.init();
  Prefs.init();
  $("help-button").addEventListener("click", () => $("help").showModal());
  try {
    meta = await api("GET", "/api/meta");
  } catch (error) {
    toast(error.message);
    return;
  }
  const variants = meta.families.flatMap((f) => f.variants);
  $("variant-list").replaceChildren(...variants.map((v) => h("option", { value: v.id }, `${v.label}: ${v.about}`)));
  $("spec-list").replaceChildren(...meta.kinds.map((k) => h("option", { value: k.name }, `${k.summary} (${k.reach})`)));
  Play.families();
  Play.pickFamily(meta.families[0].name, false);
  await Play.lookUp($("variant").value);
  window.addEventListener("hashchange", showPage);
  showPage();
  document.body.dataset.ready = "1";
}

main();
