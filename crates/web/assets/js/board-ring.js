// The ring drawer: a function of (view, options) to SVG.
import { agentMark, agentMarks, movesByPlace, pieceWorth, seatName } from "./board-common.js";
import { s, SEAT_COLOURS } from "./dom.js";

// Where each pit of a ring is drawn, and which way on screen a sowing goes. Two seats: the
// classic board, seat 1's pits on top (right to left in ring order), seat 0's below (left to
// right), big cells at the ends; sowing towards increasing ring index runs anticlockwise.
// Three seats and more: a polygon, one side per seat, big cells at the corners.
export function ringLayout(view, compact, flip) {
  const layout = ringLayoutUpright(view, compact);
  return flip && layout.two ? turned(layout) : layout;
}

// A two-seat board turned half round, for the player of the second seat (their pits below).
export function turned(layout) {
  const { width, height } = layout;
  const cells = layout.cells.map((cell) => ({
    ...cell, x: width - cell.x - cell.w, y: height - cell.y - cell.h, cx: width - cell.cx, cy: height - cell.cy,
    tx: -cell.tx, ty: -cell.ty, row: cell.row === "top" ? "bottom" : cell.row === "bottom" ? "top" : cell.row,
  }));
  return { ...layout, cells, flipped: true };
}

export function ringLayoutUpright(view, compact) {
  const { per_side: per, big_last: big } = view.layout;
  const players = view.players;
  const small = per - (big ? 1 : 0);
  const cells = [];
  if (players === 2) {
    // Room above and below the pits for a picked pit's arrows (30 px) and, beyond them, the
    // seats' names, which the arrows must not cover.
    const W = 110, H = compact ? 104 : 96, B = big ? 90 : 0, X0 = (compact ? 8 : 40) + B, top = compact ? 30 : 56;
    for (let j = 0; j < small; j++) {
      cells[j] = { kind: "square", x: X0 + j * W, y: top + H, w: W, h: H, row: "bottom", tx: 1, ty: 0 };
      cells[per + j] = { kind: "square", x: X0 + (small - 1 - j) * W, y: top, w: W, h: H, row: "top", tx: -1, ty: 0 };
    }
    if (big) {
      cells[small] = { kind: "big", x: X0 + small * W, y: top, w: B, h: 2 * H, end: "right", tx: 0, ty: -1 };
      cells[per + small] = { kind: "big", x: X0 - B, y: top, w: B, h: 2 * H, end: "left", tx: 0, ty: 1 };
    }
    for (const cell of cells) {
      cell.cx = cell.x + cell.w / 2;
      cell.cy = cell.y + cell.h / 2;
    }
    if (big) {
      cells[small].cx = X0 + small * W + 38;
      cells[per + small].cx = X0 - 38;
    }
    const width = 2 * X0 + small * W;
    return { left: 0, top: 0, width, height: 2 * top + 2 * H, cells, two: true, X0, W, H, B, topY: top, small };
  }
  const R = (players === 3 ? 300 : 285) * Math.max(1, per / 6);
  const corner = (k) => {
    const angle = ((90 + 180 / players - (k * 360) / players) * Math.PI) / 180;
    return { x: R * Math.cos(angle), y: R * Math.sin(angle) };
  };
  for (let side = 0; side < players; side++) {
    const a = corner(side), b = corner(side + 1);
    const tx = b.x - a.x, ty = b.y - a.y, len = Math.hypot(tx, ty);
    for (let j = 0; j < small; j++) {
      const t = big ? 0.21 + (j * 0.58) / Math.max(1, small - 1) : (j + 0.5) / small;
      cells[per * side + j] = { kind: "round", cx: a.x + tx * t, cy: a.y + ty * t, r: Math.min(31, (len * 0.6) / small / 2.1), tx: tx / len, ty: ty / len, owner: side };
    }
    if (big) cells[per * side + small] = { kind: "big-round", cx: b.x, cy: b.y, r: 40, tx: tx / len, ty: ty / len, owner: side };
  }
  for (const cell of cells) {
    const d = Math.hypot(cell.cx, cell.cy) || 1;
    cell.ox = cell.cx / d;
    cell.oy = cell.cy / d;
  }
  const margin = 62;
  const xs = cells.map((c) => c.cx), ys = cells.map((c) => c.cy);
  const left = Math.min(...xs) - margin, top = Math.min(...ys) - margin;
  return { left, top, width: Math.max(...xs) + margin - left, height: Math.max(...ys) + margin - top, cells, two: false, R, corner };
}

// Even-looking spots for `n` seeds in a unit box (a sunflower pattern, so one seed sits in
// the middle and many fill the box).
export function seedSpots(n) {
  const spots = [];
  for (let k = 0; k < n; k++) {
    const ring = 0.46 * Math.sqrt((k + 0.5) / n), angle = k * 2.39996 + 0.7;
    spots.push({ x: 0.5 + ring * Math.cos(angle), y: 0.5 + ring * Math.sin(angle) });
  }
  return spots;
}
export const MAX_SEEDS_DRAWN = 24;

