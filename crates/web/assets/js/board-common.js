// What every board drawer shares: the position JSON's queries (crates/web/src/board.rs is
// its contract) and the agents' marks.
import { s } from "./dom.js";

//
// Every game is drawn from the server's generic position JSON (crates/web/src/board.rs says
// its contract): a grid of cells with stones (with gravity, a person picks a column), or pits
// round a ring of N sides with or without big cells, points per seat, the legal moves with
// their places. Nothing here knows a game by name.

export const isGrid = (view) => view.layout.kind === "grid";
export const seatName = (view, seat) => (view.seat_names && view.seat_names[seat]) || `player ${seat + 1}`;

// The legal moves of `view`, one object each: [{move, place, forward}] (the server sends them
// as lists, one entry per move, to keep its answers small).
export const legalMovesOf = new WeakMap();
export function legalMoves(view) {
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
export function movesByPlace(view) {
  const at = new Map();
  for (const entry of legalMoves(view)) {
    if (entry.place === null) continue;
    if (!at.has(entry.place)) at.set(entry.place, []);
    at.get(entry.place).push(entry);
  }
  return at;
}


// What a piece adds to its pit's count: read from a pit that holds one, else the variant's
// first number (the contract of board.rs).
export function pieceWorth(view) {
  // A grid's places are seats or null: no pieces there.
  const pit = view.places.find((p) => p && p.piece);
  if (pit) return pit.value - pit.seeds;
  const first = Object.values(view.notes || {})[0];
  return first || 0;
}

// Issue 36, missing 3 (defect 13): the moves agents chose, marked on the board in Analyse.
// `marks` is [{place, label}] (a pass has no place and no mark); one place chosen by several
// agents carries all their labels. Returns [place, "1,2"] pairs.
export function agentMarks(marks) {
  const by = new Map();
  for (const mark of marks || []) {
    if (mark.place === null || mark.place === undefined) continue;
    by.set(mark.place, [...(by.get(mark.place) || []), mark.label]);
  }
  return [...by].map(([place, labels]) => [place, labels.join(",")]);
}

// A ring of radius `r` round (x, y) and a badge with the agents' labels at its upper right.
export function agentMark(x, y, r, labels, place) {
  const bx = x + r * 0.72, by = y - r * 0.72, br = Math.max(8, r * 0.42);
  return s("g", { class: "agent-mark", "data-mark": labels, "data-at": place, "pointer-events": "none" },
    s("circle", { class: "agent-ring", cx: x, cy: y, r }),
    s("rect", { class: "agent-badge", x: bx - br * (0.6 + 0.35 * labels.length), y: by - br, width: br * (1.2 + 0.7 * labels.length), height: br * 2, rx: br }),
    s("text", { class: "agent-label", x: bx, y: by, "font-size": br * 1.25 }, labels));
}

// The places a move's traced steps turned over (`turn` steps).
export const turnedBy = (steps) => new Set((steps || []).filter((step) => step.step === "turn").map((step) => step.place));
