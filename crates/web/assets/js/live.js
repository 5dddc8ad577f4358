// The Live page: a run as it plays (standings, the games in progress, the games finished).
import { api } from "./api.js";
import { seatName } from "./board-common.js";
import { drawBoard } from "./board.js";
import { $, h } from "./dom.js";
import { count } from "./format.js";
import { page } from "./main.js";
import { Replay } from "./replay.js";

// A run as it plays (crates/web/src/api_live.rs): polled every LIVE_POLL_MS while the page is
// shown; an answer whose files did not change is `{unchanged: true}` and redraws nothing.
export const LIVE_POLL_MS = 1500;

export const Live = {
  timer: null,
  version: null,
  dir: null,
  asked: 0,
  // The pool the standings show: null for the whole run's, else a variant's (its id); and the
  // last answer drawn, drawn again when another pool is picked.
  pool: null,
  last: null,

  init() {
    $("lv-dir").addEventListener("change", () => { this.dir = $("lv-dir").value; this.version = null; this.pool = null; this.poll(); });
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
    this.last = state;
    this.pools(state);
    this.playing(state.playing);
    this.finished(state);
  },

  // Where the run has several variants, a button for the whole run's standings and one for each
  // variant's; the standings and the crosstable are the picked one's.
  pools(state) {
    const variants = state.variants || [];
    const shown = variants.find((v) => v.variant === this.pool);
    if (!shown) this.pool = null;
    const chips = $("lv-pools");
    chips.hidden = variants.length < 2;
    const chip = (label, pool) => h("button", {
      type: "button", class: this.pool === pool ? "on" : "", "aria-pressed": String(this.pool === pool), "data-pool": pool || "",
      onclick: () => { this.pool = pool; this.pools(this.last); },
    }, label);
    chips.replaceChildren(...(variants.length < 2 ? [] : [chip("every variant", null), ...variants.map((v) => chip(v.variant, v.variant))]));
    const pool = shown ? { ...state, pool: shown.variant, standings: shown.standings, crosstable: shown.crosstable } : state;
    this.standings(pool);
    this.crosstable(pool.crosstable);
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
