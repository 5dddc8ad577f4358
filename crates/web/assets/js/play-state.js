// The game being played on the Play page, in one place. Its fields can be read by anyone and
// changed only by the named transitions below (start, a request sent, its answer, an animation
// done, undo, resign, a look back, leave); a game view taken in that is over drops the hint.
// No DOM, no timers, no fetch: the page (play.js) does those and asks this module what holds,
// so the races between a person's clicks, the agents' answers and the animations have one
// place to be reasoned about, and node tests it without a browser (crates/web/browser/state.test.mjs).
//
// Generations: `start`, `leave`, `undo` and `resign` begin a new one; a request carries a ticket
// of the generation it was sent in, and its answer changes the game only while that generation
// lasts (an answer to a game left, or to a position undone, is ignored). Busy: one request
// that changes the position at a time (a move, an agent's think, a hint); its answer, whatever
// its generation, ends it.

import { isGrid, turnedBy } from "./board-common.js";

export class PlayState {
  #game = null;
  #gen = 0;
  #pending = null;
  #animating = false;
  #skipping = false;
  #selected = null;
  #cursor = null;
  #hint = null;
  #turned = null;
  #note = null;
  #flip = false;
  #paused = false;
  #looking = null;
  #lookView = null;
  #lookTarget = null;
  #lookAsked = 0;
  #movingNow = false;

