// The page's preferences (theme, sound, zoom), the move sound, and the person's reply time.
import { BoardTools } from "./board-tools.js";
import { $ } from "./dom.js";

//
// Issue 36, missing 6 and defects 21, 24 (and the sowing games' reply time). The page's own
// settings, remembered in the browser (localStorage "arena.*"): the theme (the system's
// `prefers-color-scheme` until the header's switch picks one), the move sound, and on a grid too
// big for the screen the zoom and "tap twice to play".

export const Prefs = {
  get(key, fallback) {
    try { const value = localStorage.getItem(`arena.${key}`); return value === null ? fallback : value; } catch { return fallback; }
  },
  set(key, value) {
    try { if (value === null) localStorage.removeItem(`arena.${key}`); else localStorage.setItem(`arena.${key}`, value); } catch { /* a private window: not remembered */ }
  },

  init() {
    const system = window.matchMedia("(prefers-color-scheme: dark)");
    const systemTheme = () => (system.matches ? "dark" : "light");
    const theme = () => {
      const now = this.get("theme", null) || systemTheme();
      document.documentElement.dataset.theme = now;
      $("theme-button").setAttribute("aria-pressed", String(now === "dark"));
      $("theme-button").title = `Dark theme: ${now === "dark" ? "on" : "off"}${this.get("theme", null) ? "" : " (the system's)"}`;
    };
    system.addEventListener("change", theme);
    $("theme-button").addEventListener("click", () => {
      const next = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
      // Back to the system's theme: follow it again.
      this.set("theme", next === systemTheme() ? null : next);
      theme();
    });
    theme();
    const sound = () => {
      const on = Sound.on();
      $("sound-button").setAttribute("aria-pressed", String(on));
      $("sound-button").textContent = on ? "♪" : "✕";
      $("sound-button").title = `Move sound: ${on ? "on" : "off"}`;
    };
    $("sound-button").addEventListener("click", () => { this.set("sound", Sound.on() ? "off" : "on"); sound(); });
    sound();
    BoardTools.init();
  },
};

// A short tone at each move, made in the page (WebAudio), a little higher for the first seat.
export const Sound = {
  made: 0,
  context: null,
  on() { return Prefs.get("sound", "on") !== "off"; },
  move(seat) {
    if (!this.on()) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      this.context = this.context || new Context();
      const audio = this.context;
      if (audio.state === "suspended") audio.resume();
      const t = audio.currentTime;
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.type = "triangle";
      tone.frequency.setValueAtTime(seat % 2 ? 523 : 659, t);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.006);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.09);
      tone.connect(gain).connect(audio.destination);
      tone.start(t);
      tone.stop(t + 0.1);
      this.made += 1;
    } catch { /* no sound on this browser */ }
  },
};

// A move shown: its sound, and an agent's reply said in the live region (#announce) for a
// screen reader. And the person's reply time: from their click (`click`) to the board ready for
// their next move (`ready`), with the agents' own think times (`ms` of their moves) and every
// wait the page scheduled (an animation, a pause before an agent's move) beside it.
export const Reply = {
  asked: null,
  thinkMs: 0,
  waitMs: 0,
  agentMoves: 0,
  log: [],
  click() {
    this.asked = performance.now();
    this.thinkMs = 0;
    this.waitMs = 0;
    this.agentMoves = 0;
  },
  waited(ms) { if (this.asked !== null) this.waitMs += ms; },
  moved(game, played) {
    Sound.move(played.seat);
    if (played.person) return;
    if (this.asked !== null) { this.thinkMs += played.ms || 0; this.agentMoves += 1; }
    const seat = game.seats[played.seat];
    const next = game.over ? ` Game over: ${game.over.summary}.` : game.to_move !== null && game.seats[game.to_move].person ? ` ${game.seats[game.to_move].label} to move.` : "";
    $("announce").textContent = `${seat.label} played ${played.move}.${next}`;
  },
  ready() {
    if (this.asked === null) return;
    if (this.agentMoves) {
      const waitedMs = performance.now() - this.asked;
      this.log.push({ waitedMs, thinkMs: this.thinkMs, scheduledMs: this.waitMs, agentMoves: this.agentMoves, overMs: waitedMs - this.thinkMs });
    }
    this.asked = null;
  },
};
