// The board tools of a big grid: the zoom and "tap twice to play".
import { isGrid, legalMoves } from "./board-common.js";
import { $, h } from "./dom.js";
import { Play } from "./play.js";
import { Prefs } from "./prefs.js";

// A grid too big for the screen (cells under 30 px, as 15x15 and 19x19 on a phone): the zoom
// (34 px cells, the board scrolls; on by itself where the cells would be under 24 px) and "tap
// twice to play" (on by itself on a touch screen): the first tap marks a cell, the second plays.
export const BoardTools = {
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
