// The Play page's state (crates/web/assets/js/play-state.js) under plain `node --test`, no
// browser: its transitions and the races between a person's clicks, the agents' answers, the
// animations, undo and leaving.
//
//   node --test crates/web/browser/state.test.mjs
//
// STATE_MODULE=FILE tests another copy of the module (.ci/appjs-state.sh runs it against
// deliberately broken copies, each of which some case here must catch).

import { test } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const file = process.env.STATE_MODULE
  ? resolve(process.env.STATE_MODULE)
  : resolve(import.meta.dirname, "../assets/js/play-state.js");
const { PlayState } = await import(pathToFileURL(file).href);

// A game view as the server sends it: two seats on a grid, `to_move` a person or an agent.
function game({ id = "g1", ply = 0, person = [true, false], toMove = 0, over = null, canUndo = false, history = [] } = {}) {
  return {
    id, ply, players: 2, over, can_undo: canUndo, thinking: false, to_move: over ? null : toMove,
    seats: person.map((p, i) => ({ person: p, label: `seat ${i}` })),
    position: { layout: { kind: "grid", rows: 3, cols: 3 } },
    history, rules: { line: "three in a row" },
  };
}

// The answer to a move: the game after it (no history: the page keeps it), the move played.
function answer(after, played = { move: "b2", place: 4, seat: 0 }) {
  const { history, ...rest } = after;
  return { game: rest, played };
}

test("start shows a game from scratch: nothing picked, not busy, a new generation", () => {
  const state = new PlayState();
  state.start(game());
  state.pick(3);
  const first = state.gen;
  state.start(game({ id: "g2" }));
  assert.equal(state.game.id, "g2");
  assert.equal(state.selected, null);
  assert.equal(state.busy, false);
  assert.ok(state.gen > first);
});

test("the fields are changed only by transitions", () => {
  const state = new PlayState();
  state.start(game());
  assert.throws(() => { state.busy = true; }, TypeError);
  assert.throws(() => { state.game = null; }, TypeError);
  assert.equal(state.game.id, "g1");
});

test("a move sent makes the page busy; its reply ends that and takes the game in", () => {
  const state = new PlayState();
  state.start(game());
  const ticket = state.send("move");
  assert.ok(ticket);
  assert.equal(state.busy, true);
  assert.equal(state.interactive(), false);
  assert.equal(state.replied(ticket, answer(game({ ply: 1, toMove: 1 }))), true);
  assert.equal(state.busy, false);
  assert.equal(state.game.ply, 1);
  assert.deepEqual(state.game.history.map((p) => p.move), ["b2"], "the move played is added to the page's list");
  assert.equal(state.game.rules.line, "three in a row", "the rules in words are kept");
});

test("a second move while a reply is pending is refused", () => {
  const state = new PlayState();
  state.start(game());
  const first = state.send("move");
  assert.ok(first);
  assert.equal(state.send("move"), null);
  assert.equal(state.send("hint"), null);
  state.replied(first, answer(game({ ply: 1, toMove: 1 })));
  assert.ok(state.send("think"), "after the reply the next request goes");
});

test("a move while the last one is being drawn is refused; the animation's end allows it", () => {
  const state = new PlayState();
  state.start(game());
  const ticket = state.send("move");
  state.replied(ticket, answer(game({ ply: 1, toMove: 0, person: [true, true] })), { animate: true });
  assert.equal(state.animating, true);
  assert.equal(state.send("move"), null);
  assert.equal(state.showing(ticket), true);
  assert.equal(state.skip(), true);
  assert.equal(state.showing(ticket), false, "a skip ends the drawing");
  assert.equal(state.animationDone(ticket), true);
  assert.equal(state.animating, false);
  assert.ok(state.send("move"));
});

test("a reply that arrives after the game was left is ignored", () => {
  const state = new PlayState();
  state.start(game());
  const ticket = state.send("move");
  const left = state.leave();
  assert.equal(left.id, "g1");
  assert.equal(state.game, null);
  assert.equal(state.replied(ticket, answer(game({ ply: 1 }))), false);
  assert.equal(state.game, null, "the left game does not come back");
  assert.equal(state.busy, false);
});

test("a reply that arrives after a new game started is ignored and does not end the new game's wait", () => {
  const state = new PlayState();
  state.start(game());
  const old = state.send("move");
  state.start(game({ id: "g2", person: [false, true] }));
  const think = state.send("think");
  assert.ok(think);
  assert.equal(state.replied(old, answer(game({ ply: 1 }))), false);
  assert.equal(state.game.id, "g2");
  assert.equal(state.busy, true, "the new game's agent still thinks");
  assert.equal(state.failed(old), false);
  assert.equal(state.busy, true, "nor does the old request's failure end it");
  assert.equal(state.replied(think, answer(game({ id: "g2", ply: 1, toMove: 1, person: [false, true] }))), true);
  assert.equal(state.busy, false);
});

test("an animation of a game left stops and is not shown to its end", () => {
  const state = new PlayState();
  state.start(game({ person: [true, true] }));
  const ticket = state.send("move");
  state.replied(ticket, answer(game({ ply: 1, person: [true, true] })), { animate: true });
  state.leave();
  assert.equal(state.showing(ticket), false);
  assert.equal(state.animationDone(ticket), false, "nothing is drawn after it");
  assert.equal(state.animating, false);
});

