// The Stats page: what the server has done since it started.
import { api } from "./api.js";
import { $, h } from "./dom.js";

export const Stats = {
  // The latest question asked: an answer to an earlier one (the page's first, for everyone,
  // overtaken by a name picked meanwhile) is dropped, not drawn over the later one.
  asked: 0,

  init() {
    $("st-name").addEventListener("change", () => this.open());
  },

  async open() {
    const name = $("st-name").value;
    const asked = ++this.asked;
    try {
      const answer = await api("GET", `/api/stats${name ? `?name=${encodeURIComponent(name)}` : ""}`);
      if (asked !== this.asked) return;
      const select = $("st-name");
      const current = select.value;
      select.replaceChildren(h("option", { value: "" }, "everyone"), ...answer.people.map((p) => h("option", { value: p }, p)));
      select.value = answer.people.includes(current) ? current : "";
      const stats = answer.stats;
      $("st-note").textContent = `From the play record ${answer.record}: every finished game, in the terminal and here. In a terminal: arena play --stats${name ? ` --name "${name}"` : ""}.`;
      const body = $("st-body");
      if (!stats.games) {
        body.replaceChildren(h("p", { class: "note" }, "No games yet. Play one, and it shows here."));
        return;
      }
      const row = (cells, cls = "") => h("tr", { class: cls }, cells.map((c, i) => h("td", { class: i > 1 ? "num" : "" }, c)));
      // Second or third of three or four: neither a win nor a loss (a column where there is one).
      const placed = stats.modes.some((m) => m.tally.placed) || stats.levels.some((l) => l.tally.placed);
      const wdl = (t) => (placed ? `${t.wins}-${t.draws}-${t.placed}-${t.losses}` : `${t.wins}-${t.draws}-${t.losses}`);
      body.replaceChildren(...[
        h("h2", {}, `${stats.games} ${stats.games === 1 ? "game" : "games"}${stats.name ? ` of ${stats.name}` : ""}`),
        h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "table" }, h("table", { class: "modes" },
          h("thead", {}, h("tr", {}, ["mode", "counted for", "games", "wins", "draws", ...(placed ? ["placed"] : []), "losses"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.modes.map((m) => row([m.mode, m.view, m.tally.games, m.tally.wins, m.tally.draws, ...(placed ? [m.tally.placed] : []), m.tally.losses])))))
        ,
        stats.levels.length ? h("h2", { style: "margin-top:1rem" }, "Against each AI level") : null,
        stats.levels.length ? h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": "table" }, h("table", {},
          h("thead", {}, h("tr", {}, ["variant", "level", "games", placed ? "W-D-P-L" : "W-D-L", "win rate"].map((t, i) => h("th", { class: i > 1 ? "num" : "" }, t)))),
          h("tbody", {}, stats.levels.map((l) => h("tr", {},
            h("td", {}, l.variant), h("td", {}, l.level), h("td", { class: "num" }, l.tally.games),
            h("td", { class: "num" }, wdl(l.tally)),
            h("td", { class: "num" }, h("span", { class: "rate", style: `width:${Math.round(60 * l.win_rate)}px` }), `${(100 * l.win_rate).toFixed(1)}%`)))))) : null,
        placed ? h("p", { class: "note" }, "Placed (P): second or third at a table of three or four, counted neither won nor lost.") : null,
        h("p", { class: "note" }, "The ratings of people against each agent: Report, or arena report on the play record.")].filter(Boolean));
    } catch (error) {
      if (asked !== this.asked) return;
      $("st-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    }
  },
};
