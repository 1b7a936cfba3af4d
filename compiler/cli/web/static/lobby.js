"use strict";
// The lobby: a new game (edition, players, a seat each), the games on the
// server, and records to replay. Everything else is on the board page.
const $ = (id) => document.getElementById(id);
const here = new URL(document.URL);
const BOTS = ["human", "greedy", "random", "mcts:200"];
let editions = [];

function seatChoices() {
  const edition = editions[$("edition").selectedIndex];
  const count = Number($("players").value);
  const box = $("seat-choices");
  box.textContent = "";
  for (let seat = 0; seat < count; seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat} `;
    const input = document.createElement("input");
    input.setAttribute("list", "bot-kinds");
    input.className = "seat-kind";
    input.value = seat === 0 ? "human" : "greedy";
    label.appendChild(input);
    box.appendChild(label);
  }
  if (!$("bot-kinds")) {
    const list = document.createElement("datalist");
    list.id = "bot-kinds";
    for (const bot of BOTS) { const o = document.createElement("option"); o.value = bot; list.appendChild(o); }
    document.body.appendChild(list);
  }
  return edition;
}

function players() {
  const edition = editions[$("edition").selectedIndex];
  const select = $("players");
  select.textContent = "";
  if (!edition || !edition.players) return;
  for (let n = edition.players[0]; n <= edition.players[1]; n++) {
    const o = document.createElement("option"); o.value = n; o.textContent = n; select.appendChild(o);
  }
  seatChoices();
}

async function start(event) {
  event.preventDefault();
  const edition = editions[$("edition").selectedIndex];
  const seats = [...document.querySelectorAll(".seat-kind")].map((i) => i.value.trim());
  const body = { source: edition.source, players: Number($("players").value), seats,
                 delay: Number($("delay").value) };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const answer = await fetch("/api/games", { method: "POST", body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) { $("lobby-error").textContent = data.error; return; }
  $("lobby-error").textContent = "";
  const links = Object.entries(data.seats);
  if (links.length === 1) { window.open(links[0][1], "_self"); return; }
  const box = $("links");
  box.textContent = "";
  for (const [seat, link] of links) {
    const a = document.createElement("a"); a.href = link; a.className = "seat-link";
    a.textContent = `seat ${seat}: ${here.origin}${link}`;
    box.appendChild(a); box.appendChild(document.createElement("br"));
  }
  const watch = document.createElement("a"); watch.href = data.watch; watch.className = "watch-link";
  watch.textContent = `watch: ${here.origin}${data.watch}`;
  box.appendChild(watch);
  listGames();
}

async function listGames() {
  const games = await (await fetch("/api/games")).json();
  const list = $("games");
  list.textContent = "";
  for (const game of games) {
    const li = document.createElement("li");
    const a = document.createElement("a"); a.href = game.watch;
    a.textContent = `${game.edition}: ${game.seats.join(", ")}, ${game.moves} moves${game.over ? ", over" : ""}`;
    li.appendChild(a); list.appendChild(li);
  }
}

async function listRecords() {
  const names = await (await fetch("/api/replays")).json();
  const list = $("records");
  for (const name of names) {
    const li = document.createElement("li");
    const a = document.createElement("a"); a.href = `/replay/${encodeURIComponent(name)}`; a.textContent = name;
    li.appendChild(a); list.appendChild(li);
  }
}

$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  sessionStorage.setItem("record", await file.text());
  window.open("/replay/uploaded", "_self");
});

(async () => {
  editions = await (await fetch("/api/editions")).json();
  const select = $("edition");
  for (const e of editions) {
    const o = document.createElement("option");
    o.value = e.source; o.textContent = e.error ? `${e.source}: ${e.error}` : `${e.title} (${e.edition})`;
    select.appendChild(o);
  }
  select.addEventListener("change", players);
  $("players").addEventListener("change", seatChoices);
  $("new-game").addEventListener("submit", start);
  players();
  listGames();
  listRecords();
})();
