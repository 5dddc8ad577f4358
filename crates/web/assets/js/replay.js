// The Replay page: the games of a results folder's records, or one from a link, stepped
// through move by move with the agents' evaluations.
import { Analyse } from "./analyse.js";
import { api } from "./api.js";
import { isGrid, seatName, turnedBy } from "./board-common.js";
import { animateSteps, drawBoard, moveRounds } from "./board.js";
import { $, copyText, h, toast, typing } from "./dom.js";
import { EVAL_POSITIONS, showEval } from "./eval-chart.js";
import { resultWords } from "./format.js";

export const Replay = {
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