test("undo while the agent thinks is refused; once it answered, undo goes and its answer counts", () => {
  const state = new PlayState();
  state.start(game({ canUndo: true, toMove: 1 }));
  const think = state.send("think");
  assert.equal(state.undo(), null, "undo waits for the agent's move");
  state.replied(think, answer(game({ ply: 2, canUndo: true, toMove: 0 })));
  state.pick(4);
  const undo = state.undo();
  assert.ok(undo);
  assert.equal(state.undone(undo, game({ ply: 0 })), true);
  assert.equal(state.game.ply, 0);
  assert.equal(state.selected, null);
});

test("two undos in a row: the first one's answer, arriving late, is ignored", () => {
  const state = new PlayState();
  state.start(game({ ply: 4, canUndo: true }));
  const first = state.undo();
  const second = state.undo();
  assert.equal(state.undone(second, game({ ply: 0, canUndo: false })), true);
  assert.equal(state.undone(first, game({ ply: 2, canUndo: true })), false);
  assert.equal(state.game.ply, 0);
});

test("a reply sent before an undo is ignored after it", () => {
  const state = new PlayState();
  state.start(game({ canUndo: true }));
  const undo = state.undo();
  const stale = { ...state.ticket(), gen: undo.gen - 1, kind: "move" };
  assert.equal(state.replied(stale, answer(game({ ply: 5 }))), false);
  assert.notEqual(state.game.ply, 5);
  const refresh = state.ticket();
  state.undone(undo, game({ ply: 0 }));
  assert.equal(state.refreshed(refresh, game({ ply: 0 })), true);
});

test("undo with nothing to undo is refused", () => {
  const state = new PlayState();
  state.start(game({ canUndo: false }));
  assert.equal(state.undo(), null);
});

test("a hint only where a person is to move; game over drops it", () => {
  const state = new PlayState();
  state.start(game({ toMove: 1 }));
  assert.equal(state.send("hint"), null, "an agent is to move");
  state.start(game({ toMove: 0 }));
  const ticket = state.send("hint");
  assert.ok(ticket);
  assert.equal(state.hinted(ticket, { game: game(), hint: { move: "c3", place: 8 } }), true);
  assert.equal(state.hint, 8);
  assert.equal(state.busy, false);
  assert.equal(state.refreshed(state.ticket(), game({ over: { summary: "draw" } })), true);
  assert.equal(state.hint, null, "a hint is for a move still to play");
});

test("resign ignores the answers of requests sent before it and ends the wait", () => {
  const state = new PlayState();
  state.start(game({ person: [true, false], toMove: 1 }));
  const think = state.send("think");
  const resign = state.resign();
  assert.ok(resign);
  assert.equal(state.replied(think, answer(game({ ply: 1 }))), false);
  assert.equal(state.resigned(resign, game({ over: { summary: "seat 1 wins" } })), true);
  assert.equal(state.busy, false);
  assert.equal(state.resign(), null, "a game over is not resigned again");
});

test("looking back: only the latest answer of this game is shown", () => {
  const state = new PlayState();
  state.start(game({ ply: 3 }));
  const first = state.lookSent(1);
  const second = state.lookSent(2);
  assert.equal(state.lookTarget, 2);
  assert.equal(state.looked(first, { at: 1 }), false);
  assert.equal(state.looked(second, { at: 2 }), true);
  assert.equal(state.looking, 2);
  const late = state.lookSent(0);
  state.refreshed(state.ticket(), game({ ply: 4 }));
  assert.equal(state.looked(late, { at: 0 }), false, "the game moved on since");
  state.lookLive();
  assert.equal(state.looking, null);
  assert.equal(state.lookTarget, null);
});

test("pause is for agents alone", () => {
  const state = new PlayState();
  state.start(game({ person: [true, false] }));
  assert.equal(state.togglePause(), null);
  state.start(game({ person: [false, false] }));
  assert.equal(state.togglePause(), true);
  assert.equal(state.paused, true);
  state.start(game({ person: [false, false] }));
  assert.equal(state.paused, true, "a game taken up keeps the pause");
  state.start(game({ person: [false, false] }), { unpause: true });
  assert.equal(state.paused, false, "a new game starts unpaused");
});

test("the turned stones of a reply are kept with its ply, and a note stays until the next start", () => {
  const state = new PlayState();
  state.start(game({ person: [true, true] }));
  const ticket = state.send("move");
  const played = { move: "d3", place: 19, seat: 0, note: "blocked at both ends", sowing: [{ step: "put", place: 19 }, { step: "turn", place: 27 }] };
  state.replied(ticket, answer(game({ ply: 1, person: [true, true] }), played));
  assert.equal(state.turned.ply, 1);
  assert.deepEqual([...state.turned.places], [27]);
  assert.equal(state.note, "blocked at both ends");
  assert.ok(!("sowing" in state.game.history[0]), "the list keeps the move, not its steps");
  state.start(game());
  assert.equal(state.note, null);
});
