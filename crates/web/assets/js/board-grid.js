// The grid drawer: a function of (view, options) to SVG, and the piece moves' animation.
import { agentMark, agentMarks, movesByPlace, seatName } from "./board-common.js";
import { s, SEAT_COLOURS } from "./dom.js";

// A grid: cells, coordinates, stones, the last stone, the winning line, and on demand a hint,
// a keyboard cursor, the solver's value of each move, clicks (`opts.onMove(text)`) and the
// stones the last move turned over (`opts.turned`, a set of places).
export function drawGrid(view, opts = {}) {
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
    root.append(s("rect", { class: "key-cursor", "data-cursor": opts.cursor, x: x - C / 2 + 2, y: y - C / 2 + 2, width: C - 4, height: C - 4, fill: "none", stroke: "var(--accent)", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none" }));
  }
  return root;
}

// Pieces that move (issue 35; Breakthrough's pawns): the letter of each piece's kind on it
// (`view.kinds`, capitals for the first seat as chess diagrams write them), and the cell the
// last move's piece came from (`view.last_from`), so the last move reads from-to.
export function drawPieces(root, view, centre, C) {
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
export function pieceClicks(root, view, opts, centre, C) {
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
  // A piece picked by keys (Play's Enter on it) is drawn picked, its targets shown.
  if (opts.selected !== null && opts.selected !== undefined && byFrom.has(opts.selected)) pick(opts.selected);
}

// A piece's traced steps on a copy of a view: `move` takes it (and its kind) from one cell to
// another, `remove` takes a captured one off. True when the step was one of these.
export function applyPieceStep(view, step) {
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
export function slidePiece(target, step, stepMs) {
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
