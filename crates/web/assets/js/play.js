// The Play page: a game against agents (or people, or agents alone) on the server's tables
// (crates/web/src/api_play.rs). The game and what changes with it are `Play.state`
// (play-state.js); this module draws it and does the requests, the timers and the keys; the
// setup form's methods are in play-setup.js and the clocks' in play-clock.js.
import { Analyse } from "./analyse.js";
import { api, meta } from "./api.js";
import { isGrid, legalMoves, movesByPlace } from "./board-common.js";
import { BoardTools } from "./board-tools.js";
import { animateSteps, drawBoard, moveRounds, passButtons, sideOf } from "./board.js";
import { $, copyText, h, SEAT_COLOURS, toast } from "./dom.js";
import { showEval } from "./eval-chart.js";
import { gameLink, ms, statsText } from "./format.js";
import { Reply } from "./prefs.js";
import { clockMethods } from "./play-clock.js";
import { setupMethods } from "./play-setup.js";
import { PlayState } from "./play-state.js";
import { Replay } from "./replay.js";

export const Play = {
  // The game being played and every field a move, an answer or an animation changes: read
  // here, changed only through its transitions (play-state.js).
  state: new PlayState(),
  get game() { return this.state.game; },
  // The agent's move waiting out its delay (next), and the setup form's choices.
  timer: null,
  lastRequest: null,
  variant: null,
  // Other tabs of this browser and the game each shows (BroadcastChannel "arena.play").
  tab: Math.random().toString(36).slice(2),
  channel: null,
  peers: new Map(),
  // The names typed into people's seats, kept per seat whatever the seat menus do.
  typedNames: [],

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
    $("flip").addEventListener("click", () => { this.state.turnBoard(); this.render(); });
    $("speed").addEventListener("input", () => this.showSpeed());
    // A click on the board while a sowing is shown skips to its end.
    $("board").addEventListener("click", () => this.state.skip());
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
      resized = setTimeout(() => { if (this.game && !this.state.animating && !$("game").hidden) this.render(); }, 150);
    });
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
      this.begin(game, { unpause: true });
    } catch (error) {
      toast(error.message);
    }
  },

  // Shows `game` from scratch (a new game, or one taken up again after a reload).
  begin(game, options) {
    this.state.start(game, options);
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
    this.state.leave();
    this.stopClock();
    clearTimeout(this.timer);
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
    if (kind === "moved" && message.ply !== this.game.ply && !this.state.busy && !this.state.animating) this.reload();
  },

  // The game is no longer on the server (freed, closed elsewhere, the server restarted): say
  // so plainly, with the way on, instead of a board that still looks live.
  gone(message) {
    const game = this.state.leave();
    this.stopClock();
    clearTimeout(this.timer);
    sessionStorage.removeItem("arena.game");
    $("board").replaceChildren(drawBoard(game.position, { names: game.seats.map((seat) => seat.label) }));
    $("turn-buttons").hidden = true;
    $("speed-box").hidden = true;
    $("sow-bar").hidden = true;
    this.status("This game is gone");
    const result = $("result");
    result.hidden = false;
    result.replaceChildren(h("strong", { class: "gone" }, "This game is no longer on the server"), h("p", { class: "note" }, message),
      h("div", { class: "buttons" }, h("button", { class: "primary", onclick: () => this.leave() }, "New game")));
  },

  // An error from the server during the game: a game gone is said plainly, anything else in
  // a toast.
  failed(error) {
    if (error.status === 404 && this.game) this.gone(error.message);
    else toast(error.message);
  },

  agentsOnly() {
    return this.state.agentsOnly();
  },

  personToMove() {
    return this.state.personToMove();
  },

  render() {
    const state = this.state;
    const game = state.game;
    const view = game.position;
    // A hint is for a move still to play (the state drops it when the game is over).
    if (game.over) $("hint-text").hidden = true;
    const names = game.seats.map((seat) => seat.label);
    // Looking back at an earlier position: drawn from the API, and no move is made on it.
    const looking = state.looking !== null && state.lookView ? state.lookView : null;
    const interactive = !looking && state.interactive();
    const last = game.history.length ? game.history[game.history.length - 1].place : null;
    const opts = { names, last, flip: state.flip };
    if (interactive) {
      opts.onMove = (text) => this.move(text);
      BoardTools.wrap(opts, view, () => this.render());
      opts.onPick = (place) => { state.pick(place); this.render(); };
      opts.selected = state.selected;
      if (state.cursor !== null) opts.cursor = state.cursor;
    }
    if (state.hint) opts.hint = state.hint;
    // The stones the last move turned over stay marked until the next move.
    if (state.turned && state.turned.ply === game.history.length) opts.turned = state.turned.places;
    const lookOpts = () => ({ names, flip: state.flip, last: state.looking > 0 ? looking.moves[state.looking - 1].place : null });
    if (!state.animating) {
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
    $("rule-note").textContent = state.note || "";
    $("rule-note").hidden = !state.note;
    $("game-seats").replaceChildren(...game.seats.map((seat, i) => h("li", { class: game.to_move === i ? "turn" : "" },
      h("span", { class: "dot", style: `background:${SEAT_COLOURS[i]}` }),
      h("span", { class: "name", title: seat.label }, seat.label),
      game.thinking && game.to_move === i ? h("span", { class: "spinner" }) : null,
      h("span", { class: "score", title: "points" }, view.points ? `${view.points[i]}` : ""))));
    this.clocks();
    const moves = $("move-list");
    moves.replaceChildren(...moveRounds(game.history.map((ply) => ({
      move: ply.move, seat: ply.seat, title: ply.stats ? statsText(ply.stats) : `${ms(ply.ms)} to think`,
    })), game.players, { now: looking ? state.looking - 1 : game.history.length - 1, onPick: (ply) => this.lookAt(ply) }));
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
    $("undo").disabled = !game.can_undo || state.busy || game.thinking || !!looking;
    $("hint").disabled = !this.personToMove() || state.busy || game.thinking || !!looking;
    $("resign").disabled = !!over || !game.seats.some((seat) => seat.person);
    $("flip").hidden = isGrid(view) || game.players !== 2;
    // The speed of the agents' moves (with agents alone) and of sowings shown seed by seed.
    $("speed-box").hidden = !!over || !(this.agentsOnly() || !isGrid(view));
    $("pause").hidden = !this.agentsOnly();
    $("pause").textContent = state.paused ? "Go on" : "Pause";
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
    const state = this.state;
    const thinking = !game.over && !this.personToMove() && (state.busy || game.thinking) && !state.animating && state.looking === null;
    $("move-now").hidden = !thinking;
    $("move-now").disabled = state.movingNow;
  },
  async moveNow() {
    const game = this.game;
    if (!game || $("move-now").hidden) return;
    this.state.moveNowSent();
    $("move-now").disabled = true;
    try {
      await api("POST", `/api/games/${game.id}/move-now`, {});
    } catch (error) {
      // The move came first: nothing to hurry.
      if (error.status !== 409) toast(error.message);
    } finally {
      this.state.moveNowDone();
    }
  },

  // Issue 36, missing 3: the agents' evaluations of their moves so far, drawn (showEval).
  drawEval(game, looking) {
    const points = game.history.map((ply, i) => ({ ply: i + 1, seat: ply.seat, score: ply.stats ? ply.stats.score : null }));
    const names = game.seats.map((seat) => seat.label);
    showEval($("eval"), points, game.players, game.history.length, names,
      { now: looking ? this.state.looking : game.history.length, onPick: (ply) => this.lookAt(ply) });
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
    if (ply === null || ply >= n) {
      this.state.lookLive();
      return this.render();
    }
    const target = Math.max(0, ply);
    const ticket = this.state.lookSent(target);
    try {
      const answer = await api("POST", "/api/analyse", { variant: game.variant, moves: this.movesOf(game).slice(0, target).join(" "), agents: [], solve: false });
      if (!this.state.looked(ticket, answer)) return;
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
    const state = this.state;
    if (step === undefined || state.animating) return false;
    const game = this.game;
    const mine = state.lookTarget === null && this.personToMove() && (state.cursor !== null || state.selected !== null);
    if (mine) return false;
    const n = game.history.length;
    if (n === 0) return false;
    event.preventDefault();
    const now = state.lookTarget === null ? n : state.lookTarget;
    const next = Math.max(0, Math.min(n, now + step));
    if (next !== now || (state.lookTarget !== null && next === n)) this.lookAt(next);
    return true;
  },

  // Keep and share: the moves as text, the play record's row once written, a link to the
  // position shown (Replay), all from the game's API.
  keep(game) {
    const id = game.id;
    const recorded = game.recorded && !game.recorded.error;
    const ply = this.state.looking === null ? game.history.length : this.state.looking;
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
    const here = interactive && this.state.selected !== null ? movesByPlace(view).get(this.state.selected) || [] : [];
    bar.hidden = here.length < 2;
    if (bar.hidden) return;
    const side = (entry) => sideOf(view, entry, this.state.flip);
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
    if (this.state.looking !== null && this.state.lookView) {
      const n = game.history.length, k = this.state.looking;
      return box.replaceChildren(h("span", { class: "looking-note" }, k === 0 ? `The start, before move 1 of ${n}` : `After move ${k} of ${n}: ${game.history[k - 1].move}`),
        h("span", { class: "sub" }, " · looking back · "),
        h("button", { id: "live", onclick: () => this.lookAt(null) }, game.over ? "The end" : "Back to the game", " ", h("kbd", {}, "End")));
    }
    if (game.over) return box.replaceChildren(`Game over: ${game.over.summary}`);
    const seat = game.seats[game.to_move];
    if ((this.state.busy || game.thinking) && !seat.person) {
      return box.replaceChildren(h("span", { class: "spinner" }), `${seat.label} is thinking…`);
    }
    if (seat.person) {
      const view = game.position;
      const how = isGrid(view) ? (view.layout.gravity ? "click a column" : view.moves && view.moves.from ? "click one of your pieces, then its target" : BoardTools.tapTwice(view) ? "tap a cell twice" : "click a cell")
        : legalMoves(view).some((m, i, all) => all.findIndex((o) => o.place === m.place) !== i) ? "click one of your pits, then an arrow" : "click one of your pits";
      return box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, ` · ${how}`));
    }
    box.replaceChildren(`${seat.label} to move`, h("span", { class: "sub" }, this.state.paused ? " · paused" : ""));
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
    const paused = this.state.togglePause();
    if (paused === null) return;
    // The next agent's move waiting out its delay waits for "Go on" too.
    if (paused) clearTimeout(this.timer);
    this.render();
    if (!paused) this.next();
  },

  // Whose turn now: the person's clock, an agent already thinking (after a reload), or the
  // agent's move after a short pause.
  async next() {
    clearTimeout(this.timer);
    const state = this.state;
    if (state.busy || state.animating) return;
    const game = state.game;
    const ticket = state.ticket();
    if (!game || game.over) { this.stopClock(); Reply.ready(); return; }
    if (game.thinking) { this.waitForAgent(ticket); return; }
    const seat = game.seats[game.to_move];
    if (seat.person) {
      Reply.ready();
      if (game.move_time_ms || game.clocks) {
        try {
          const answer = await api("POST", `/api/games/${game.id}/ready`, { ply: game.ply });
          if (!state.refreshed(ticket, answer.game)) return;
          if (answer.game.over) { this.render(); return; }
          if (answer.game.clocks) this.clocks();
          else this.startClock(answer.game.clock_ms);
        } catch (error) {
          if (state.current(ticket)) this.failed(error);
        }
      }
      return;
    }
    this.stopClock();
    if (state.paused) return;
    const delay = this.agentsOnly() ? this.delay() : Math.min(250, this.delay());
    Reply.waited(delay);
    // The game plays on while another page is shown (a demo goes on while the report is).
    this.timer = setTimeout(() => { if (state.current(ticket) && !state.paused) this.think(); }, delay);
  },

  // An agent thinks at this table for an earlier page (a reload): show it, and look again
  // until its move is in.
  waitForAgent(ticket) {
    const state = this.state;
    this.status();
    this.timer = setTimeout(async () => {
      if (!state.current(ticket)) return;
      try {
        const game = await api("GET", `/api/games/${ticket.game.id}`);
        if (!state.refreshed(ticket, game)) return;
        this.render();
        this.next();
      } catch (error) {
        if (state.current(ticket)) this.failed(error);
      }
    }, 400);
  },

  async think() {
    const ticket = this.state.send("think");
    if (!ticket) return;
    const game = ticket.game;
    this.render();
    let answer;
    try {
      answer = await api("POST", `/api/games/${game.id}/think`, { ply: game.ply });
    } catch (error) {
      if (!this.state.failed(ticket)) return;
      // Another page's request got there first (it thinks, or moved): no toast, just catch up.
      if (error.status !== 409 && error.status !== 404) toast(error.message);
      this.reload();
      return;
    }
    await this.apply(answer, ticket);
  },

  // A move came back (the person's or an agent's): animate its steps, then show the game.
  // The answer of `ticket`'s request, ignored where it is stale (the game left, undone).
  async apply(answer, ticket) {
    const state = this.state;
    const before = state.game.position;
    const played = answer.played;
    const stepMs = this.stepMs();
    const animate = !!(played && played.sowing && played.sowing.length && stepMs > 0);
    if (!state.replied(ticket, answer, { animate })) return;
    $("hint-text").hidden = true;
    if (animate) {
      $("sow-bar").hidden = true;
      const sows = played.sowing.some((step) => step.step === "pick");
      this.status(h("span", {}, `${answer.game.seats[played.seat].label} ${sows ? "sows" : "plays"} ${played.move}`, h("span", { class: "sub" }, " · click the board or press Esc to skip")));
      const opts = { names: answer.game.seats.map((seat) => seat.label), last: played.place, flip: state.flip };
      Reply.waited(played.sowing.length * stepMs);
      await animateSteps($("board"), before, played.sowing, opts, stepMs, () => state.showing(ticket));
      if (!state.animationDone(ticket)) return;
    }
    // What the rules made of the move, when a player might not expect it (a caro five
    // blocked at both ends), is the state's `note`: shown until the next such note or the
    // game's next start.
    this.render();
    if (played && played.move) Reply.moved(answer.game, played);
    this.tell("moved");
    this.next();
  },

  async move(text) {
    const ticket = this.state.send("move");
    if (!ticket) return;
    const game = ticket.game;
    this.stopClock(true);
    BoardTools.marked = null;
    Reply.click();
    $("sow-bar").hidden = true;
    let answer;
    try {
      answer = await api("POST", `/api/games/${game.id}/move`, { move: text, ply: game.ply });
    } catch (error) {
      if (!this.state.failed(ticket)) return;
      if (error.status !== 409 && error.status !== 404) toast(error.message);
      this.reload();
      return;
    }
    await this.apply(answer, ticket);
  },

  async reload() {
    const state = this.state;
    const ticket = state.ticket();
    try {
      const game = await api("GET", `/api/games/${ticket.game.id}`);
      if (!state.refreshed(ticket, game)) return;
      this.render();
      this.next();
    } catch (error) {
      if (state.current(ticket)) this.failed(error);
    }
  },

  async undo() {
    const state = this.state;
    const game = state.game;
    const ticket = state.undo();
    if (!ticket) return;
    clearTimeout(this.timer);
    try {
      const answer = await api("POST", `/api/games/${game.id}/undo`, { ply: game.ply });
      if (!state.undone(ticket, answer.game)) return;
      $("hint-text").hidden = true;
      this.render();
      this.tell("moved");
      this.next();
    } catch (error) {
      if (state.current(ticket)) this.failed(error);
    }
  },

  async askHint() {
    const state = this.state;
    const ticket = state.send("hint");
    if (!ticket) return;
    const game = ticket.game;
    this.status(h("span", {}, h("span", { class: "spinner" }), ` ${game.hint_agent} looks for a hint…`));
    try {
      const answer = await api("POST", `/api/games/${game.id}/hint`, { ply: game.ply });
      if (!state.hinted(ticket, answer)) return;
      const hint = answer.hint;
      const box = $("hint-text");
      box.hidden = false;
      if (hint.move) {
        // The line the hint agent expects (its principal variation), where it sees past the move.
        const line = (hint.pv || []).length > 1 ? `; expected line ${hint.pv.join(" ")}` : "";
        box.replaceChildren(h("strong", {}, `Hint: ${hint.move}`), ` — ${hint.reason}${line}`);
        box.title = `${hint.agent}: ${statsText(hint.stats, false)}${hint.search ? `; ${hint.search}` : ""}`;
      } else {
        box.textContent = hint.reason;
      }
      this.render();
    } catch (error) {
      if (state.failed(ticket)) { if (error.status !== 404) toast(error.message); this.reload(); }
    }
  },

  async resign() {
    const game = this.game;
    if (!game || game.over) return;
    // Who resigns: the person to move, else the one person at the table.
    const seat = game.to_move !== null && game.seats[game.to_move].person ? game.to_move : game.seats.findIndex((s) => s.person);
    if (seat < 0 || !confirm(`Resign for ${game.seats[seat].label}? The game is recorded as a loss for them.`)) return;
    const state = this.state;
    const ticket = state.resign();
    if (!ticket) return;
    clearTimeout(this.timer);
    try {
      const answer = await api("POST", `/api/games/${game.id}/resign`, { seat });
      if (!state.resigned(ticket, answer.game)) return;
      this.render();
      this.tell("moved");
      this.next();
    } catch (error) {
      if (state.current(ticket)) this.failed(error);
    }
  },

  // A game that moves pieces, by keys: Enter on one of the person's pieces picks it (its
  // targets shown, as a click does), Enter on a target of the picked piece plays that move,
  // Enter on the picked piece again or on an empty cell lets it go (so does Escape).
  keyPiece(view, at) {
    const state = this.state;
    const { text, from, place } = view.moves;
    if (state.selected !== null) {
      const i = text.findIndex((_, k) => from[k] === state.selected && place[k] === at);
      if (i >= 0) return this.move(text[i]);
    }
    const piece = from.some((origin, k) => origin === at && place[k] !== null);
    state.pick(piece && state.selected !== at ? at : null);
    this.render();
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
    const state = this.state;
    if (state.looking !== null) return;
    if (!this.personToMove() || state.busy || state.animating) return;
    const view = game.position;
    const moves = movesByPlace(view);
    if (isGrid(view)) {
      const { rows, cols, gravity } = view.layout;
      const steps = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      if (steps[key]) {
        event.preventDefault();
        const centre = Math.floor(rows / 2) * cols + Math.floor(cols / 2);
        const at = state.cursor === null ? centre : state.cursor;
        const r = Math.min(rows - 1, Math.max(0, Math.floor(at / cols) + steps[key][0]));
        const c = Math.min(cols - 1, Math.max(0, (at % cols) + steps[key][1]));
        state.moveCursor(state.cursor === null ? centre : r * cols + c);
        this.render();
      } else if ((key === "Enter" || key === " ") && state.cursor !== null) {
        event.preventDefault();
        if (view.moves && view.moves.from) return this.keyPiece(view, state.cursor);
        const column = state.cursor % cols;
        const entry = gravity
          ? legalMoves(view).find((m) => m.place % cols === column)
          : (moves.get(state.cursor) || [])[0];
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
      if (state.selected !== null) {
        const picked = view.places[state.selected].label;
        const entry = (moves.get(state.selected) || []).find((m) => m.move.toLowerCase() === `${picked}${key}`.toLowerCase());
        if (entry) { event.preventDefault(); return this.move(entry.move); }
      }
      const wanted = label === "0" ? "10" : label;
      const index = view.places.findIndex((pit, i) => moves.has(i) && String(pit.label).toLowerCase() === wanted.toLowerCase());
      if (index >= 0) {
        const here = moves.get(index);
        if (here.length === 1) return this.move(here[0].move);
        state.pick(index);
        this.render();
      }
      return;
    }
    if (state.selected !== null) {
      const side = key === "ArrowRight" ? "right" : key === "ArrowLeft" ? "left" : null;
      const entry = side && (moves.get(state.selected) || []).find((m) => sideOf(view, m, state.flip) === side);
      if (entry) { event.preventDefault(); this.move(entry.move); }
      if (key === "Escape") { state.pick(null); this.render(); }
    }
  },
};

// The setup form's and the clocks' methods (play-setup.js, play-clock.js), on Play itself:
// they read and write its fields as the methods above do.
Object.assign(Play, setupMethods, clockMethods);
