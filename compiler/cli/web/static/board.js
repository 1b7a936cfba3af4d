"use strict";
// The board, drawn from the engine's description and a seat's view: token
// kinds, markets and decks, tiles, each seat's tableau, the log. A seat moves
// by clicking: tokens of the supply, cells of a board (a line of them), a card
// (its moves: reserve, buy, each way to pay), decisions in the panel. Also the
// replay of a record, step by step.
// Nothing here knows an edition: every name comes from the description.
const $ = (id) => document.getElementById(id);
const PALETTE = ["#f1d23a", "#3a6fd8", "#8a3ab8", "#d83a3a", "#e58a1f", "#777", "#2aa86a", "#b0b0b0"];
let edition = null;      // {description, cards, tiles, columns}
let snapshot = null;     // the game as this seat sees it
let selection = null;    // {kind: "pick", key}, {kind: "tokens", tokens: [...]} or {kind: "cells", cells: [...]}
let mode = "game";
let frames = null, frameIndex = 0;
const here = new URL(document.URL);
const page = here.pathname.split("/");
const gameId = decodeURIComponent(page[2] || "");
const seatToken = here.searchParams.get("seat");

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// ----------------------------------------------------------- colours
function rgbOf(colour) {
  const probe = el("span"); probe.style.color = colour; document.body.appendChild(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+/g).map(Number); probe.remove();
  return rgb;
}
let paletteOf = null;  // per edition: a colour for each kind whose name is no CSS colour
function assignPalette() {
  // In token order, the palette's next colour that is not close to a colour
  // a kind's own name gives (a kind beside "green" is not painted green).
  const names = edition.description.tokens.map((t) => t.name);
  const used = names.filter((n) => CSS.supports("color", n)).map(rgbOf);
  const far = (c) => used.every((u) => Math.hypot(u[0] - c[0], u[1] - c[1], u[2] - c[2]) > 150);
  const free = PALETTE.filter((c) => far(rgbOf(c)));
  const order = free.length ? free : PALETTE;
  paletteOf = { edition: edition, colours: {} };
  names.filter((n) => !CSS.supports("color", n)).forEach((n, i) => { paletteOf.colours[n] = order[i % order.length]; });
}
function colourOf(name) {
  if (name && CSS.supports("color", name)) return name;
  if (!paletteOf || paletteOf.edition !== edition) assignPalette();
  return paletteOf.colours[name] || PALETTE[7];
}
function inkOn(colour) {
  const rgb = rgbOf(colour);
  return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150 ? "#222" : "#fff";
}
function paint(e, name) { const c = colourOf(name); e.style.background = c; e.style.color = inkOn(c); }

function pips(counts, cls = "pip") {
  const box = el("span", "pips");
  for (const [kind, n] of Object.entries(counts || {})) {
    if (!n) continue;
    const p = el("span", cls, String(n)); paint(p, kind); p.title = `${n} ${kind}`;
    box.appendChild(p);
  }
  return box;
}

// ----------------------------------------------------------- cards and tiles
function columnsOf(kind) { return edition.columns; }
const groupBy = () => edition.description.markets[0].group_by;
function cardKey(card) { return "card:" + JSON.stringify(card); }

function drawCard(card, small) {
  const box = el("div", "card" + (small ? " small" : ""));
  box.dataset.key = cardKey(card);
  if (card === null) { box.classList.add("empty"); return box; }
  if (typeof card === "object") {
    // another seat's card from a deck: only its deck is known (not a deck's top to take)
    box.classList.add("hidden-card"); box.dataset.deck = card.deck;
    box.dataset.key = "hidden:" + JSON.stringify(card);
    box.appendChild(el("div", "name", `hidden, deck ${card.deck}`));
    return box;
  }
  box.dataset.card = card;
  const row = edition.cards[card];
  const values = row.values;
  const types = edition.columns;
  const colour = Object.keys(types).find((c) => types[c] === "colour" && values[c]);
  const score = Object.keys(types).find((c) => types[c] === "int" && c !== groupBy());
  const band = el("div", "band");
  band.appendChild(el("span", "", colour ? values[colour] : ""));
  band.appendChild(el("span", "score", score && values[score] ? String(values[score]) : ""));
  if (colour) paint(band, values[colour]); else band.style.background = "#ddd";
  box.appendChild(band);
  if (row.name) box.appendChild(el("div", "name", row.name));
  const words = [`#${card}`];
  for (const [column, type] of Object.entries(types)) {
    const v = values[column];
    if (column === colour || column === score || type === "vector" || v === null || v === false || v === 0) continue;
    if (row.name && v === row.name) continue;
    words.push(type === "bool" ? column : `${column} ${v}`);
  }
  const taken = snapshotView() && snapshotView().card_values;
  if (taken) for (const [name, byCard] of Object.entries(taken)) {
    if (byCard[card] !== undefined && byCard[card] !== null) words.push(`${name} ${byCard[card]}`);
  }
  box.appendChild(el("div", "extra", words.join(" · ")));
  for (const [column, type] of Object.entries(types)) if (type === "vector") box.appendChild(pips(values[column]));
  box.title = row.label;
  return box;
}