  /** The game as the server last showed it (null: none on this page). */
  get game() { return this.#game; }
  /** The generation: a new one at each start, leave, undo and resign. */
  get gen() { return this.#gen; }
  /** A move, an agent's think or a hint is asked and not yet answered. */
  get busy() { return this.#pending !== null; }
  /** A move's steps are being drawn one by one. */
  get animating() { return this.#animating; }
  /** The person asked to skip the animation shown. */
  get skipping() { return this.#skipping; }
  /** The place a person picked (a pit, a piece), or null. */
  get selected() { return this.#selected; }
  /** The keyboard's cursor on a grid, or null. */
  get cursor() { return this.#cursor; }
  /** The place of the hint shown, or null. */
  get hint() { return this.#hint; }
  /** The places the last move turned over: {ply, places}, or null. */
  get turned() { return this.#turned; }
  /** What the rules made of the last move, when a player might not expect it. */
  get note() { return this.#note; }
  /** A two-seat ring shown turned (the second seat's pits below). */
  get flip() { return this.#flip; }
  /** Agents alone, paused by the person watching. */
  get paused() { return this.#paused; }
  /** Looking back: the number of moves of the position shown (null: the live one). */
  get looking() { return this.#looking; }
  /** That position, from the API. */
  get lookView() { return this.#lookView; }
  /** The position last asked for (null: the live one): keys pressed quickly step from it. */
  get lookTarget() { return this.#lookTarget; }
  /** "Move now" asked and not yet answered. */
  get movingNow() { return this.#movingNow; }

  agentsOnly() {
    return !!this.#game && this.#game.seats.every((seat) => !seat.person);
  }

  personToMove() {
    const game = this.#game;
    return !!game && !game.over && game.to_move !== null && game.seats[game.to_move].person;
  }

  /** Whether a person may play on the board now. */
  interactive() {
    return this.#looking === null && this.personToMove() && !this.busy && !this.#animating && !this.#game.thinking;
  }

  /** A ticket of the generation now, for a request that changes no position (a reload, a poll). */
  ticket() {
    return { gen: this.#gen, game: this.#game };
  }

  /** Whether the generation of `ticket` still lasts. */
  current(ticket) {
    return ticket.gen === this.#gen;
  }

  #begin() {
    this.#gen += 1;
    return this.ticket();
  }

  // Every game view taken in goes through here. Game over: a hint is for a move still to play.
  #take(game) {
    this.#game = game;
    if (game && game.over) this.#hint = null;
  }

  // The page keeps the move list: answers to moves and hints leave it out, and the move just
  // played is added to it; the rules in words come with whole views only.
  #adopt(game, played) {
    if (!game.history) {
      const history = this.#game ? this.#game.history.slice() : [];
      if (played && played.move) {
        const { sowing, ...entry } = played;
        history.push(entry);
      }
      game.history = history;
    }
    if (!game.rules && this.#game) game.rules = this.#game.rules;
    this.#take(game);
  }

  /** Start: shows `game` from scratch (a new game, or one taken up again after a reload). */
  start(game, { unpause = false } = {}) {
    this.#begin();
    this.#take(game);
    this.#note = null;
    // Playing the second seat of a two-seat ring alone: the board turned, your pits below.
    this.#flip = game.players === 2 && !isGrid(game.position) && game.seats[1].person && !game.seats[0].person;
    this.#pending = null;
    this.#selected = null;
    this.#hint = null;
    this.#cursor = null;
    this.#looking = null;
    this.#lookView = null;
    this.#lookTarget = null;
    if (unpause) this.#paused = false;
  }

  /** Leave (or the game gone from the server): no game; every answer still out is ignored.
   * Returns the game left. */
  leave() {
    const game = this.#game;
    this.#begin();
    this.#take(null);
    this.#pending = null;
    return game;
  }

  /** Move sent (`kind` "move"), an agent asked to think ("think") or a hint asked ("hint"):
   * the ticket of the request, or null where it is refused (no game; another request
   * pending; a move while a move is being drawn; a hint where no person is to move). */
  send(kind) {
    if (!this.#game || this.busy) return null;
    if (kind === "hint" ? !this.personToMove() : this.#animating) return null;
    const ticket = { ...this.ticket(), kind };
    this.#pending = ticket;
    return ticket;
  }

  #answered(ticket) {
    if (this.#pending === ticket) this.#pending = null;
    return this.current(ticket);
  }

  /** Reply received to a move or a think: the game after it. `animate`: its steps are drawn
   * (animationDone ends that). False, and nothing changed but busy, where it is stale. */
  replied(ticket, answer, { animate = false } = {}) {
    if (!this.#answered(ticket)) return false;
    const played = answer.played;
    this.#selected = null;
    this.#hint = null;
    this.#adopt(answer.game, played);
    this.#turned = { ply: answer.game.history.length, places: turnedBy(played && played.sowing) };
    if (played && played.note) this.#note = played.note;
    if (animate) {
      this.#animating = true;
      this.#skipping = false;
    }
    return true;
  }

  /** A request failed: busy ends; true where its generation still lasts. */
  failed(ticket) {
    return this.#answered(ticket);
  }

  /** Whether the animation of `ticket`'s reply goes on (not stale, not skipped). */
  showing(ticket) {
    return this.current(ticket) && !this.#skipping;
  }

  /** Skip asked (a click on the board, Escape): true where an animation is shown. */
  skip() {
    if (this.#animating) this.#skipping = true;
    return this.#animating;
  }

  /** Animation done: true where its generation still lasts. */
  animationDone(ticket) {
    this.#animating = false;
    return this.current(ticket);
  }

  /** A hint's answer: the game, and the hint's place where it has a move. */
  hinted(ticket, answer) {
    if (!this.#answered(ticket)) return false;
    this.#adopt(answer.game, null);
    if (answer.hint.move) this.#hint = answer.hint.place;
    return true;
  }

  /** A whole game view asked for again (a reload, a poll while an agent thinks, a clock). */
  refreshed(ticket, game) {
    if (!this.current(ticket)) return false;
    this.#take(game);
    return true;
  }

  /** Undo sent: a new generation (answers to moves before it are ignored), or null where the
   * game cannot undo or a request is pending (an agent thinks). */
  undo() {
    const game = this.#game;
    if (!game || !game.can_undo || this.busy) return null;
    return this.#begin();
  }

  undone(ticket, game) {
    if (!this.current(ticket)) return false;
    this.#take(game);
    this.#selected = null;
    this.#hint = null;
    return true;
  }

  /** Resign sent: a new generation, or null where the game is over. */
  resign() {
    if (!this.#game || this.#game.over) return null;
    return this.#begin();
  }

  resigned(ticket, game) {
    if (!this.current(ticket)) return false;
    this.#pending = null;
    this.#take(game);
    return true;
  }

  /** A place picked, or null: the pick dropped. */
  pick(place) { this.#selected = place; }
  moveCursor(place) { this.#cursor = place; }
  turnBoard() { this.#flip = !this.#flip; }

  /** Pause or go on (agents alone only): the new `paused`, or null where refused. */
  togglePause() {
    if (!this.agentsOnly()) return null;
    this.#paused = !this.#paused;
    return this.#paused;
  }

  /** Back to the live position. */
  lookLive() {
    this.#lookAsked += 1;
    this.#lookTarget = null;
    this.#looking = null;
    this.#lookView = null;
  }

  /** Looking back at the position after `target` moves asked: the ticket of the request. */
  lookSent(target) {
    this.#lookAsked += 1;
    this.#lookTarget = target;
    return { asked: this.#lookAsked, game: this.#game, target };
  }

  /** Its answer, shown where it is the latest asked of this game. */
  looked(ticket, answer) {
    if (ticket.asked !== this.#lookAsked || ticket.game !== this.#game) return false;
    this.#looking = ticket.target;
    this.#lookView = answer;
    return true;
  }

  moveNowSent() { this.#movingNow = true; }
  moveNowDone() { this.#movingNow = false; }
}
