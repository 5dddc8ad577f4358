// The browser test of `arena serve`: Debian's Chromium, headless, driven by playwright-core.
// It starts the server on 127.0.0.1 over a scratch results folder (with a copy of the
// committed sample run), then plays as a person would, by clicks and keys:
//   - a tic-tac-toe game won against `random`, and its row in the play record;
//   - O An Quan's golden moves 3P 7P 5P, checking the position the page shows after each;
//   - the won game opened in Replay and stepped to its end with the arrow key;
//   - a game of three O An Quan players sown, then resigned, its row replayed by `arena verify`;
// and saves a screenshot of every page (laptop and phone widths) in target/browser-screenshots.
//
//   ARENA_BIN=target/debug/arena PLAYWRIGHT_DIR=target/browser-node node --test crates/web/browser/
//
// Chromium runs with the flags that work on a machine without a network (see the env notes).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../../..");
const bin = resolve(process.env.ARENA_BIN || join(root, "target/debug/arena"));
const require = createRequire(join(resolve(process.env.PLAYWRIGHT_DIR || join(root, "target/browser-node")), "package.json"));
const { chromium } = require("playwright-core");
const shots = resolve(process.env.SHOTS || join(root, "target/browser-screenshots"));

let server, url, browser, results;
const FLAGS = ["--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];

before(async () => {
  mkdirSync(shots, { recursive: true });
  results = mkdtempSync(join(tmpdir(), "arena-browser-"));
  cpSync(join(root, "results/default"), join(results, "default"), { recursive: true });
  server = spawn(bin, ["serve", "--port", "0", "--results", results, "--name", "browser"], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise((ok, fail) => {
    let seen = "";
    server.stdout.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (found) ok(found[1]);
    });
    server.on("exit", (code) => fail(new Error(`arena serve exited with ${code}: ${seen}`)));
    setTimeout(() => fail(new Error(`no address from arena serve: ${seen}`)), 30000);
  });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, chromiumSandbox: false, args: FLAGS });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
  if (results) rmSync(results, { recursive: true, force: true });
});

async function open(width = 1280, height = 860) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("dialog", (dialog) => dialog.accept());
  page.errors = errors;
  await page.goto(`${url}#play`);
  await page.waitForSelector("body[data-ready='1']");
  return page;
}

// A new game from the setup form: a preset, then who sits where.
async function setUp(page, variant, seats) {
  if (await page.isVisible("#game")) await page.click("#new");
  await page.click(`#presets button[data-variant='${variant}']`);
  await page.waitForFunction((v) => document.querySelector("#variant-note").textContent.includes(":"), variant);
  const rows = page.locator("#seats .seat-row");
  assert.equal(await rows.count(), seats.length);
  for (let i = 0; i < seats.length; i++) {
    await rows.nth(i).locator("select").selectOption(seats[i]);
  }
  await page.click("#start");
  await page.waitForSelector("#board svg");
}

const moveCount = (page) => page.locator("#move-list li").count();

// Waits until the page waits for a person again (or the game is over), `plies` moves in.
async function settle(page, plies) {
  await page.waitForFunction((n) => {
    const over = !document.querySelector("#result").hidden;
    const moves = document.querySelectorAll("#move-list li").length;
    const still = !document.querySelector("#board .hand") && !document.querySelector("#status .spinner");
    return still && (over || moves >= n);
  }, plies, { timeout: 60000 });
}

// The tic-tac-toe board as the page draws it: 9 cells of "X", "O" or "".
async function shownBoard(page) {
  const cells = Array(9).fill("");
  for (const stone of await page.locator("#board [data-stone]").all()) {
    cells[Number(await stone.getAttribute("data-at"))] = await stone.getAttribute("data-stone");
  }
  return cells;
}

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

// A sound tic-tac-toe move for X: win, block, centre, a corner, anything.
function choose(cells) {
  for (const who of ["X", "O"]) {
    for (const line of LINES) {
      const marks = line.map((i) => cells[i]);
      if (marks.filter((m) => m === who).length === 2 && marks.includes("")) return line[marks.indexOf("")];
    }
  }
  for (const i of [4, 0, 2, 6, 8, 1, 3, 5, 7]) if (!cells[i]) return i;
  return -1;
}