function drawTile(tile, small) {
  const box = el("div", "tile" + (small ? " small" : ""));
  box.dataset.key = "tile:" + tile; box.dataset.tile = tile;
  const row = edition.tiles[tile];
  if (!row) { box.textContent = `tile ${tile}`; return box; }
  box.appendChild(el("div", "name", row.name));
  const words = [];
  for (const [column, v] of Object.entries(row.values)) {
    if (v && typeof v !== "object" && v !== row.name) words.push(`${column} ${v}`);
  }
  box.appendChild(el("div", "extra", words.join(" · ")));
  for (const v of Object.values(row.values)) if (v && typeof v === "object") box.appendChild(pips(v));
  box.title = row.label;
  return box;
}

// ----------------------------------------------------------- a board of cells
// An edition with a board (the description's "board") numbers its cells row by
// row; the view lists each cell's token kind (null: empty) and the bag's counts.
const boardOf = () => edition.description.board || null;
function cellWhere(n) { const b = boardOf(); return `(${Math.floor(n / b.columns)}, ${n % b.columns})`; }
function tokenTitle(kind) { const t = edition.description.tokens.find((x) => x.name === kind); return t ? t.title : kind; }

function drawCells(view) {
  const box = $("cells"); box.textContent = "";
  const board = boardOf();
  box.hidden = !board || !view.board;
  if (box.hidden) return;
  const grid = el("div", "grid");
  grid.style.gridTemplateColumns = `repeat(${board.columns}, auto)`;
  view.board.forEach((kind, n) => {
    const cell = el("div", "cell" + (kind ? "" : " empty"));
    cell.dataset.cell = n;
    cell.dataset.kind = kind || "";
    cell.title = `cell ${n} ${cellWhere(n)}: ${kind ? tokenTitle(kind) : "empty"}`;
    if (kind) { const chip = el("span", "chip", tokenTitle(kind)); paint(chip, kind); cell.appendChild(chip); }
    grid.appendChild(cell);
  });
  box.appendChild(grid);
  const counts = view.bag || {};
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const bag = el("div", "bag");
  bag.dataset.total = total;
  bag.appendChild(el("div", "bag-total", `bag: ${total} token${total === 1 ? "" : "s"}`));
  bag.appendChild(pips(counts));
  box.appendChild(bag);
}

function cellMoves() { return legal().map((i) => anchorOf(i.move)).filter((a) => a.kind === "cells"); }

function clickCell(n) {
  const chosen = selection && selection.kind === "cells" ? [...selection.cells] : [];
  const at = chosen.indexOf(n);
  if (at >= 0) chosen.splice(at, 1); else chosen.push(n);
  selection = chosen.length ? { kind: "cells", cells: chosen } : null;
  render();
}

function markCells() {
  // A cell is offered when some legal move takes it with the cells chosen so
  // far: only a set of cells that a legal move takes can be confirmed.
  const chosen = selection && selection.kind === "cells" ? selection.cells : [];
  const open = new Set(chosen);
  for (const a of cellMoves()) if (chosen.every((c) => a.cells.includes(c))) a.cells.forEach((c) => open.add(c));
  for (const e of document.querySelectorAll("#cells .cell")) {
    const n = Number(e.dataset.cell);
    if (chosen.includes(n)) e.classList.add("selected");
    if (!open.has(n)) continue;
    e.classList.add("clickable");
    e.addEventListener("click", () => clickCell(n));
  }
}

