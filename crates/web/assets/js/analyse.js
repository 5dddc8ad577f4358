// The Analyse page: a position (a variant and its moves) and what the agents make of it
// (crates/web/src/api_analyse.rs).
import { api } from "./api.js";
import { isGrid, seatName } from "./board-common.js";
import { drawBoard, passButtons } from "./board.js";
import { showEval } from "./eval-chart.js";
import { $, h, s, toast } from "./dom.js";
import { count, ms, resultWords, statsText } from "./format.js";

export const Analyse = {
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
