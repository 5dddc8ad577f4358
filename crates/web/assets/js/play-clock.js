// The Play page's clocks: every seat's, the mover's counting down. Methods of Play (play.js
// mixes them in): `this` is Play; the frame and the times are its fields.
import { $, h, SEAT_COLOURS } from "./dom.js";
import { clockFace } from "./format.js";

export const clockMethods = {
  clockEnd: null,
  clockFrame: null,
  gameClockKey: null,
  gameClockAt: 0,

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
    if (!person && !(this.state.busy || game.thinking)) return;
    // A new answer (a poll while an agent thinks, a reload) has the time since taken off
    // already: count down from it, not from the first answer of the turn.
    const key = `${game.id}:${game.ply}:${game.clocks[seat]}:${person ? game.clock_ms : "thinking"}`;
    if (this.gameClockKey !== key) {
      this.gameClockKey = key;
      this.gameClockAt = performance.now();
    }
    const from = game.clocks[seat];
    const ticket = this.state.ticket();
    const tick = () => {
      if (!this.state.current(ticket) || this.game !== game) return;
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
        setTimeout(() => { if (this.state.current(ticket)) this.reload(); }, 600);
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
    const ticket = this.state.ticket();
    const seat = game.to_move;
    const tick = () => {
      if (!this.state.current(ticket)) return;
      const clock = document.querySelector(`#clocks .clock[data-seat='${seat}']`);
      if (!clock) return;
      const remaining = Math.max(0, this.clockEnd - performance.now());
      clock.querySelector(".bar").style.width = `${(100 * remaining) / limit}%`;
      clock.querySelector(".time").textContent = `${(remaining / 1000).toFixed(1)} s`;
      clock.classList.toggle("low", remaining < 0.25 * limit);
      if (remaining <= 0) {
        this.clockFrame = null;
        // The server's clock decides; ask it once its grace is over.
        setTimeout(() => { if (this.state.current(ticket)) this.reload(); }, 600);
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
};