// ----------------------------------------------------------- moves
function shapeOf(name) { return edition.description.moves.find((m) => m.name === name); }
function anchorOf(move) {
  const shape = shapeOf(move.action);
  if (!shape) return { kind: "direct" };
  // cells, by clicks on the board: in an action, a follow-up or a decision
  // alike (a declined follow-up, null, is a button of the panel)
  const cells = [];
  for (const [name, kind] of shape.choices) {
    if (kind === "cell" && move[name] !== null) cells.push(move[name]);
    if (kind === "set:cell" && move[name] !== null) cells.push(...move[name]);
  }
  if (cells.length) return { kind: "cells", cells };
  if (shape.kind !== "action") return { kind: "direct" };
  for (const [name, kind] of shape.choices) if (kind === "card") return { kind: "card", key: cardKey(move[name]) };
  for (const [name, kind] of shape.choices) if (kind === "tile") return { kind: "tile", key: "tile:" + move[name] };
  const tokenish = shape.choices.length > 0 && shape.choices.every(([, k]) => k === "token" || k === "set:token");
  if (!tokenish) return { kind: "direct" };
  const tokens = [];
  for (const [name, kind] of shape.choices) tokens.push(...(kind === "token" ? [move[name]] : move[name]));
  return { kind: "tokens", tokens };
}
const legal = () => (snapshot && mode === "game" ? snapshot.legal : []);
const sameSet = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

function moveButton(item, cls = "move") {
  const b = el("button", cls);
  b.appendChild(el("span", "", item.label));
  const shape = shapeOf(item.move.action);
  for (const [name, kind] of shape ? shape.choices : []) {
    if ((kind === "pay" || kind === "tokens") && item.move[name]) b.appendChild(pips(item.move[name]));
  }
  b.dataset.action = item.move.action;
  b.addEventListener("click", () => send(item.move));
  return b;
}

function tryMoves(tokens) {
  // Token actions that no legal move matches: sent as asked, so that the
  // engine says which rule refuses them.
  const order = edition.description.tokens.map((t) => t.name);
  const sorted = [...tokens].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const tries = [];
  for (const action of edition.description.actions) {
    const tokenish = action.choices.length === 1 && ["token", "set:token"].includes(action.choices[0][1]);
    if (!tokenish) continue;
    const [name, kind] = action.choices[0];
    if (kind === "token" && sorted.length !== 1) continue;
    const move = { action: action.name, [name]: kind === "token" ? sorted[0] : sorted };
    tries.push({ move, label: `try ${action.title}: ${sorted.join(", ")}` });
  }
  return tries;
}

function drawPanel() {
  const panel = $("panel");
  panel.textContent = "";
  if (mode !== "game" || !snapshot) return;
  const items = legal();
  if (!items.length) {
    panel.appendChild(el("div", "", snapshot.over ? "The game is over." :
      snapshot.seat === null ? "Watching." : `Waiting for seat ${snapshot.to_move}.`));
    return;
  }
  panel.appendChild(el("h3", "", "Your move"));
  const direct = items.filter((i) => anchorOf(i.move).kind === "direct");
  if (direct.length) {
    const box = el("div", "direct");
    box.appendChild(el("div", "", items.every((i) => anchorOf(i.move).kind === "direct")
      ? "Decide:" : "Or:"));
    for (const item of direct) box.appendChild(moveButton(item));
    panel.appendChild(box);
  }
  if (!selection) {
    const cells = cellMoves().length ? "cells of the board, " : "";
    if (direct.length < items.length) panel.appendChild(el("div", "hint", `Click ${cells}tokens of the supply, or a card.`));
    return;
  }
  const box = el("div", "chosen");
  let shown = [];
  if (selection.kind === "tokens") {
    shown = items.filter((i) => { const a = anchorOf(i.move); return a.kind === "tokens" && sameSet(a.tokens, selection.tokens); });
    box.appendChild(el("div", "", `Tokens chosen: ${selection.tokens.join(", ")}`));
    for (const item of shown) box.appendChild(moveButton(item));
    const legalForms = shown.map((i) => JSON.stringify(i.move));
    for (const t of tryMoves(selection.tokens)) {
      if (!legalForms.includes(JSON.stringify(t.move))) box.appendChild(moveButton(t, "try"));
    }
  } else if (selection.kind === "cells") {
    shown = items.filter((i) => { const a = anchorOf(i.move); return a.kind === "cells" && sameSet(a.cells, selection.cells); });
    const view = snapshot.view;
    const words = selection.cells.map((n) => `${cellWhere(n)} ${view.board[n] ? tokenTitle(view.board[n]) : "empty"}`);
    box.appendChild(el("div", "", `Cells chosen: ${words.join(", ")}`));
    if (!shown.length) box.appendChild(el("div", "hint", "No move takes exactly these cells: click more cells of a line."));
    else box.appendChild(el("div", "hint", "Confirm:"));
    for (const item of shown) box.appendChild(moveButton(item));
  } else {
    shown = items.filter((i) => anchorOf(i.move).key === selection.key);
    for (const item of shown) box.appendChild(moveButton(item));
  }
  const clear = el("button", "clear", "Clear");
  clear.addEventListener("click", () => { selection = null; render(); });
  box.appendChild(clear);
  panel.appendChild(box);
}

