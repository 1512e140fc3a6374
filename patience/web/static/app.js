// patience in the browser. This page decides no rule: it draws the snapshot the server
// sends (built by the kernel's Session) and sends back what the player chose. Where a
// click goes, which piles a drag may drop on, why a move is refused, hints and the end of
// the game all come from the server. Cards are drawn here as SVG from rank and suit.
"use strict";

(() => {
  const RATIO = 1.4;          // card height / width
  const MAX_WIDTH = 112;      // px
  const UP_GAP = 0.26;        // of a card's height: the visible strip of a face-up card
  const DOWN_GAP = 0.11;      // ... of a face-down card
  const WASTE_SHIFT = 0.24;   // of a card's width: the waste's top cards fanned sideways
  const OVERLAP_STEP = 0.42;  // of a card's height: how far a row of an overlap layout lies below the one behind
  const MIN_WIDTH = 18;       // px: the smallest card
  const READABLE = 40;        // px: a line of piles narrower than this at one line wraps
  const COMFORTABLE = 72;     // px: ... and a line of short fans narrower than this
  const OVERLAP_GAP = 2;      // px between the piles of a row of an overlap layout
  const RANK_NAMES = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
    7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const RED_SUITS = "DH";

  const state = {
    variants: null,    // GET /api/variants
    snap: null,        // the game's snapshot
    hint: null,        // {source, count, target} to show on the table
    picked: null,      // {pile, depth}: a card picked up with the keyboard
    press: null,       // the pointer pressed on a card, and the drag it may become
    focusDepth: {},    // per pile, the depth the keyboard focus was last at
    pending: null,     // the timer of a new game still being looked for
    order: [],         // the piles in table order, for the arrow keys
    queue: Promise.resolve(),
    timings: [],       // [request ms, render ms] of each action, for tests
    firstDrawn: 0,     // when the first table was drawn (ms since the page started)
    auto: true,        // the safe moves home follow each move (kept in local storage)
    clock: null,       // {seconds, at, running}: the time played, from the snapshot
  };
  window.patience = state;

  const $ = (id) => document.getElementById(id);

  // -- talking to the server --

  async function request(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      return { status: 0, data: { error: "The server cannot be reached: is 'patience serve' still running?" } };
    }
    let data;
    try {
      data = await response.json();
    } catch (error) {
      data = { error: `The server answered ${response.status} without JSON.` };
    }
    return { status: response.status, data };
  }

  function enqueue(task) {
    state.queue = state.queue.then(task).catch((error) => say(String(error), true));
    return state.queue;
  }

  function gamePath(what) {
    return `/api/games/${encodeURIComponent(state.snap.game)}/${what}`;
  }

  function act(body) {
    return enqueue(async () => {
      if (!state.snap) return;
      const started = performance.now();
      const { status, data } = await request("POST", gamePath("actions"),
        { ...body, version: state.snap.version, auto: state.auto });
      const received = performance.now();
      answer(status, data);
      state.timings.push([received - started, performance.now() - received]);
    });
  }

  function answer(status, data) {
    if (data.snapshot) setSnapshot(data.snapshot);
    if (data.error) say(data.error, true);
    else if (data.announce || data.message) say(data.announce || data.message);
  }

  function setSnapshot(snap) {
    const old = state.snap;
    if (!old || old.game !== snap.game || old.version !== snap.version) {
      state.hint = null;
      state.picked = null;
    }
    if (!old || old.game !== snap.game) state.focusDepth = {};
    state.snap = snap;
    state.clock = { seconds: snap.seconds, at: performance.now(), running: !snap.won && !snap.lost };
    remember(snap);
    render();
  }

  function remember(snap) {
    try {
      localStorage.setItem("patience.current", snap.variant.key);
      localStorage.setItem(`patience.game.${snap.variant.key}`, snap.game);
    } catch (error) { /* private mode: the game lives as long as the tab */ }
  }

  function setAuto(on, announce = true) {
    state.auto = on;
    try { localStorage.setItem("patience.auto", on ? "on" : "off"); } catch (error) { /* private mode */ }
    const button = $("auto");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "Auto home: on" : "Auto home: off";
    if (announce) {
      say(on ? "Automatic moves home on: after each move, the cards proven safe to send home go there by themselves."
        : "Automatic moves home off.");
      if (on) act({ action: "safe" });  // what is safe now goes at once
    }
  }

  function clockText(seconds) {
    const s = Math.floor(seconds);
    const two = (n) => String(n).padStart(2, "0");
    return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`
      : `${Math.floor(s / 60)}:${two(s % 60)}`;
  }

  function tick() {
    const clock = state.clock;
    if (!clock) return;
    const seconds = clock.seconds + (clock.running ? (performance.now() - clock.at) / 1000 : 0);
    $("clock").textContent = clockText(seconds);
  }

  // the theme: the system's (prefers-color-scheme) until the player picks one
  const THEMES = ["auto", "dark", "light"];
  function setTheme(theme, announce = true) {
    if (!THEMES.includes(theme)) theme = "auto";
    if (theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.dataset.theme = theme;
    try { localStorage.setItem("patience.theme", theme); } catch (error) { /* private mode */ }
    const button = $("theme");
    button.dataset.theme = theme;
    button.textContent = `Theme: ${theme === "auto" ? "system" : theme}`;
    if (announce) say(`Theme: ${theme === "auto" ? "as the system" : theme}.`);
  }

  function recall(key) {
    try { return localStorage.getItem(key); } catch (error) { return null; }
  }

  function say(text, error = false) {
    const message = $("message");
    message.classList.toggle("error", !!error);
    message.textContent = "";
    // a new text node a frame later, so that the same words are announced again
    requestAnimationFrame(() => { message.textContent = text; });
  }

  // -- cards --

  function cardName(code) {
    return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
  }

  // ``index``: the height (in the card's 140 units) its rank and suit may take at the top;
  // a card half hidden in a long column gets a smaller index that fits what shows of it.
  // ``width``: the card's width in pixels; a small card gets a larger index (up to half its
  // width), so that its rank and suit read at every size.
  function faceSvg(code, index = 140, width = 100) {
    const rank = code[0] === "T" ? "10" : code[0];
    const suit = code[1];
    const colour = RED_SUITS.includes(suit) ? "red" : "black";
    // the whole em box of the rank (a J's or Q's tail below the baseline too) within the
    // part that shows: baseline at 3/4 of the font, descent up to 0.3 of it
    const largest = Math.max(36, Math.min(rank.length > 1 ? 40 : 54, 1300 / width));
    const font = Math.max(8, Math.min(largest, (index - 2.5) / 1.05));
    const x = 7 + font * 0.72 * rank.length;
    const size = Math.max(6, Math.min(font * 0.85, index - 4, 97 - x));
    const middle = Math.max(52, 4 + font * 1.1);  // the large suit, below the index
    const big = Math.min(60, 136 - middle);
    return `<svg viewBox="0 0 100 140" class="${colour}" aria-hidden="true" focusable="false">`
      + '<rect class="face" x="1" y="1" width="98" height="138" rx="9"/>'
      + `<text class="rank" x="5" y="${(2 + font * 0.75).toFixed(1)}" font-size="${font.toFixed(1)}">${rank}</text>`
      + `<use href="#suit-${suit}" x="${x.toFixed(1)}" y="3" width="${size.toFixed(1)}" height="${size.toFixed(1)}"/>`
      + `<use href="#suit-${suit}" x="${(50 - big / 2).toFixed(1)}" y="${middle.toFixed(1)}" width="${big.toFixed(1)}" height="${big.toFixed(1)}"/></svg>`;
  }

  const BACK_SVG = '<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">'
    + '<rect class="back" x="1" y="1" width="98" height="138" rx="9"/>'
    + '<rect class="lattice" x="8" y="8" width="84" height="124" rx="5"/></svg>';

  function cardButton(code, pile, depth, label, width, index = 140) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = code ? "card" : "card down";
    button.dataset.pile = pile;
    button.dataset.depth = depth;
    button.tabIndex = -1;
    if (code) button.dataset.code = code;
    button.setAttribute("aria-label", `${code ? cardName(code) : "face-down card"}, ${label}`);
    button.innerHTML = code ? faceSvg(code, index, width) : BACK_SVG;
    return button;
  }

  function place(element, left, top, width) {
    element.style.left = `${left}px`;
    element.style.top = `${top}px`;
    element.style.width = `${width}px`;
    element.style.height = `${width * RATIO}px`;
  }

  // -- the table --

  // The table is laid out from the snapshot's groups alone (patience/play/table.py), never
  // from the game's name: the top row (stock, waste, foundations, one-card cells) wraps onto
  // more lines at group boundaries when it does not fit across; below it each other group
  // is a block drawn as its layout says: a row of fans (wrapped onto as many balanced lines
  // as the width needs), a grid (one line per row), an overlap layout (each row of piles
  // at its x positions in half-card units, each row lying OVERLAP_STEP of a card lower
  // than the one behind it), or a ring with its centre (ringBlock: a clock face). One card
  // size for the whole table: the largest that fits.

  // a fan's height in card heights: the strips of the cards under the top one, and one card
  function fanNeed(cards) {
    let need = 1;
    for (let i = 0; i + 1 < cards.length; i++) need += cards[i] ? UP_GAP : DOWN_GAP;
    return need;
  }

  // ``count`` items in lines of at most ``capacity``, as even as can be: [3, 3, 2]
  function balanced(count, capacity) {
    const lines = Math.max(1, Math.ceil(count / Math.max(1, capacity)));
    const sizes = [];
    for (let i = 0; i < lines; i++) sizes.push(Math.ceil((count - sizes.reduce((a, b) => a + b, 0)) / (lines - i)));
    return sizes;
  }

  function chunks(items, sizes) {
    const out = [];
    let at = 0;
    for (const size of sizes) { out.push(items.slice(at, at + size)); at += size; }
    return out;
  }

  // lines for each part (its natural height; at least its least): what it needs when all
  // fits, else a fair share, parts needing less than the share giving the rest to the others
  function share(needs, least, available) {
    const total = needs.reduce((a, b) => a + b, 0);
    if (total <= available) return needs.slice();
    const given = least.slice();
    let left = available - least.reduce((a, b) => a + b, 0);
    let open = needs.map((_, i) => i).filter((i) => needs[i] > least[i]);
    while (open.length && left > 0.5) {
      const each = left / open.length;
      const done = open.filter((i) => needs[i] - given[i] <= each);
      if (!done.length) { for (const i of open) given[i] += each; break; }
      for (const i of done) { left -= needs[i] - given[i]; given[i] = needs[i]; }
      open = open.filter((i) => !done.includes(i));
    }
    return given;
  }

  // A ring (layout: {ring: N}): each pile at its place round an ellipse (place N at the
  // top, the others clockwise, as the hours of a clock), the piles of the groups at its
  // centre in a row in the middle; every box as tall as the tallest fan among them. A
  // circle when one fits across ``width``, else as wide as ``width`` and as tall as no two
  // boxes touching asks: two boxes are apart when they are far enough apart across or
  // down, so each pair of places (and each place with the centre) asks a least radius.
  function ringBlock(snap, group, w, h, gap, width) {
    const centre = snap.groups.filter((g) => g.layout.kind === "centre" && g.layout.ring === group.name)
      .flatMap((g) => g.piles);
    const stacked = new Set(snap.groups.filter((g) => g.show === "stack").flatMap((g) => g.piles));
    const room = h * Math.max(...group.piles.concat(centre).map((i) => (stacked.has(i) ? 1 : fanNeed(snap.piles[i].cards))));
    const across = centre.length ? centre.length * w + (centre.length - 1) * gap : 0;
    const places = group.layout.places;
    const points = group.layout.hours.map((hour) => {
      const angle = (2 * Math.PI * (hour % places)) / places;
      return [Math.sin(angle), -Math.cos(angle)];
    });
    const pairs = [];  // [dx, dy, the room across, the room down] per unit of radius
    points.forEach((p, i) => {
      for (const q of points.slice(i + 1)) pairs.push([p[0] - q[0], p[1] - q[1], w + gap, room + gap]);
      if (across) pairs.push([p[0], p[1], (w + across) / 2 + gap, room + gap]);
    });
    const per = (d, apart) => (Math.abs(d) > 1e-9 ? apart / Math.abs(d) : Infinity);
    let rx = Math.max(0, ...pairs.map(([dx, dy, a, d]) => Math.min(per(dx, a), per(dy, d))));
    let ry = rx;
    if (2 * rx + w > width) {
      rx = Math.max(0, (width - w) / 2);
      ry = Math.min(1e5, Math.max(0, ...pairs.map(([dx, dy, a, d]) => (rx * Math.abs(dx) >= a - 1e-6 ? 0 : per(dy, d)))));
    }
    const boxes = group.piles.map((pile, k) => ({ pile, stack: stacked.has(pile),
      left: rx * points[k][0] - w / 2, top: ry * points[k][1] - room / 2 }));
    centre.forEach((pile, k) => boxes.push({ pile, stack: stacked.has(pile),
      left: -across / 2 + k * (w + gap), top: -room / 2 }));
    const left = Math.min(...boxes.map((b) => b.left));
    const top = Math.min(...boxes.map((b) => b.top));
    for (const box of boxes) { box.left -= left; box.top -= top; }
    const blockWidth = Math.max(...boxes.map((b) => b.left)) + w;
    const height = Math.max(...boxes.map((b) => b.top)) + room;
    return { kind: "ring", boxes, boxHeight: room, width: blockWidth, height, leastHeight: height,
      readable: (blockWidth * READABLE) / w };
  }

  // the table's plan for cards ``w`` pixels wide in ``width`` pixels: lines of piles
  function plan(snap, w, width, gap) {
    const h = w * RATIO;
    const fits = (count, slots) => slots * w + (count - 1) * gap;
    // the top row: stock and waste first, then the other groups, each whole when it fits
    const lead = [];
    if (snap.stock.exists) lead.push({ pile: "stock", slots: 1, lead: true });
    const topGroups = [];
    for (const group of snap.groups) {
      if (group.row !== "top") continue;
      if (group.waste) for (const i of group.piles) lead.push({ pile: i, slots: 1 + 2 * WASTE_SHIFT, waste: true, lead: true });
      else topGroups.push(group.piles.map((i, k) => ({ pile: i, slots: 1, first: k === 0 })));
    }
    const top = [];
    let line = lead.slice();
    // a group after another on a line stands one gap further off (cells, then foundations;
    // after the stock and waste, the spacer parts them)
    const apart = (items) => items.filter((item, k) => item.first && k && !items[k - 1].lead).length;
    const lineWidth = (items) => (items.length
      ? fits(items.length, items.reduce((a, b) => a + b.slots, 0)) + gap * apart(items) : 0);
    // one line when it fits with readable cards; else wrapped where it overflows
    const all = lead.concat(...topGroups);
    const oneLine = all.length * (READABLE + gap) + gap <= width;
    for (const items of topGroups) {
      if (oneLine || lineWidth(line.concat(items)) + gap <= width) { line = line.concat(items); continue; }
      if (lineWidth(items) <= width) { if (line.length) top.push(line); line = items.slice(); continue; }
      for (const item of items) {  // too long for a line of its own: as many as fit on each
        if (line.length && lineWidth(line.concat([item])) > width) { top.push(line); line = []; }
        line.push(item);
      }
    }
    if (line.length) top.push(line);
    // the blocks below, side by side while they fit across
    const blocks = [];
    for (const group of snap.groups) {
      if (group.row === "top") continue;
      const layout = group.layout || { kind: "row", rows: [group.piles.map((_, i) => 2 * i)] };
      if (layout.kind === "centre") continue;  // drawn with its ring
      let block;
      if (layout.kind === "ring") {
        block = ringBlock(snap, group, w, h, gap, width);
      } else if (layout.kind === "overlap") {
        const rows = chunks(group.piles, layout.rows.map((r) => r.length));
        const most = Math.max(...layout.rows.flat());
        const left = Math.min(...layout.rows.flat());
        const height = (layout.rows.length - 1) * OVERLAP_STEP * h + h;
        const across = (size) => ((most - left) / 2) * (size + OVERLAP_GAP) + size;
        block = { kind: "overlap", rows, xs: layout.rows, left, height, leastHeight: height,
          width: across(w), readable: across(READABLE) };
      } else {
        let rows = chunks(group.piles, layout.rows.map((r) => r.length));
        // a row of short fans (dealt few cards: La Belle Lucie, Accordion) wraps when one
        // line would make its cards smaller than comfortable; columns that grow long
        // (Spider's, FreeCell's) never wrap: a line below them would be pushed off the
        // screen as they grow, so they stay side by side with narrower cards
        const count = group.piles.length;
        if (layout.kind === "row" && layout.short && count * (COMFORTABLE + gap) - gap > width) {
          rows = chunks(group.piles, balanced(count, Math.floor((width + gap) / (w + gap))));
        }
        const needs = rows.map((r) => Math.max(...r.map((i) => fanNeed(snap.piles[i].cards))));
        const most = Math.max(...rows.map((r) => r.length));
        block = { kind: "fans", rows, needs, width: fits(most, most),
          readable: most * (READABLE + gap) - gap,
          height: needs.reduce((a, b) => a + b * h, 0) + (rows.length - 1) * gap,
          leastHeight: needs.reduce((a, b) => a + Math.min(b, 2) * h, 0) + (rows.length - 1) * gap };
      }
      blocks.push(block);
    }
    // one line of blocks when they fit side by side with readable cards
    const readable = blocks.reduce((a, b) => a + b.readable, 0) + 2 * gap * (blocks.length - 1);
    const main = [];
    let row = [];
    let rowWidth = 0;
    for (const block of blocks) {
      if (row.length && readable > width && rowWidth + 2 * gap + block.width > width) {
        main.push(row); row = []; rowWidth = 0;
      }
      rowWidth += (row.length ? 2 * gap : 0) + block.width;
      row.push(block);
    }
    if (row.length) main.push(row);
    const tableWidth = Math.max(...top.map(lineWidth), ...main.map((r) => r.reduce((a, b) => a + b.width, 0) + (r.length - 1) * 2 * gap), 0);
    const fixed = top.length * (h + gap);
    const natural = fixed + main.reduce((a, r) => a + Math.max(...r.map((b) => b.height)), 0) + Math.max(0, main.length - 1) * gap;
    const least = fixed + main.reduce((a, r) => a + Math.max(...r.map((b) => b.leastHeight)), 0) + Math.max(0, main.length - 1) * gap;
    return { w, h, gap, top, main, width: tableWidth, natural, least };
  }

  function measure(snap) {
    const board = $("board");
    const gap = parseFloat(getComputedStyle(board).paddingLeft) || 8;
    const width = board.clientWidth - 2 * gap;
    const height = board.clientHeight - 2 * gap;
    // the largest card with every fan at its full length (wB), and with fans pressed (wA);
    // cards shrink to 70% of wA before a fan's cards overlap more
    let wA = 0;
    let wB = 0;
    for (let w = MAX_WIDTH; w >= MIN_WIDTH && !wB; w--) {
      const p = plan(snap, w, width, gap);
      if (p.width > width + 0.5) continue;
      if (!wA && p.least <= height && w * RATIO <= height * 0.45) wA = w;
      if (wA && p.natural <= height) wB = w;
    }
    wA = wA || MIN_WIDTH;
    const w = Math.floor(Math.min(wA, Math.max(wB, wA * 0.7)));
    const p = plan(snap, w, width, gap);
    // the height each line of blocks gets, and within a block each line of fans
    const available = height - p.top.length * (p.h + gap) - Math.max(0, p.main.length - 1) * gap;
    const lineNeeds = p.main.map((r) => Math.max(...r.map((b) => b.height)));
    const lineLeast = p.main.map((r) => Math.max(...r.map((b) => b.leastHeight)));
    const rooms = p.main.length === 1 ? [Math.max(available, lineLeast[0])] : share(lineNeeds, lineLeast, available);
    p.main.forEach((r, k) => {
      for (const block of r) {
        block.room = rooms[k];
        if (block.kind !== "fans") continue;
        const inner = rooms[k] - (block.rows.length - 1) * gap;
        const needs = block.needs.map((n) => n * p.h);
        const least = block.needs.map((n) => Math.min(n, 2) * p.h);
        block.rooms = block.rows.length === 1 ? [Math.max(inner, least[0])] : share(needs, least, inner);
      }
    });
    p.width = Math.ceil(p.width);
    return p;
  }

  function fanTops(cards, height, room) {
    const gaps = [];
    for (let i = 0; i + 1 < cards.length; i++) gaps.push((cards[i] ? UP_GAP : DOWN_GAP) * height);
    const total = gaps.reduce((a, b) => a + b, 0);
    const scale = total && height + total > room ? Math.max(0, room - height) / total : 1;
    const tops = [0];
    for (const g of gaps) tops.push(tops[tops.length - 1] + g * scale);
    return tops;
  }

  function pileBox(index, width, height) {
    const box = document.createElement("div");
    box.className = "pile";
    box.dataset.pile = index;
    box.style.width = `${width}px`;
    box.style.height = `${height}px`;
    return box;
  }

  function emptySlot(pile, index, width) {
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "slot";
    slot.dataset.pile = index;
    slot.dataset.depth = 0;
    slot.tabIndex = -1;
    slot.setAttribute("aria-label", `${pile.label}, empty`);
    slot.textContent = pile.name;
    place(slot, 0, 0, width);
    return slot;
  }

  function drawFan(pile, index, width, room) {
    const box = pileBox(index, width, Math.max(room, width * RATIO));
    // a pile of an overlap layout with a card lying on it gives no card: heard so
    const label = pile.covered ? `${pile.label}, covered` : pile.label;
    if (!pile.cards.length) box.append(emptySlot(pile, index, width));
    const tops = fanTops(pile.cards, width * RATIO, room);
    const height = width * RATIO;
    let run = 0;  // face-down cards so far in a row: heard as one item, on the topmost
    pile.cards.forEach((code, i) => {
      const shown = i + 1 < tops.length ? ((tops[i + 1] - tops[i]) / height) * 140 : 140;
      const button = cardButton(code, index, pile.cards.length - 1 - i, label, width, shown);
      run = code ? 0 : run + 1;
      if (!code && i + 1 < pile.cards.length && !pile.cards[i + 1]) {
        button.setAttribute("aria-hidden", "true");  // the topmost of the run speaks for it
      } else if (!code && run > 1) {
        button.setAttribute("aria-label", `${run} face-down cards, ${label}`);
      }
      place(button, 0, tops[i], width);
      box.append(button);
    });
    return box;
  }

  function drawWaste(pile, index, width) {
    const box = pileBox(index, width * (1 + 2 * WASTE_SHIFT), width * RATIO);
    if (!pile.cards.length) box.append(emptySlot(pile, index, width));
    const n = pile.cards.length;
    pile.cards.forEach((code, i) => {
      const button = cardButton(code, index, n - 1 - i, pile.label, width);
      place(button, Math.max(0, i - (n - 3)) * WASTE_SHIFT * width, 0, width);
      box.append(button);
    });
    return box;
  }

  function drawStack(pile, index, width) {
    const box = pileBox(index, width, width * RATIO);
    if (!pile.cards.length) {
      box.append(emptySlot(pile, index, width));
      return box;
    }
    const code = pile.cards[pile.cards.length - 1];
    const button = cardButton(code, index, 0, pile.label, width);
    if (pile.count > 1) {
      button.setAttribute("aria-label", `${code ? cardName(code) : "face-down card"}, ${pile.label}, ${pile.count} cards`);
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = pile.count;
      badge.setAttribute("aria-hidden", "true");
      box.append(badge);
    }
    place(button, 0, 0, width);
    box.append(button);
    return box;
  }

  function drawStock(stock, width) {
    const box = pileBox("stock", width, width * RATIO);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "stock";
    button.dataset.pile = "stock";
    button.dataset.depth = 0;
    button.tabIndex = -1;
    button.setAttribute("aria-label", `${stock.label}${stock.can_deal ? "; press to deal" : ""}`);
    if (stock.count) {
      button.innerHTML = BACK_SVG + `<span class="count" aria-hidden="true">${stock.count}</span>`;
    } else {
      button.classList.add("empty");
      button.innerHTML = `<span class="again" aria-hidden="true">${stock.can_deal ? "↻" : ""}</span>`;
    }
    place(button, 0, 0, width);
    box.append(button);
    return box;
  }

  function render() {
    const snap = state.snap;
    if (!snap) return;
    const board = $("board");
    const focused = document.activeElement && board.contains(document.activeElement)
      ? document.activeElement.dataset.pile : null;
    $("title").textContent = snap.title;
    document.title = `${snap.title} · patience`;
    $("status").textContent = snap.status;
    tick();
    $("undo").disabled = !snap.can_undo;
    $("redo").disabled = !snap.can_redo;
    $("restart").disabled = !snap.can_undo;
    $("view-hint").hidden = !snap.hidden;  // every card in view: one reading only
    board.dataset.version = snap.version;
    board.dataset.game = snap.game;

    const size = measure(snap);
    const table = document.createElement("div");
    table.className = "table";
    table.style.width = `${size.width}px`;
    const order = [];  // as the piles are drawn (and as Tab goes)
    size.top.forEach((items, k) => {
      const line = document.createElement("div");
      line.className = "row top";
      let spaced = false;
      for (const item of items) {
        if (!spaced && item.pile !== "stock" && !item.waste) {
          const spacer = document.createElement("div");
          spacer.className = "spacer";
          line.append(spacer);
          spaced = true;
        }
        if (item.pile === "stock") line.append(drawStock(snap.stock, size.w));
        else if (item.waste) line.append(drawWaste(snap.piles[item.pile], item.pile, size.w));
        else {
          const box = drawStack(snap.piles[item.pile], item.pile, size.w);
          const before = line.lastElementChild;
          if (item.first && before && !before.classList.contains("spacer")) box.style.marginLeft = `${size.gap}px`;
          line.append(box);
        }
        order.push(item.pile);
      }
      table.append(line);
    });
    for (const blocks of size.main) {
      const line = document.createElement("div");
      line.className = "blocks";
      for (const block of blocks) {
        const box = document.createElement("div");
        box.className = `block ${block.kind}`;
        if (block.kind === "ring") {
          const ring = document.createElement("div");
          ring.className = "row ring";
          ring.style.width = `${block.width}px`;
          ring.style.height = `${block.height}px`;
          for (const { pile: index, stack, left, top } of block.boxes) {
            const pile = stack ? drawStack(snap.piles[index], index, size.w)
              : drawFan(snap.piles[index], index, size.w, block.boxHeight);
            pile.style.left = `${left}px`;
            pile.style.top = `${top}px`;
            ring.append(pile);
            order.push(index);
          }
          box.append(ring);
        } else if (block.kind === "overlap") {
          const rows = document.createElement("div");
          rows.className = "row overlap";
          rows.style.width = `${block.width}px`;
          rows.style.height = `${block.height}px`;
          block.rows.forEach((piles, r) => piles.forEach((index, c) => {
            const pile = drawFan(snap.piles[index], index, size.w, size.h);
            pile.style.left = `${((block.xs[r][c] - block.left) / 2) * (size.w + OVERLAP_GAP)}px`;
            pile.style.top = `${r * OVERLAP_STEP * size.h}px`;
            rows.append(pile);
            order.push(index);
          }));
          box.append(rows);
        } else {
          block.rows.forEach((piles, r) => {
            const row = document.createElement("div");
            row.className = "row";
            for (const index of piles) {
              row.append(drawFan(snap.piles[index], index, size.w, block.rooms[r]));
              order.push(index);
            }
            box.append(row);
          });
        }
        line.append(box);
      }
      table.append(line);
    }
    state.order = order;
    const rows = [table];
    if (snap.end) rows.push(endBanner(snap));
    else if (snap.can_finish) rows.push(finishBanner());
    board.replaceChildren(...rows);
    rovingTabStops();
    decorate();
    if (!state.firstDrawn) state.firstDrawn = performance.now();
    if (focused !== null && focused !== undefined) focusPile(focused, state.focusDepth[focused] || 0);
  }

  function endBanner(snap) {
    const banner = document.createElement("div");
    banner.className = "end";
    banner.id = "end";
    const text = document.createElement("span");
    text.textContent = snap.won ? `You won! ${snap.summary}.${snap.record ? ` You have ${snap.record}.` : ""}`
      : "No move is left: the game is lost.";
    banner.append(text);
    const buttons = snap.won ? [["New game", openNewGame]]
      : [["Undo", () => act({ action: "undo" })], ["Where did I lose?", review]];
    for (const [label, handler] of buttons) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener("click", handler);
      banner.append(button);
    }
    return banner;
  }

  function finishBanner() {
    const banner = document.createElement("div");
    banner.className = "end";
    banner.id = "finish-offer";
    const text = document.createElement("span");
    text.textContent = "Only sending the cards home is left.";
    const button = document.createElement("button");
    button.type = "button";
    button.id = "finish";
    button.textContent = "Finish";
    button.setAttribute("aria-keyshortcuts", "a");
    button.addEventListener("click", () => act({ action: "finish" }));
    banner.append(text, button);
    return banner;
  }

  function focusables(pile) {
    return [...$("board").querySelectorAll(`[data-pile="${pile}"].card:not([aria-hidden]), [data-pile="${pile}"].slot, [data-pile="${pile}"].stock`)];
  }

  function elementAt(pile, depth) {
    const items = focusables(pile);
    if (!items.length) return null;
    let best = items[items.length - 1];
    for (const item of items) if (+item.dataset.depth === depth) best = item;
    return best;
  }

  function rovingTabStops() {
    for (const pile of state.order) {
      const depth = state.focusDepth[pile] || 0;
      const element = elementAt(pile, depth);
      if (element) element.tabIndex = 0;
    }
  }

  function focusPile(pile, depth) {
    const items = focusables(pile);
    if (!items.length) return;
    const deepest = Math.max(...items.map((item) => +item.dataset.depth));
    const element = elementAt(pile, Math.min(depth, deepest));
    for (const item of items) item.tabIndex = -1;
    element.tabIndex = 0;
    state.focusDepth[pile] = +element.dataset.depth;
    element.focus();
  }

  function pileElement(pile) {
    return $("board").querySelector(`.pile[data-pile="${pile}"]`);
  }

  function dropTargets(pile, depth) {
    const drops = state.snap.piles[pile].drops;
    return drops[String(depth)] || [];
  }

  function decorate() {
    const held = state.press && state.press.dragging ? state.press : state.picked;
    if (held) {
      for (const target of dropTargets(held.pile, held.depth)) {
        const box = pileElement(target);
        if (box) box.classList.add("legal");
      }
      if (state.picked) {
        for (const card of pileElement(held.pile).querySelectorAll(".card")) {
          if (+card.dataset.depth <= held.depth) card.classList.add("picked");
        }
      }
    }
    const hint = state.hint;
    if (hint) {
      if (hint.piles) {  // a discard: the top card of each of its piles
        for (const pile of hint.piles) {
          const top = pileElement(pile).querySelector('.card[data-depth="0"]');
          if (top) top.classList.add("hint-source");
        }
        pileElement(hint.target).classList.add("hint-target");
      } else if (hint.source < 0) {
        const stock = pileElement("stock");
        if (stock) stock.querySelector(".stock").classList.add("hint-target");
      } else {
        for (const card of pileElement(hint.source).querySelectorAll(".card")) {
          // a draw (merci) moves the card under the top card alone: hint.depth is 1
          const depth = +card.dataset.depth;
          if (hint.depth === undefined ? depth < hint.count : depth === hint.depth) {
            card.classList.add("hint-source");
          }
        }
        pileElement(hint.target).classList.add("hint-target");
      }
    }
  }

  // -- what the player does --

  function activate(element) {
    const pile = element.dataset.pile;
    if (pile === "stock") {
      if (state.picked) return cancelPick();
      return act({ action: "deal" });
    }
    const index = +pile;
    if (state.picked) return dropPicked(index);
    if (element.classList.contains("slot")) {
      return say(`${state.snap.piles[index].label} is empty`);
    }
    // a card that goes only in a pair is picked: the next click, on its partner, plays both
    if (state.snap.piles[index].pairs_only && +element.dataset.depth === 0) {
      return pick(element);
    }
    return act({ action: "click", pile: index, depth: +element.dataset.depth });
  }

  function pick(element) {
    if (state.picked) return activate(element);
    if (!element.classList.contains("card") || !element.dataset.code) {
      return activate(element);
    }
    state.picked = { pile: +element.dataset.pile, depth: +element.dataset.depth };
    const targets = dropTargets(state.picked.pile, state.picked.depth)
      .map((t) => state.snap.piles[t].label);
    render();
    say(`Picked up ${cardName(element.dataset.code)}. `
      + (targets.length ? `It can go to ${targets.join(", ")}. ` : "It cannot go anywhere now. ")
      + "Move to a pile and press Space or Enter to put it there; Escape puts it back.");
  }

  function dropPicked(target) {
    const picked = state.picked;
    state.picked = null;
    if (picked.pile === target) {
      render();
      return say("Put back.");
    }
    return act({ action: "drop", pile: picked.pile, depth: picked.depth, target });
  }

  function cancelPick() {
    state.picked = null;
    render();
    say("Put back.");
  }

  // -- pointer: mouse, touch and pen alike --

  function pileUnder(x, y) {
    const element = document.elementFromPoint(x, y);
    const found = element && element.closest("#board [data-pile]");
    return found ? found.dataset.pile : null;
  }

  function startDrag(press, event) {
    press.dragging = true;
    press.pile = +press.element.dataset.pile;
    press.depth = +press.element.dataset.depth;
    const origin = press.element.getBoundingClientRect();
    press.dx = press.x - origin.left;
    press.dy = press.y - origin.top;
    const layer = document.createElement("div");
    layer.className = "drag";
    layer.setAttribute("aria-hidden", "true");
    for (const card of pileElement(press.pile).querySelectorAll(".card")) {
      if (+card.dataset.depth > press.depth) continue;
      const box = card.getBoundingClientRect();
      const copy = card.cloneNode(true);
      copy.removeAttribute("data-pile");
      copy.tabIndex = -1;
      copy.style.left = `${box.left - origin.left}px`;
      copy.style.top = `${box.top - origin.top}px`;
      layer.append(copy);
      card.classList.add("lifted");
    }
    document.body.append(layer);
    press.layer = layer;
    decorate();
    moveDrag(press, event);
  }

  function moveDrag(press, event) {
    press.layer.style.transform = `translate(${event.clientX - press.dx}px, ${event.clientY - press.dy}px)`;
    const over = pileUnder(event.clientX, event.clientY);
    if (over === press.over) return;
    if (press.over !== null && press.over !== undefined) {
      const old = pileElement(press.over);
      if (old) old.classList.remove("over", "refusing");
    }
    press.over = over;
    if (over !== null && over !== "stock" && +over !== press.pile) {
      const box = pileElement(over);
      if (box) box.classList.add("over", box.classList.contains("legal") ? "over" : "refusing");
    }
  }

  function endDrag(press) {
    if (press.layer) press.layer.remove();
    for (const element of $("board").querySelectorAll(".lifted, .legal, .over, .refusing")) {
      element.classList.remove("lifted", "legal", "over", "refusing");
    }
  }

  function setUpPointer() {
    const board = $("board");
    board.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      const element = event.target.closest(".card, .slot, .stock");
      if (!element) return;
      state.press = { element, id: event.pointerId, x: event.clientX, y: event.clientY,
        dragging: false };
      if (element.dataset.code) {
        try { element.setPointerCapture(event.pointerId); } catch (error) { /* gone */ }
        event.preventDefault(); // no text selection, no native drag
        element.focus({ preventScroll: true });
      }
    });
    board.addEventListener("pointermove", (event) => {
      const press = state.press;
      if (!press || press.id !== event.pointerId) return;
      if (!press.dragging) {
        if (!press.element.dataset.code) return;
        if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < 6) return;
        startDrag(press, event);
        return;
      }
      moveDrag(press, event);
    });
    board.addEventListener("pointerup", (event) => {
      const press = state.press;
      if (!press || press.id !== event.pointerId) return;
      state.press = null;
      if (!press.dragging) {
        activate(press.element);
        return;
      }
      endDrag(press);
      const target = pileUnder(event.clientX, event.clientY);
      if (target === null || target === "stock" || +target === press.pile) {
        render();
        return;
      }
      act({ action: "drop", pile: press.pile, depth: press.depth, target: +target });
    });
    board.addEventListener("pointercancel", () => {
      if (state.press && state.press.dragging) endDrag(state.press);
      state.press = null;
      render();
    });
    // a click with no pointer before it: the keyboard (Enter) or a screen reader
    board.addEventListener("click", (event) => {
      if (event.detail !== 0) return;
      const element = event.target.closest(".card, .slot, .stock");
      if (!element) return;
      event.preventDefault();
      activate(element);
    });
    board.addEventListener("focusin", (event) => {
      const element = event.target.closest("[data-pile]");
      if (element && element.dataset.depth !== undefined) {
        state.focusDepth[element.dataset.pile] = +element.dataset.depth;
      }
    });
  }

  // -- keyboard --

  function setUpKeys() {
    document.addEventListener("keydown", (event) => {
      if (document.querySelector("dialog[open]")) return;
      const target = event.target;
      if (target.closest && target.closest("input, select, textarea")) return;
      const onTable = target.closest && target.closest("#board [data-pile]");
      const key = event.key;
      const control = event.ctrlKey || event.metaKey;
      if (onTable && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) {
        event.preventDefault();
        const pile = onTable.dataset.pile;
        const depth = +onTable.dataset.depth;
        if (key === "ArrowUp" || key === "ArrowDown") {
          return focusPile(pile, Math.max(0, depth + (key === "ArrowUp" ? 1 : -1)));
        }
        const at = state.order.findIndex((p) => String(p) === pile);
        const next = state.order[(at + (key === "ArrowRight" ? 1 : -1) + state.order.length) % state.order.length];
        return focusPile(next, 0);
      }
      if (onTable && key === " ") {
        event.preventDefault();
        return pick(onTable);
      }
      if (onTable && key === "Enter" && state.picked) {
        event.preventDefault();
        return activate(onTable);
      }
      if (key === "Escape") {
        if (state.picked) return cancelPick();
        if (state.hint) { state.hint = null; render(); return say("Hint cleared."); }
        return;
      }
      if (control && (key === "z" || key === "Z")) {
        event.preventDefault();
        return act({ action: event.shiftKey ? "redo" : "undo" });
      }
      if (control && key === "y") {
        event.preventDefault();
        return act({ action: "redo" });
      }
      if (control || event.altKey) return;
      const commands = {
        d: () => act({ action: "deal" }), u: () => act({ action: "undo" }),
        r: () => act({ action: "redo" }), h: () => hint("deal"), v: () => hint("view"), w: review,
        b: () => act({ action: "back" }), n: openNewGame, "?": () => openDialog("help-dialog"),
        a: () => act({ action: "finish" }), o: () => setAuto(!state.auto),
      };
      if (commands[key]) {
        event.preventDefault();
        commands[key]();
      }
    });
  }

  // -- hint, review, panels --

  function hint(from = "deal") {
    return enqueue(async () => {
      if (!state.snap) return;
      say(from === "view" ? "Guessing the hidden cards…" : "Looking for a winning line…");
      const { status, data } = await request("POST", gamePath("hint"), { version: state.snap.version, from });
      if (data.snapshot) setSnapshot(data.snapshot);
      if (data.error) return say(data.error, true);
      state.hint = data.hint || null;
      render();
      say(data.message || "");
    });
  }

  function review() {
    return enqueue(async () => {
      if (!state.snap) return;
      say("Replaying the game backwards with the solver…");
      const { data } = await request("POST", gamePath("review"), { version: state.snap.version });
      if (data.snapshot) setSnapshot(data.snapshot);
      if (data.error) return say(data.error, true);
      $("review-text").textContent = data.message;
      $("review-back").hidden = data.back_to === null || data.back_to === undefined;
      say(data.message.split("\n")[0]);
      openDialog("review-dialog");
    });
  }

  function openDialog(id) {
    const dialog = $(id);
    if (!dialog.open) dialog.showModal();
  }

  function setUpDialogs() {
    for (const button of document.querySelectorAll("dialog .close")) {
      button.addEventListener("click", () => {
        const dialog = button.closest("dialog");
        if (dialog.id === "new-dialog") stopLooking();
        dialog.close();
      });
    }
    $("new-dialog").addEventListener("close", stopLooking);
    $("review-back").addEventListener("click", () => {
      $("review-dialog").close();
      act({ action: "back" });
    });
    $("new").addEventListener("click", openNewGame);
    $("restart").addEventListener("click", () => act({ action: "restart" }));
    $("undo").addEventListener("click", () => act({ action: "undo" }));
    $("redo").addEventListener("click", () => act({ action: "redo" }));
    $("hint").addEventListener("click", () => hint("deal"));
    $("view-hint").addEventListener("click", () => hint("view"));
    $("review").addEventListener("click", review);
    $("help").addEventListener("click", () => openDialog("help-dialog"));
    $("auto").addEventListener("click", () => setAuto(!state.auto));
    $("theme").addEventListener("click", () => {
      const now = $("theme").dataset.theme || "auto";
      setTheme(THEMES[(THEMES.indexOf(now) + 1) % THEMES.length]);
    });
    $("rules").addEventListener("click", async () => {
      if (!state.snap) return;
      const { data } = await request("GET", `/api/variants/${encodeURIComponent(state.snap.variant.key)}/rules`);
      $("rules-title").textContent = data.name ? `Rules of ${data.name}` : "Rules";
      $("rules-text").textContent = data.rules
        ? (data.plain ? `${data.plain}\n\n— The rules exactly as written —\n\n` : "") + data.rules
        : data.error;
      openDialog("rules-dialog");
    });
    $("stats").addEventListener("click", async () => {
      const { data } = await request("GET", "/api/stats");
      const body = $("stats-table").querySelector("tbody");
      body.replaceChildren();
      const current = state.snap ? state.snap.variant.key : null;
      for (const row of data.variants || []) {
        if (!row.games && row.key !== current) continue;
        const line = document.createElement("tr");
        if (row.key === current) line.className = "current";
        const timed = row.timed_wins || 0;
        const values = [row.name, row.games, row.wins,
          row.games ? `${Math.floor((100 * row.wins) / row.games)}%` : "–", row.streak, row.best_streak,
          timed ? clockText(row.best_seconds) : "–", timed ? clockText(row.won_seconds / timed) : "–",
          row.fewest_moves || "–"];
        for (const value of values) {
          const cell = document.createElement("td");
          cell.textContent = value;
          line.append(cell);
        }
        body.append(line);
      }
      $("stats-note").textContent = data.error || "A game counts once, when it first ends (won, or no move left).";
      openDialog("stats-dialog");
    });
    $("variant").addEventListener("change", describeChoice);
    $("number").addEventListener("focus", () => {
      document.querySelector('input[name="deal"][value="number"]').checked = true;
    });
    $("new-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const deal = document.querySelector('input[name="deal"]:checked').value;
      const number = $("number").value.trim();
      if (deal === "number" && !/^((ms|pysolfc):)?[0-9]{1,20}$/i.test(number)) {
        $("new-status").textContent = "A deal number is a whole number from 0 up, or ms:N (Microsoft's game N), pysolfc:N (PySolFC's).";
        return;
      }
      stopLooking();
      if (deal === "number") {
        try { localStorage.setItem("patience.number", number); } catch (error) { /* private mode */ }
      }
      startGame({ variant: $("variant").value, deal, number, numbering: $("numbering").value });
    });
  }

  function fillVariants() {
    const select = $("variant");
    select.replaceChildren();
    for (const family of state.variants.families) {
      const group = document.createElement("optgroup");
      group.label = family.family;
      for (const variant of family.variants) {
        const option = document.createElement("option");
        option.value = variant.key;
        option.textContent = variant.name;
        option.dataset.description = variant.description;
        option.dataset.numberings = (variant.numberings || []).join(" ");
        group.append(option);
      }
      select.append(group);
    }
  }

  function describeChoice() {
    const option = $("variant").selectedOptions[0];
    $("variant-description").textContent = option ? option.dataset.description : "";
    const numbered = Boolean(option && option.dataset.numberings);  // ms: and pysolfc: deals
    $("numbering-choice").hidden = !numbered;
    if (!numbered) $("numbering").value = "patience";
  }

  function openNewGame() {
    if (state.snap) $("variant").value = state.snap.variant.key;
    const number = recall("patience.number");
    if (number) $("number").value = number;
    describeChoice();
    $("new-status").textContent = "";
    openDialog("new-dialog");
  }

  function stopLooking() {
    if (state.pending) clearTimeout(state.pending);
    state.pending = null;
  }

  async function startGame(choice) {
    const parts = [`"variant":${JSON.stringify(choice.variant)}`, `"deal":${JSON.stringify(choice.deal)}`];
    if (choice.deal === "number") {  // a bare number goes as a number, exact past 2**53
      parts.push(`"number":${/^[0-9]+$/.test(choice.number) ? choice.number : JSON.stringify(choice.number)}`);
    }
    if (choice.deal === "daily" && choice.numbering && choice.numbering !== "patience") {
      parts.push(`"numbering":${JSON.stringify(choice.numbering)}`);
    }
    const { status, data } = await request("POST", "/api/games", `{${parts.join(",")}}`);
    const dialog = $("new-dialog");
    if (status === 202) {
      $("new-status").textContent = `${data.message} (a two-deck game can take minutes the first time)`;
      say(data.message);
      state.pending = setTimeout(() => startGame(choice), 1000);
      return;
    }
    if (data.snapshot) {
      if (dialog.open) dialog.close();
      setSnapshot(data.snapshot);
      say(`New game: ${data.snapshot.title}.`);
      if (state.auto) act({ action: "safe" });  // an Ace dealt on top goes home at once
      const first = $("board").querySelector("[tabindex='0']");
      if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
      return;
    }
    $("new-status").textContent = data.error;
    say(data.error, true);
  }

  // -- start --

  async function boot() {
    setUpPointer();
    setUpKeys();
    setUpDialogs();
    setAuto(recall("patience.auto") !== "off", false);
    setTheme(recall("patience.theme") || "auto", false);
    window.addEventListener("resize", () => requestAnimationFrame(render));
    setInterval(tick, 1000);
    const { data } = await request("GET", "/api/variants");
    if (!data.families) return say(data.error || "The server sent no variants.", true);
    state.variants = data;
    fillVariants();
    const served = new Set(data.families.flatMap((f) => f.variants.map((v) => v.key)));
    const asked = new URLSearchParams(location.search).get("variant");
    let key = served.has(asked) ? asked : recall("patience.current");
    if (!served.has(key)) key = data.default;
    const id = recall(`patience.game.${key}`);
    if (id) {
      const found = await request("GET", `/api/games/${encodeURIComponent(id)}`);
      if (found.status === 200) {
        setSnapshot(found.data.snapshot);
        return say(`Welcome back: ${found.data.snapshot.title}.`);
      }
      if (found.data.error && found.status !== 404) say(found.data.error, true);
    }
    await startGame({ variant: key, deal: "random" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
