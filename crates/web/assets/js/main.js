// arena in the browser: Play, Analyse, Replay, Report, Stats and Live over the server's JSON
// API. Plain modern JavaScript modules, no build step: the server compiles every file of
// assets/js/ into its binary and serves it at /js/NAME (crates/web/src/lib.rs). This module is
// the entry: the pages shown by the address's #hash, the page-wide keys, the start.
import { Analyse } from "./analyse.js";
import { drawBoard } from "./board.js";
import { loadMeta, meta } from "./api.js";
import { $, h, toast, typing } from "./dom.js";
import { Live } from "./live.js";
import { Play } from "./play.js";
import { Prefs, Reply, Sound } from "./prefs.js";
import { Replay } from "./replay.js";
import { Report } from "./report.js";
import { Stats } from "./stats.js";

// ---------------------------------------------------------------- pages

const pages = ["play", "analyse", "replay", "report", "live", "stats"];
export let page = null;

export function showPage() {
  // `#replay?variant=...&moves=...&ply=N` and `#analyse?variant=...&moves=...`: a shared game.
  const [wanted0, query] = location.hash.replace("#", "").split("?");
  const wanted = wanted0 || "play";
  const next = pages.includes(wanted) ? wanted : "play";
  for (const name of pages) $(`page-${name}`).hidden = name !== next;
  for (const link of document.querySelectorAll("#tabs a")) link.classList.toggle("active", link.dataset.page === next);
  const first = page !== next;
  page = next;
  document.title = `arena · ${next[0].toUpperCase()}${next.slice(1)}`;
  if (first) {
    if (next === "replay") Replay.open();
    if (next === "report") Report.open();
    if (next === "stats") Stats.open();
    if (next === "live") Live.open();
    if (next === "analyse") Analyse.open();
    if (next === "play") Play.resume();
  }
  const shared = new URLSearchParams(query || "");
  if (next === "replay" && shared.has("file")) Replay.filtered(shared, first);
  else if (shared.has("variant") && (next === "replay" || next === "analyse")) {
    const moves = (shared.get("moves") || "").trim();
    if (next === "analyse") Analyse.openWith(shared.get("variant"), moves);
    else Replay.openLine(shared.get("variant"), moves, Number(shared.get("ply") || 0));
  }
}

// ---------------------------------------------------------------- start

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "?" && !typing()) { event.preventDefault(); $("help").showModal(); return; }
  if (event.key === "Escape") {
    // Escape ends a sowing shown seed by seed at once (as a click on the board does).
    if (Play.state.skip()) return;
    Play.state.pick(null);
    if (Play.game) Play.render();
    return;
  }
  if (typing() && event.key !== "Enter") return;
  if (page === "play") Play.key(event);
  else if (page === "replay") Replay.key(event);
});

// What a console and the browser test (crates/web/browser/) reach on `window`: the Play and
// Replay pages, the move sound's and the reply times' records, the board drawer; modules keep
// everything else to themselves.
Object.assign(window, { Play, Replay, Sound, Reply, drawBoard });

async function main() {
  Play.init();
  Analyse.init();
  Replay.init();
  Report.init();
  Stats.init();
  Live.init();
  Prefs.init();
  $("help-button").addEventListener("click", () => $("help").showModal());
  try {
    await loadMeta();
  } catch (error) {
    toast(error.message);
    return;
  }
  const variants = meta.families.flatMap((f) => f.variants);
  $("variant-list").replaceChildren(...variants.map((v) => h("option", { value: v.id }, `${v.label}: ${v.about}`)));
  $("spec-list").replaceChildren(...meta.kinds.map((k) => h("option", { value: k.name }, `${k.summary} (${k.reach})`)));
  Play.families();
  Play.pickFamily(meta.families[0].name, false);
  await Play.lookUp($("variant").value);
  window.addEventListener("hashchange", showPage);
  showPage();
  document.body.dataset.ready = "1";
}

main();