function markClickable() {
  const items = legal();
  const keys = new Set(), tokens = new Set(), paying = new Set();
  for (const item of items) {
    const a = anchorOf(item.move);
    if (a.key) keys.add(a.key);
    const shape = shapeOf(item.move.action);
    if (a.key && shape.choices.some(([, k]) => k === "pay")) paying.add(a.key);
    if (a.kind === "tokens") a.tokens.forEach((t) => tokens.add(t));
  }
  for (const e of document.querySelectorAll("#table [data-key], #players [data-key]")) {
    if (keys.has(e.dataset.key)) {
      e.classList.add("clickable");
      e.dataset.pays = paying.has(e.dataset.key);
      e.addEventListener("click", () => { selection = { kind: "pick", key: e.dataset.key }; render(); });
    }
    if (selection && selection.key === e.dataset.key) e.classList.add("selected");
  }
  const anyTokenMove = edition.description.actions.some((a) => a.choices.length === 1 && ["token", "set:token"].includes(a.choices[0][1]));
  for (const e of document.querySelectorAll("#supply [data-token]")) {
    const token = e.dataset.token;
    if (tokens.has(token)) e.classList.add("clickable");
    if (items.length && anyTokenMove) {
      e.classList.add("selectable");
      e.addEventListener("click", () => {
        const chosen = selection && selection.kind === "tokens" ? [...selection.tokens] : [];
        const at = chosen.indexOf(token);
        if (at >= 0) chosen.splice(at, 1); else chosen.push(token);
        selection = chosen.length ? { kind: "tokens", tokens: chosen } : null;
        render();
      });
    }
    if (selection && selection.kind === "tokens" && selection.tokens.includes(token)) e.classList.add("selected");
  }
  markCells();
}