// The screen direction of a sowing from pit `place`: +1 along the pit's drawn tangent
// (towards increasing ring index), -1 against it.
export const onScreen = (forward) => (forward ? 1 : -1);

// A ring of pits. `opts.onMove(text)` plays a move; `opts.onPick(place)` picks a pit with
// several moves (its arrows shown when `opts.selected` is it); `opts.last` a move's place;
// `opts.active`, `opts.captured`, `opts.hand` mark a sowing as it plays; `opts.names` the
// seats' names; `opts.compact` a phone's drawing (bigger figures for a smaller screen).
export function drawRing(view, opts = {}) {
  const compact = !!opts.compact;
  const layout = ringLayout(view, compact, !!opts.flip);
  const { width, height, cells } = layout;
  const { per_side: per } = view.layout;
  const root = s("svg", { viewBox: `${layout.left} ${layout.top} ${width} ${height}`, role: "img", "aria-label": `board of ${view.places.length} pits`, class: compact ? "ring compact" : "ring" });
  root.append(s("rect", { x: layout.left, y: layout.top, width, height, fill: "var(--card)" }));
  const last = opts.last && opts.last.place !== undefined ? opts.last.place : null;
  if (layout.two) {
    const { X0, W, H, B, topY, small } = layout;
    const x1 = X0 + small * W;
    const d = B
      ? `M ${X0} ${topY} H ${x1} A ${B} ${H} 0 0 1 ${x1} ${topY + 2 * H} H ${X0} A ${B} ${H} 0 0 1 ${X0} ${topY} Z`
      : `M ${X0 - 6} ${topY - 6} H ${x1 + 6} V ${topY + 2 * H + 6} H ${X0 - 6} Z`;
    root.append(s("path", { d, fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3, "stroke-linejoin": "round" }));
  } else {
    const corners = [];
    for (let side = 0; side < view.players; side++) corners.push(layout.corner(side + 1));
    root.append(s("polygon", { points: corners.map((c) => `${c.x},${c.y}`).join(" "), fill: "var(--wood)", stroke: "var(--wood-edge)", "stroke-width": 3, "stroke-linejoin": "round" }));
    for (let side = 0; side < view.players; side++) {
      const a = layout.corner(side), b = layout.corner(side + 1);
      root.append(s("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: SEAT_COLOURS[side], "stroke-width": 7, opacity: 0.55, "stroke-linecap": "round" }));
    }
  }
  const moves = opts.onMove ? movesByPlace(view) : new Map();
  const pieceValue = pieceWorth(view);
  const countFont = compact ? 30 : 15;
  view.places.forEach((pit, i) => {
    const place = cells[i];
    const playable = moves.has(i);
    let cls = "square";
    if (playable) cls += " mine";
    if (opts.selected === i) cls += " selected";
    if (last === i) cls += " last";
    if (opts.active === i) cls += " active";
    if (opts.captured && opts.captured.has(i)) cls += " captured";
    const attrs = { class: cls, "data-cell": i };
    if (pit.label !== null) attrs["data-label"] = pit.label;
    let shape;
    if (place.kind === "square") shape = s("rect", { ...attrs, x: place.x + 3, y: place.y + 3, width: place.w - 6, height: place.h - 6, rx: 8 });
    else if (place.kind === "big") {
      const right = place.end === "right";
      const x0 = right ? place.x + 3 : place.x + place.w - 3;
      const y0 = place.y + 3, y1 = place.y + place.h - 3;
      shape = s("path", { ...attrs, d: `M ${x0} ${y0} A ${place.w - 10} ${(y1 - y0) / 2} 0 0 ${right ? 1 : 0} ${x0} ${y1} Z` });
    } else shape = s("circle", { ...attrs, cx: place.cx, cy: place.cy, r: place.r, style: `stroke:${SEAT_COLOURS[place.owner]}` });
    if (playable) {
      const here = moves.get(i);
      shape.addEventListener("click", () => (here.length === 1 ? opts.onMove(here[0].move) : opts.onPick && opts.onPick(i)));
      if (here.length === 1) shape.setAttribute("data-move", here[0].move);
      shape.append(s("title", {}, here.map((m) => m.move).join(" or ")));
    }
    root.append(shape);
    // Seeds, a piece, the count.
    const group = s("g", { "pointer-events": "none" });
    let box, piece = null, countAt;
    if (place.kind === "square") {
      box = compact ? { x: place.x + 14, y: place.y + 40, w: place.w - 28, h: place.h - 50 } : { x: place.x + 14, y: place.y + 16, w: place.w - 28, h: place.h - 26 };
      countAt = compact ? { x: place.cx, y: place.y + 34 } : { x: place.x + 18, y: place.y + 22 };
    } else if (place.kind === "big") {
      box = { x: place.cx - 26, y: place.cy + 12, w: 52, h: 52 };
      piece = { x: place.cx, y: place.cy - 34, r: 17 };
      countAt = { x: place.cx, y: place.cy + (compact ? 8 : 2) };
    } else if (place.kind === "round") {
      box = { x: place.cx - place.r * 0.6, y: place.cy + 1, w: place.r * 1.2, h: place.r * 0.65 };
      countAt = { x: place.cx, y: place.cy - 6 };
    } else {
      box = { x: place.cx - 24, y: place.cy + 6, w: 48, h: 26 };
      piece = { x: place.cx - 12, y: place.cy - 13, r: 12 };
      countAt = { x: place.cx + 13, y: place.cy - 8 };
    }
    if (pit.piece && piece) group.append(s("circle", { class: "piece", cx: piece.x, cy: piece.y, r: piece.r }));
    const spots = seedSpots(Math.min(pit.seeds, MAX_SEEDS_DRAWN));
    const dot = place.kind === "square" || place.kind === "big" ? (compact ? 5.5 : 4.2) : 2.7;
    for (const spot of spots) {
      group.append(s("circle", { class: "seed-dot", cx: box.x + spot.x * box.w, cy: box.y + spot.y * box.h, r: dot }));
    }
    const value = pit.piece ? pit.seeds + pieceValue : pit.seeds;
    group.append(s("text", { class: "count", x: countAt.x, y: countAt.y, "data-count": i, style: `font-size:${countFont}px` }, value));
    root.append(group);
    // The label players type, outside the ring.
    const labelFont = compact ? 22 : 12;
    if (pit.label !== null && opts.selected !== i) {
      let lx, ly;
      if (layout.two) {
        lx = place.cx;
        ly = place.row === "top" ? place.y - (compact ? 6 : 10) : place.y + place.h + (compact ? 22 : 20);
      } else {
        lx = place.cx + place.ox * 46;
        ly = place.cy + place.oy * 46 + 4;
      }
      root.append(s("text", { class: "label", x: lx, y: ly, style: `font-size:${labelFont}px` }, pit.label));
    }
    // The arrows of a picked pit: one per move from it, pointing the way it sows.
    if (opts.selected === i && playable) {
      for (const entry of moves.get(i)) {
        const dir = onScreen(entry.forward);
        const g = s("g", { class: "arrow", "data-move": entry.move, onclick: (e) => { e.stopPropagation(); opts.onMove(entry.move); } });
        let x, y;
        if (layout.two) {
          x = place.cx + dir * place.tx * 26;
          y = place.row === "top" ? place.y - 14 : place.y + place.h + 16;
        } else {
          x = place.cx + place.ox * 50 + dir * place.tx * 22;
          y = place.cy + place.oy * 50 + dir * place.ty * 22;
        }
        // Round the polygon, increasing ring index runs anticlockwise on screen.
        const glyph = layout.two ? (dir * place.tx > 0 ? "▶" : "◀") : entry.forward ? "↺" : "↻";
        const way = layout.two ? "" : entry.forward ? " (anticlockwise)" : " (clockwise)";
        g.append(s("circle", { cx: x, cy: y, r: 15 }), s("text", { x, y }, glyph), s("title", {}, `sow ${entry.move}${way}`));
        root.append(g);
      }
    }
  });
  if (opts.hand && opts.active !== undefined && opts.active !== null) {
    const place = cells[opts.active];
    const hx = layout.two ? place.cx + 34 : place.cx + place.ox * -40;
    const hy = layout.two ? place.y + 8 : place.cy + place.oy * -40;
    root.append(s("circle", { cx: hx, cy: hy, r: 13, fill: "var(--accent)" }), s("text", { class: "hand", x: hx, y: hy }, opts.hand));
  }
  if (opts.hint) {
    const place = cells[opts.hint.place];
    const r = place.kind === "square" ? 52 : place.r + 6;
    root.append(s("circle", { class: "hint-ring", cx: place.cx, cy: place.cy, r }));
  }
  for (const [at, labels] of agentMarks(opts.marks)) {
    const place = cells[at];
    if (place) root.append(agentMark(place.cx, place.cy, place.kind === "square" ? 50 : place.r + 4, labels, at));
  }
  // Who sits where, and their points (two seats: above and below; more: inside the ring).
  const names = opts.names || [];
  const points = (seat) => (view.points ? ` · ${view.points[seat]}` : "");
  const mover = view.to_move;
  if (layout.two) {
    if (!compact) {
      const tag = (seat, y) => s("text", { class: "seat-tag", x: layout.X0, y, "font-size": 13, fill: SEAT_COLOURS[seat], "font-weight": mover === seat ? 700 : 400, "data-seat": seat }, `${mover === seat ? "▸ " : ""}${names[seat] || seatName(view, seat)}${points(seat)}`);
      const [above, below] = layout.flipped ? [0, 1] : [1, 0];
      root.append(tag(above, 15), tag(below, height - 5));
    }
  } else {
    for (let seat = 0; seat < view.players; seat++) {
      const a = layout.corner(seat), b = layout.corner(seat + 1);
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, d = Math.hypot(mx, my) || 1;
      const label = s("text", { class: "seat-tag", x: (mx / d) * (d - 80), y: (my / d) * (d - 80) + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[seat], "font-weight": mover === seat ? 700 : 400, "data-seat": seat }, `${mover === seat ? "▸ " : ""}${seatName(view, seat)}${points(seat)}`);
      label.append(s("title", {}, names[seat] || seatName(view, seat)));
      root.append(label);
    }
  }
  return root;
}
