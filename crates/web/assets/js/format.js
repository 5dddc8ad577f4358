// Words and figures as the pages show them: results, search stats, clocks, links to a game.
import { seatName } from "./board-common.js";
import { h } from "./dom.js";

// A result as the record writes it ("1-0", "1/2-1/2", or places "2-1-3") in words, with the
// seats' names from `view`.
export function resultWords(view, result) {
  const parts = result.split("-");
  if (view.players === 2 && parts.length === 2 && !result.includes("/")) {
    const winner = parts[0] === "1" ? 0 : parts[1] === "1" ? 1 : null;
    return winner === null ? "a draw" : `${seatName(view, winner)} wins`;
  }
  if (result.includes("1/2")) return "a draw";
  const order = parts.map((place, seat) => [Number(place), seat]).sort((a, b) => a[0] - b[0]);
  return order.map(([place, seat]) => `${seatName(view, seat)} ${["first", "second", "third", "fourth"][place - 1] || `place ${place}`}`).join(", ");
}

// Text with `code` spans (as the registry's help texts write them) as nodes, the backticks gone.
export const withCode = (text) => text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));

export const ms = (value) => (value >= 1000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(1)} ms`);
export const count = (n) => Number(n).toLocaleString("en");

export function statsText(stats, withReason = true) {
  if (!stats) return "";
  const parts = [ms(stats.ms), `${count(stats.nodes)} ${stats.nodes === 1 ? "node" : "nodes"}`];
  if (stats.depth !== null && stats.depth !== undefined) parts.push(`depth ${stats.depth}`);
  // Scores of a million and more are proven wins or losses: the reason says so in words.
  if (stats.score !== null && stats.score !== undefined && Math.abs(stats.score) < 1e6) {
    parts.push(`score ${Number.isInteger(stats.score) ? stats.score : stats.score.toFixed(3)}`);
  }
  return parts.join(", ") + (withReason && stats.reason ? `; ${stats.reason}` : "");
}


// The address that opens a game (its variant and moves) in Replay (`page` "replay", at `ply`)
// or Analyse (the position after `ply` moves).
export function gameLink(page, variant, moves, ply) {
  const query = new URLSearchParams({ variant, moves: page === "analyse" ? moves.slice(0, ply).join(" ") : moves.join(" ") });
  if (page === "replay") query.set("ply", ply);
  return `${location.origin}${location.pathname}#${page}?${query}`;
}


// A game clock as a chess clock shows it: 4:58.3 from a minute up, else 58.3 s.
export function clockFace(ms) {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const rest = tenths % 600;
  const seconds = `${Math.floor(rest / 10)}.${rest % 10}`;
  return minutes > 0 ? `${minutes}:${seconds.padStart(4, "0")}` : `${seconds} s`;
}

// A seat's name from a variant's answer (`/api/variant`).
export const seatNameOf = (variant, seat) => (variant.seat_names && variant.seat_names[seat]) || `player ${seat + 1}`;