async function send(move) {
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}/moves?seat=${encodeURIComponent(seatToken || "")}`,
    { method: "POST", body: JSON.stringify(move) });
  const data = await answer.json();
  if (!answer.ok) { showRefusal(data); return; }
  $("refusal").textContent = "";
  selection = null;
  if (data.version >= (snapshot ? snapshot.version : -1)) { snapshot = data; render(); }
}

function showRefusal(data) {
  const box = $("refusal");
  box.textContent = "refused: ";
  for (const rule of data.rules || []) box.appendChild(el("span", "rule-id", rule)), box.append(" ");
  box.append(data.error);
}

// ----------------------------------------------------------- drawing
function snapshotView() {
  if (mode === "replay") return frames ? frames.frames[frameIndex].view : null;
  return snapshot ? snapshot.view : null;
}

function drawSupply(view) {
  const box = $("supply"); box.textContent = "";
  for (const token of edition.description.tokens) {
    const wrap = el("span", "token-box");
    const chip = el("span", "chip", String(view.supply[token.name] ?? 0));
    paint(chip, token.name); chip.dataset.token = token.name; chip.title = token.title;
    wrap.appendChild(chip); wrap.appendChild(el("span", "", token.title));
    box.appendChild(wrap);
  }
}

function drawMarket(view) {
  const box = $("market"); box.textContent = "";
  for (const deck of edition.description.decks) {
    const row = el("div", "deck-row");
    const top = el("div", "deck");
    top.dataset.key = cardKey({ deck: deck.name });
    top.appendChild(el("div", "", `deck ${deck.name}`));
    top.appendChild(el("div", "", `${view.decks[deck.name] ?? 0} cards`));
    row.appendChild(top);
    for (const card of view.market[deck.name] || []) row.appendChild(drawCard(card, false));
    box.appendChild(row);
  }
  const tiles = $("tiles"); tiles.textContent = "";
  for (const [set, numbers] of Object.entries(view.tiles || {})) {
    for (const tile of numbers) if (tile !== null) tiles.appendChild(drawTile(tile, false));
  }
}

function seatName(seat) {
  const kinds = mode === "game" ? snapshot.seats : (frames.bots || []);
  const kind = kinds[seat] || "";
  const you = mode === "game" && snapshot.seat === seat ? " (you)" : "";
  return `Seat ${seat}${kind ? " · " + kind : ""}${you}`;
}

function colourCounts(cards) {
  // the cards of a zone counted by their colour column (the bonuses they give)
  const types = edition.columns;
  const column = Object.keys(types).find((c) => types[c] === "colour");
  const counts = {};
  for (const card of cards) {
    const v = typeof card === "number" && column ? edition.cards[card].values[column] : null;
    if (v) counts[v] = (counts[v] || 0) + 1;
  }
  const box = pips(counts);
  box.classList.add("colour-counts");
  return box;
}

function drawPlayers(view, scores, toMove, winners) {
  const box = $("players"); box.textContent = "";
  const zones = edition.description.zones.filter((z) => z.owner === "player");
  view.seats.forEach((part, seat) => {
    const s = el("div", "seat" + (seat === toMove ? " to-move" : ""));
    s.dataset.seat = seat;
    const head = el("div", "seat-head");
    head.appendChild(el("b", "", seatName(seat)));
    head.append(` · score ${scores[seat]}`);
    if (winners && winners.includes(seat)) head.appendChild(el("span", "winner", " · winner"));
    s.appendChild(head);
    s.appendChild(pips(part.tokens, "pip"));
    for (const zone of zones) {
      const items = part.zones[zone.name] || [];
      const z = el("div", "zone"); z.dataset.zone = zone.name;
      z.appendChild(el("div", "zone-name", `${zone.name} (${items.length})`));
      if (zone.holds === "cards" && zone.deck_cards_seen_by === "everyone") z.appendChild(colourCounts(items));
      const row = el("div", "row");
      for (const item of items) row.appendChild(zone.holds === "tiles" ? drawTile(item, true) : drawCard(item, true));
      z.appendChild(row); s.appendChild(z);
    }
    box.appendChild(s);
  });
}

function logEntry(entry, current) {
  const li = el("li", current ? "current" : "");
  li.appendChild(el("span", "", `seat ${entry.seat}: ${entry.label} `));
  for (const rule of entry.rules || []) li.appendChild(el("span", "rule-id", rule));
  return li;
}

function drawLog(entries, current) {
  const box = $("log"); box.textContent = "";
  entries.forEach((entry, i) => box.appendChild(logEntry(entry, i === current)));
  box.scrollTop = box.scrollHeight;
}

function render() {
  if (mode === "replay") return renderFrame();
  const view = snapshot.view;
  drawMarket(view); drawCells(view); drawSupply(view);
  drawPlayers(view, snapshot.scores, snapshot.to_move, snapshot.winners);
  drawLog(snapshot.log, -1);
  const status = $("status");
  status.dataset.over = snapshot.over;
  status.textContent = snapshot.over
    ? `game over · scores ${snapshot.scores.join(" / ")} · winners: ${snapshot.winners.map((w) => "seat " + w).join(", ") || "none"}`
    : snapshot.seat !== null && snapshot.to_move === snapshot.seat ? "your turn" : `seat ${snapshot.to_move} to move`;
  drawPanel();
  markClickable();
}

// ----------------------------------------------------------- watching
function drawPace() {
  const box = $("controls"); box.textContent = "";
  if (snapshot.seat !== null) { box.appendChild(el("a", "", "record")).href = `/api/games/${gameId}/record`; return; }
  const label = el("label", "", "seconds between bots' moves ");
  const input = el("input"); input.type = "number"; input.min = 0; input.max = 10; input.step = 0.1;
  input.value = snapshot.delay; input.id = "pace";
  input.addEventListener("change", () => fetch(`/api/games/${gameId}/pace`,
    { method: "POST", body: JSON.stringify({ delay: Number(input.value) }) }));
  label.appendChild(input); box.appendChild(label);
  const record = el("a", "", " record"); record.href = `/api/games/${gameId}/record`; box.appendChild(record);
}

async function startGame() {
  const query = seatToken ? `?seat=${encodeURIComponent(seatToken)}` : "";
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}${query}`);
  const first = await answer.json();
  if (!answer.ok) { showRefusal(first); return; }
  edition = await (await fetch(`/api/games/${encodeURIComponent(gameId)}/edition`)).json();
  $("title").textContent = `${edition.description.title} · game ${gameId}`;
  snapshot = first; render(); drawPace();
  const events = new EventSource(`/api/games/${encodeURIComponent(gameId)}/events${query}`);
  events.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (!snapshot || data.version > snapshot.version) { snapshot = data; if (data.version) selection = null; render(); }
  };
}

