// The board as a page shows it: either drawer, pass buttons, a move's steps animated, the move list.
import { isGrid, legalMoves, pieceWorth } from "./board-common.js";
import { applyPieceStep, drawGrid, slidePiece } from "./board-grid.js";
import { drawRing } from "./board-ring.js";
import { h, narrow, SEAT_COLOURS, sleep } from "./dom.js";


export function drawBoard(view, opts = {}) {
  return isGrid(view) ? drawGrid(view, opts) : drawRing(view, { compact: narrow(), ...opts });
}

// The moves that put nothing anywhere (a pass: its place is null), as buttons under the board
// when `opts.onMove` plays moves; none otherwise.
export function passButtons(view, opts = {}) {
  if (!opts.onMove) return [];
  const buttons = legalMoves(view).filter((entry) => entry.place === null).map((entry) =>
    h("button", { class: "pass-move", "data-move": entry.move, title: "no move on the board is legal", onclick: () => opts.onMove(entry.move) }, entry.move));
  return buttons.length ? [h("div", { class: "pass-row" }, ...buttons)] : [];
}


// Applies one traced step to a copy of a view (as board.rs's contract describes them).
export function applyStep(view, step, piece) {
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
export async function animateSteps(target, before, steps, opts, stepMs, still) {
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
export function sideOf(view, entry, flip = false) {
  const per = view.layout.per_side;
  const top = view.players === 2 && (Math.floor(entry.place / per) === 1) !== flip;
  return entry.forward === !top ? "right" : "left";
}

// A move list as numbered rounds: "1. e5 f6", one column per seat.
export function moveRounds(moves, players, options = {}) {
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
