// The Report page: a results folder's report (report.md and its charts) and its writing.
import { api } from "./api.js";
import { $, h, s, toast } from "./dom.js";
import { Replay } from "./replay.js";

export const Report = {
  folders: [],

  init() {
    $("rep-dir").addEventListener("change", () => this.show());
    $("rep-write").addEventListener("click", () => this.write());
  },

  // The folders' list; then the picked folder's report, unless `show` is false (a report just
  // written is on the page already).
  async open(show = true) {
    try {
      const answer = await api("GET", "/api/reports");
      this.folders = answer.folders;
      if (!this.folders.length) {
        $("rep-body").replaceChildren(h("p", { class: "note" }, `No results under ${answer.results} yet: run an experiment with arena run, or play a game.`));
        return;
      }
      const current = $("rep-dir").value;
      $("rep-dir").replaceChildren(...this.folders.map((f) => h("option", { value: f.dir }, `${f.dir || "(results)"}${f.report ? "" : " · no report yet"}`)));
      const pick = this.folders.find((f) => f.dir === current) || this.folders.find((f) => f.dir === "default" && f.report) || this.folders.find((f) => f.report) || this.folders[0];
      $("rep-dir").value = pick.dir;
      if (show) this.show();
    } catch (error) {
      toast(error.message);
    }
  },

  async show() {
    const dir = $("rep-dir").value;
    const folder = this.folders.find((f) => f.dir === dir);
    $("rep-write").disabled = !folder || !folder.games;
    $("rep-write").textContent = folder && folder.report ? "Rewrite report" : "Write report";
    // A folder without a report: say so, rather than ask for what is not there.
    if (folder && !folder.report) {
      $("rep-body").replaceChildren(h("p", { class: "note" }, folder.games
        ? `No report in ${dir || "the results folder"} yet: Write report makes one from its games.`
        : `No report in ${dir || "the results folder"}, and no games to write one from.`));
      return;
    }
    try {
      const answer = await api("GET", `/api/report?dir=${encodeURIComponent(dir)}`);
      const body = $("rep-body");
      body.innerHTML = answer.html;
      chartsReadable(body);
      this.navigate(dir);
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note" }, error.message));
    }
  },

  // Issue 36, missing 5: the report's contents scroll to their section (the page's own
  // `#page` addresses are left alone), and where the folder has its games.csv, each agent of a
  // table with an Agent column links to its games in Replay, and each Opponent to the pair's,
  // in the section's variant (a `##` heading that starts with an id and no space, like
  // "mnk-3x3k3 (9 cells)"; the pooled section's links take every variant).
  navigate(dir) {
    const body = $("rep-body");
    for (const link of body.querySelectorAll('a[href^="#"]')) {
      const target = decodeURIComponent(link.getAttribute("href").slice(1));
      link.addEventListener("click", (event) => {
        const section = document.getElementById(target);
        if (!section || !body.contains(section)) return;
        event.preventDefault();
        section.scrollIntoView({ block: "start" });
        section.setAttribute("tabindex", "-1");
        section.focus({ preventScroll: true });
      });
    }
    const folder = this.folders.find((f) => f.dir === dir);
    if (!folder || !folder.games) return;
    const file = dir ? `${dir}/games.csv` : "games.csv";
    let variant = "";
    for (const node of body.querySelectorAll("h2, table")) {
      if (node.tagName === "H2") {
        const id = node.textContent.match(/^(\S+)( \(.*\))?$/);
        variant = id ? id[1] : "";
        continue;
      }
      const heads = [...node.querySelectorAll("thead th")].map((th) => th.textContent.trim());
      const agentAt = heads.indexOf("Agent"), opponentAt = heads.indexOf("Opponent");
      if (agentAt < 0) continue;
      for (const row of node.querySelectorAll("tbody tr")) {
        const cells = row.children;
        const agent = cells[agentAt] && cells[agentAt].textContent.trim();
        if (!agent) continue;
        const where = variant ? ` in ${variant}` : "";
        const link = (cell, against) => {
          const query = new URLSearchParams({ file, agent: `"${agent}"` });
          if (variant) query.set("variant", variant);
          if (against) query.set("against", `"${against}"`);
          const a = h("a", { href: `#replay?${query}`, class: "to-replay",
            title: against ? `${agent}'s games against ${against}${where}, in Replay` : `${agent}'s games${where}, in Replay` }, ...cell.childNodes);
          cell.replaceChildren(a);
        };
        link(cells[agentAt], null);
        if (opponentAt >= 0 && cells[opponentAt]) link(cells[opponentAt], cells[opponentAt].textContent.trim());
      }
    }
  },

  async write() {
    const dir = $("rep-dir").value;
    $("rep-write").disabled = true;
    $("rep-body").replaceChildren(h("p", {}, h("span", { class: "spinner" }), " writing the report (ratings with bootstrap intervals, charts)…"));
    try {
      const answer = await api("POST", "/api/report", { dir });
      $("rep-body").innerHTML = answer.html;
      chartsReadable($("rep-body"));
      this.navigate(dir);
      await this.open(false);
      $("rep-write").textContent = "Rewrite report";
    } catch (error) {
      $("rep-body").replaceChildren(h("p", { class: "note bad" }, error.message));
    } finally {
      $("rep-write").disabled = false;
    }
  },
};

// A report's charts each in a box of its own: on a phone the chart keeps a size its numbers
// read at (a heatmap's cells) and scrolls sideways there, not the page (issue 36, defect 24).
export function chartsReadable(body) {
  for (const img of body.querySelectorAll("img")) {
    if (img.parentElement.classList.contains("chart-scroll")) continue;
    const box = h("div", { class: "chart-scroll", tabindex: 0, role: "region", "aria-label": img.alt || "chart" });
    img.replaceWith(box);
    box.append(img);
  }
}