// ----------------------------------------------------------- replay
function renderFrame() {
  const frame = frames.frames[frameIndex];
  const winners = frame.to_move === null ? [] : null;
  drawMarket(frame.view); drawCells(frame.view); drawSupply(frame.view);
  drawPlayers(frame.view, frame.scores, frame.to_move, winners);
  const entries = frames.frames.slice(1).map((f) => ({ seat: f.step.seat,
    label: f.step.label + (f.answer.startsWith("refused") ? ` (${f.answer})` : ""), rules: f.step.rules }));
  drawLog(entries, frameIndex - 1);
  const status = $("status");
  status.dataset.step = frameIndex;
  status.textContent = `step ${frameIndex} of ${frames.frames.length - 1}` +
    (frame.step ? ` · seat ${frame.step.seat}: ${frame.step.label} · ${frame.answer}` : " · the start");
  const expect = $("expect"); expect.textContent = "";
  if (frame.expect.length) {
    expect.appendChild(el("h3", "", `Expected after step ${frameIndex}`));
    for (const check of frame.expect) {
      const line = el("div", "expectation " + (check.holds ? "holds" : "fails"),
        `${check.holds ? "✓" : "✗"} ${check.key}: ${JSON.stringify(check.expected)}${check.problem ? " — " + check.problem : ""}`);
      expect.appendChild(line);
    }
  }
  if (frame.step && frame.step.illegal) {
    const line = el("div", "expectation " + (frame.answer.startsWith("refused") ? "holds" : "fails"),
      `expected refused by ${frame.step.illegal.join(", ")}: ${frame.answer}`);
    expect.appendChild(line);
  }
  $("panel").textContent = "";
}

function replayControls() {
  const box = $("controls"); box.textContent = "";
  const buttons = [["first", "|◀", () => 0], ["back", "◀ back", () => frameIndex - 1],
    ["forward", "forward ▶", () => frameIndex + 1], ["last", "▶|", () => frames.frames.length - 1]];
  for (const [id, text, where] of buttons) {
    const b = el("button", "", text); b.id = id;
    b.addEventListener("click", () => { frameIndex = Math.max(0, Math.min(frames.frames.length - 1, where())); render(); });
    box.appendChild(b);
  }
}

async function startReplay() {
  mode = "replay";
  const answer = gameId === "uploaded"
    ? await fetch("/api/replays", { method: "POST", body: sessionStorage.getItem("record") || "null" })
    : await fetch(`/api/replays/${encodeURIComponent(gameId)}`);
  const data = await answer.json();
  if (!answer.ok) { showRefusal(data); return; }
  frames = data; edition = data.edition;
  $("title").textContent = `${edition.description.title} · ${data.title}`;
  replayControls(); render();
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") $("forward").click();
    if (e.key === "ArrowLeft") $("back").click();
  });
}

(page[1] === "replay" ? startReplay : startGame)();
