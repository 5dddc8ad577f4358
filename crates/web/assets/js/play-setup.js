// The Play page's setup form: the family and variant, who sits at each seat, the modes.
// Methods of Play (play.js mixes them in): `this` is Play.
import { api, meta } from "./api.js";
import { $, h, SEAT_COLOURS } from "./dom.js";
import { seatNameOf, withCode } from "./format.js";

export const setupMethods = {
  // The family menu and its variants, from the registry's families (`/api/meta`).
  families() {
    // A family's other names in its entry, so that "caro" or "gomoku" is found in the menu.
    $("family").replaceChildren(...meta.families.map((f) => h("option", { value: f.name },
      f.aliases.length ? `${f.title} (${f.aliases.map((a) => a.alias).join(", ")})` : f.title)));
  },

  pickFamily(name, lookUp) {
    const family = meta.families.find((f) => f.name === name) || meta.families[0];
    $("family").value = family.name;
    $("presets").replaceChildren(...family.variants.map((v) =>
      h("button", { type: "button", "data-variant": v.id, title: v.about === v.id ? v.id : `${v.id}: ${v.about}`, onclick: () => { $("variant").value = v.id; this.lookUp(v.id); } }, v.label)));
    $("variant-help").replaceChildren("Ids: ", ...withCode(family.ids), "; for example ", h("code", {}, family.example), ".");
    if (lookUp) {
      const id = family.variants.length ? family.variants[0].id : family.example;
      $("variant").value = id;
      this.lookUp(id);
    }
  },

  // Asks the server what a variant id is: players, seats' names, or what is wrong with it.
  async lookUp(id) {
    const note = $("variant-note");
    // Answers can overtake each other while a person types: only the latest counts.
    const asked = (this.asked = (this.asked || 0) + 1);
    try {
      const variant = await api("GET", `/api/variant?id=${encodeURIComponent(id)}`);
      if (asked !== this.asked) return;
      this.variant = variant;
      note.classList.remove("bad");
      const players = variant.seat_names.join(", ");
      const agent = (level, spec) => (spec === level ? null : `${level} is ${spec}`);
      note.textContent = [`${variant.id}: ${variant.title}, ${variant.players} players (${players})`, agent("easy", variant.easy), agent("hard", variant.hard)].filter(Boolean).join("; ");
      // The variant's own rule, from the game, in one line.
      $("variant-rule").textContent = variant.rules.line || "";
      $("variant-rule").hidden = !variant.rules.line;
      if ($("family").value !== variant.family) this.pickFamily(variant.family, false);
      for (const chip of document.querySelectorAll("#presets button")) chip.classList.toggle("on", chip.dataset.variant === variant.id);
      this.seatRows();
      note.dataset.asked = id;
    } catch (error) {
      if (asked !== this.asked) return;
      this.variant = null;
      note.classList.add("bad");
      note.textContent = error.message;
      $("variant-rule").hidden = true;
      note.dataset.asked = id;
    }
  },

  // One row per seat: a person (with a name) or an agent (easy, hard, random, or any spec).
  seatRows() {
    const variant = this.variant;
    const box = $("seats");
    const old = [...box.querySelectorAll(".seat-row")].map((row) => ({
      who: row.querySelector("select").value,
      text: row.querySelector("input").value,
    }));
    const saved = localStorage.getItem("arena.name") || meta.name;
    box.replaceChildren();
    for (let seat = 0; seat < variant.players; seat++) {
      const previous = old[seat] || { who: seat === 0 ? "person" : "hard", text: "" };
      const name = seatNameOf(variant, seat);
      const select = h("select", { "aria-label": `who plays ${name}` },
        h("option", { value: "person" }, "Person"),
        h("option", { value: "easy" }, "Easy AI"),
        h("option", { value: "hard" }, "Hard AI"),
        h("option", { value: "random" }, "Random"),
        ...this.ownOptions(variant),
        h("option", { value: "custom" }, "Any agent…"));
      select.value = previous.who;
      // A seat's own agent that does not play the new variant goes back to the default.
      if (select.value !== previous.who) select.value = seat === 0 ? "person" : "hard";
      const input = h("input", { spellcheck: "false", list: "spec-list" });
      let custom = previous.who === "custom" ? previous.text : "";
      const sync = () => {
        const who = select.value;
        input.setAttribute("aria-label", who === "person" ? `name of the person playing ${name}` : `agent playing ${name}`);
        const own = who.startsWith("own:") ? who.slice(4) : null;
        input.disabled = who === "easy" || who === "hard" || who === "random" || own !== null;
        input.removeAttribute("list");
        if (who === "person") {
          input.placeholder = "name";
          input.value = this.typedNames[seat] || saved;
        } else if (who === "custom") {
          input.placeholder = "spec, like mcts:iterations=20000";
          input.setAttribute("list", "spec-list");
          input.value = custom;
        } else {
          input.value = own !== null ? own : who === "easy" ? variant.easy : who === "hard" ? variant.hard : "random";
        }
      };
      input.addEventListener("input", () => {
        if (select.value === "person") this.typedNames[seat] = input.value;
        if (select.value === "custom") custom = input.value;
      });
      select.addEventListener("change", () => { sync(); this.markMode(); });
      sync();
      box.append(h("div", { class: "seat-row" },
        h("span", { class: "who" }, h("span", { class: "dot", style: `background:${SEAT_COLOURS[seat]}` }), name),
        select, input));
    }
    this.markMode();
    this.ownNote(variant);
  },

  // The operator's agents (`arena serve --agent NAME=SPEC`, from /api/meta) in a seat's menu:
  // those that passed their check on this variant, by name.
  ownOptions(variant) {
    return (meta.agents || []).filter((a) => this.ownPlays(a, variant))
      .map((a) => h("option", { value: `own:${a.name}` }, `${a.name} (your agent)`));
  },

  // Whether an operator's agent may sit at `variant`: one it passed at start, or an id typed
  // by hand of a game its kind plays (the server checks it when the game starts).
  ownPlays(agent, variant) {
    if (agent.unavailable) return false;
    if (agent.variants.includes(variant.id)) return true;
    const offered = meta.families.some((f) => f.variants.some((v) => v.id === variant.id));
    return !offered && agent.families.includes(variant.family);
  },

  // Under the seats: which of the operator's agents do not play here, and why.
  ownNote(variant) {
    const box = $("own-note");
    const lines = (meta.agents || []).filter((a) => !this.ownPlays(a, variant))
      .map((a) => a.unavailable ? `${a.name} is unavailable: ${a.unavailable}` : `${a.name} does not play ${variant.id}`);
    box.hidden = !lines.length;
    box.replaceChildren(...lines.map((line) => h("span", { class: "own-line" }, ...withCode(line))));
  },

  mode(name) {
    const rows = [...$("seats").querySelectorAll(".seat-row")];
    rows.forEach((row, seat) => {
      const select = row.querySelector("select");
      select.value = name === "pvp" ? "person" : name === "demo" ? "hard" : seat === 0 ? "person" : name;
      select.dispatchEvent(new Event("change"));
    });
    this.markMode();
  },

  markMode() {
    const whos = [...$("seats").querySelectorAll("select")].map((select) => select.value);
    const mode = whos.every((w) => w === "person") ? "pvp"
      : whos.every((w) => w !== "person") ? (whos.every((w) => w === "hard") ? "demo" : null)
        : whos.filter((w) => w === "person").length === 1 && whos.every((w) => w === "person" || w === "easy") ? "easy"
          : whos.filter((w) => w === "person").length === 1 && whos.every((w) => w === "person" || w === "hard") ? "hard" : null;
    for (const button of document.querySelectorAll("#modes button")) button.classList.toggle("on", button.dataset.mode === mode);
  },
};