test("a person wins tic-tac-toe against random by clicks, and the game is recorded", async () => {
  const page = await open();
  await page.screenshot({ path: join(shots, "play-setup.png") });
  await setUp(page, "tictactoe", ["person", "random"]);
  let won = false;
  for (let game = 0; game < 12 && !won; game++) {
    while (await page.isHidden("#result")) {
      const before = await moveCount(page);
      const cell = choose(await shownBoard(page));
      assert.ok(cell >= 0, "a free cell while the game goes on");
      await page.click(`#board .cell-hit[data-cell='${cell}']`);
      await settle(page, before + 2);
    }
    const result = await page.textContent("#result strong");
    if (result.startsWith("1-0")) {
      won = true;
      const cells = await shownBoard(page);
      assert.ok(LINES.some((line) => line.every((i) => cells[i] === "X")), `three X in a row: ${cells}`);
      assert.equal(await page.locator("#board line[stroke='#2e8b57']").count(), 1, "the winning line is drawn");
      await page.screenshot({ path: join(shots, "play-tictactoe-won.png") });
    } else {
      await page.click("#result button.primary");
      await page.waitForFunction(() => document.querySelector("#result").hidden);
    }
  }
  assert.ok(won, "X won one of twelve games against random");
  const note = await page.textContent("#result .note");
  assert.match(note, /recorded in play\/games\.csv, game \d+/);
  const record = readFileSync(join(results, "play/games.csv"), "utf8").trim().split("\n");
  const last = record[record.length - 1].split(",");
  assert.deepEqual(last.slice(0, 2), ["play-web", "mnk-3x3k3"]);
  assert.deepEqual([last[4], last[5], last[6]], ["browser", "random", "1-0"]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The golden trace of the O An Quan spec, as the page must show it: squares 1-5 (ring 0-4),
// mandarin A's value, ring 6-10, mandarin B's value, captures.
const GOLDEN = [
  ["3P", [6, 6, 0, 0, 6], 11, [6, 6, 0, 6, 6], 11, [6, 0], "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)"],
  ["7P", [6, 0, 0, 1, 7], 12, [7, 7, 1, 0, 6], 11, [6, 6], "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)"],
  ["5P", [2, 3, 3, 4, 0], 0, [0, 0, 4, 3, 9], 14, [22, 6], "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)"],
];

test("O An Quan moves sow seed by seed to the golden positions", async () => {
  const page = await open();
  await setUp(page, "oanquan", ["person", "person"]);
  for (const [at, [move, mine, a, theirs, b, captures, line]] of GOLDEN.entries()) {
    const label = move.slice(0, -1);
    await page.click(`#board .square.mine[data-label='${label}']`);
    await page.click(`#board .arrow[data-dir='${move.slice(-1)}']`);
    if (at === 2) {
      // Mid-sowing: the hand of seeds is on the board.
      await page.waitForSelector("#board .hand");
      await page.screenshot({ path: join(shots, "oanquan-sowing.png") });
    }
    await settle(page, at + 1);
    const count = async (i) => Number(await page.textContent(`#board [data-count='${i}']`));
    const shown = [];
    for (let i = 0; i < 12; i++) shown.push(await count(i));
    assert.deepEqual(shown.slice(0, 5), mine, `${move}: player 1's squares`);
    assert.equal(shown[5], a, `${move}: mandarin A`);
    assert.deepEqual(shown.slice(6, 11), theirs, `${move}: ring cells 6-10`);
    assert.equal(shown[11], b, `${move}: mandarin B`);
    const scores = await page.locator("#game-seats .score").allTextContents();
    assert.deepEqual(scores.map(Number), captures, `${move}: captures`);
    assert.equal(await page.textContent("#oq-line"), line);
  }
  await page.screenshot({ path: join(shots, "play-oanquan.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("three O An Quan players: the person sows, two agents answer, the person resigns", async () => {
  const page = await open();
  await setUp(page, "oanquan-3p", ["person", "easy", "random"]);
  assert.equal(await page.locator("#game-seats .score").count(), 3, "three seats with their captures");
  await page.locator("#board .square.mine").first().click();
  await page.click("#board .arrow[data-dir='P']");
  await settle(page, 3);
  assert.equal(await moveCount(page), 3, "the person's move and both agents' replies");
  await page.screenshot({ path: join(shots, "play-oanquan-3p.png") });
  await page.click("#resign");
  await page.waitForSelector("#result:not([hidden])");
  assert.match(await page.textContent("#result strong"), /resigned/);
  const record = readFileSync(join(results, "play/games.csv"), "utf8").trim().split("\n");
  const last = record[record.length - 1].split(",");
  assert.deepEqual([last[1], last[7], last[8]], ["oanquan-3p", "resign", "3"]);
  assert.equal(last[6].split("-")[0], "3", "the person who resigned takes the last place alone");
  // Every row the browser recorded replays under the rules.
  const verify = spawnSync(bin, ["verify", join(results, "play")], { encoding: "utf8" });
  assert.equal(verify.status, 0, verify.stderr);
  assert.match(verify.stdout, /games of the play record: every row replays/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a recorded game opens in Replay and steps to its end with the arrow key", async () => {
  const page = await open();
  await page.goto(`${url}#replay`);
  await page.waitForSelector("#rp-file option", { state: "attached" });
  await page.selectOption("#rp-file", "play/games.csv");
  await page.selectOption("#rp-result", "1-0");
  await page.fill("#rp-agent", "browser");
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("#rp-games tbody tr")];
    return rows.length > 0 && rows.every((row) => row.children[3].textContent === "1-0" && row.children[2].textContent.includes("browser"));
  });
  await page.click("#rp-games tbody tr");
  await page.waitForSelector("#rp-board svg");
  const total = await page.locator("#rp-moves li").count();
  assert.ok(total >= 5 && total <= 9, `a tic-tac-toe game: ${total} moves`);
  for (let ply = 1; ply <= total; ply++) {
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.querySelector("#rp-status").dataset.ply === String(n), ply);
    assert.equal(await page.locator("#rp-board [data-stone]").count(), ply, `${ply} stones after ${ply} moves`);
  }
  const status = await page.textContent("#rp-status");
  assert.match(status, new RegExp(`^move ${total} of ${total}: .* · end: 1-0 \\(win\\)$`));
  assert.equal(await page.locator("#rp-board line[stroke='#2e8b57']").count(), 1, "the winning line at the end");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.getAttribute("#rp-status", "data-ply"), String(total), "no step past the end");
  await page.screenshot({ path: join(shots, "replay.png") });
  // A game of the sample run, O An Quan, stepped with the sowing shown.
  await page.selectOption("#rp-file", "default/games.csv");
  await page.waitForFunction(() => document.querySelector("#rp-variant").options.length > 2);
  await page.selectOption("#rp-variant", "oanquan");
  await page.waitForFunction(() => document.querySelector("#rp-games tbody td:nth-child(2)").textContent === "oanquan");
  await page.click("#rp-games tbody tr");
  await page.waitForSelector("#rp-board svg");
  await page.keyboard.press("End");
  await page.waitForFunction(() => /end: /.test(document.querySelector("#rp-status").textContent));
  await page.screenshot({ path: join(shots, "replay-oanquan.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("every page renders: caro, Analyse, Report and Stats, on a laptop and a phone", async () => {
  const page = await open();
  await setUp(page, "caro", ["person", "hard"]);
  for (const [at, cell] of [[7, 7], [8, 8], [6, 8], [9, 6]].entries()) {
    await page.click(`#board .cell-hit[data-cell='${cell[0] * 15 + cell[1]}']`);
    await settle(page, 2 * (at + 1));
    if (!(await page.isHidden("#result"))) break;
  }
  await page.screenshot({ path: join(shots, "play-caro.png") });
  // A caro game the hard agent wins: its five, the last stone and the result.
  await setUp(page, "caro", ["person", "hard"]);
  const far = [0, 14, 210, 224, 2, 12, 212, 222, 4, 10, 214, 220, 30, 44];
  for (const [at, cell] of far.entries()) {
    if (!(await page.isHidden("#result"))) break;
    await page.click(`#board .cell-hit[data-cell='${cell}']`);
    await settle(page, 2 * (at + 1));
  }
  assert.match(await page.textContent("#result strong"), /^0-1 · O \(alphabeta:nodes=300000\) wins/);
  assert.equal(await page.locator("#board line[stroke='#2e8b57']").count(), 1, "O's winning line");
  await page.screenshot({ path: join(shots, "play-caro-won.png") });
  await page.goto(`${url}#analyse`);
  await page.fill("#an-variant", "mnk-5x5k4");
  await page.fill("#an-moves", "b3 c3 c2 d1 b2 a2");
  await page.click("#an-run");
  await page.waitForSelector("#an-results .answers li", { timeout: 120000 });
  assert.match(await page.textContent("#an-results"), /X wins with best play/);
  await page.screenshot({ path: join(shots, "analyse.png") });
  await page.goto(`${url}#report`);
  await page.waitForSelector("#rep-body table");
  await page.waitForFunction(() => [...document.querySelectorAll("#rep-body img")].every((img) => img.complete && img.naturalWidth > 0));
  await page.screenshot({ path: join(shots, "report.png") });
  await page.goto(`${url}#stats`);
  await page.waitForSelector("#st-body table");
  assert.match(await page.textContent("#st-body"), /person vs AI/);
  await page.screenshot({ path: join(shots, "stats.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const phone = await open(390, 844);
  await phone.screenshot({ path: join(shots, "phone-setup.png"), fullPage: true });
  await setUp(phone, "caro", ["person", "easy"]);
  await phone.click("#board .cell-hit[data-cell='112']");
  await settle(phone, 2);
  await phone.screenshot({ path: join(shots, "phone-caro.png"), fullPage: true });
  await setUp(phone, "oanquan", ["person", "easy"]);
  await phone.click("#board .square.mine[data-label='2']");
  assert.ok(await phone.isVisible("#sow-bar"), "big sowing buttons on a phone");
  await phone.screenshot({ path: join(shots, "phone-oanquan.png"), fullPage: true });
  await phone.click("#sow-right");
  await settle(phone, 2);
  await phone.goto(`${url}#replay`);
  await phone.waitForSelector("#rp-games tbody tr");
  await phone.screenshot({ path: join(shots, "phone-replay.png"), fullPage: true });
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});
