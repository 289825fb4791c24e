// "Your games": every game this browser holds a seat or host link for (kept by mygames.js),
// with whose turn it is, asked from the server and refreshed while the page is open.
(function () {
  "use strict";
  const section = document.getElementById("your-games");
  const store = window.keydomGames;
  if (!section || !store) return;
  const list = section.querySelector("ul");
  const EVERY = 20000; // ms between refreshes while the tab is visible
  let timer = null;

  function ago(iso) {
    const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
    const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
    for (let i = 0; i < units.length; i += 1) {
      if (seconds >= units[i][1]) {
        const n = Math.floor(seconds / units[i][1]);
        return n + " " + units[i][0] + (n === 1 ? "" : "s") + " ago";
      }
    }
    return "just now";
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function whoseTurn(game) {
    if (game.status === "finished") {
      const w = game.winners || [];
      return "Finished" + (w.length ? " — " + w.join(" and ") + (w.length === 1 ? " wins" : " share the win") : "");
    }
    if (game.your_turn) return "Your turn";
    if (game.waiting_on_open) return "Waiting for a player to take an open seat";
    const names = game.to_act.map(function (s) { return game.seats[s].name; });
    return names.length ? "Waiting for " + names.join(", ") : "Waiting";
  }

  function players(game) {
    return game.seats.map(function (s) {
      if (s.open) return "seat " + (s.seat + 1) + " waiting for a player";
      return s.name + (s.seat === game.seat ? " (you)" : "");
    }).join(", ");
  }

  // Each timed decision's time left (the game's time limit): yours first.
  function timeLeft(game) {
    const clocks = (game.clocks || []).slice().sort(function (a, b) {
      return (b.seat === game.seat) - (a.seat === game.seat) || a.seat - b.seat;
    });
    if (!clocks.length || !window.keydomClocks) return null;
    const line = el("span", "clocks");
    clocks.forEach(function (c) {
      const clock = el("span", "clock" + (c.seat === game.seat ? " mine" : "") + (c.expired || c.left_seconds <= 0 ? " out" : ""));
      clock.dataset.left = String(c.left_seconds);
      clock.dataset.expired = c.expired ? "yes" : "";
      clock.appendChild(el("span", "who", (c.seat === game.seat ? "You" : game.seats[c.seat].name) + ":"));
      clock.appendChild(document.createTextNode(" "));
      clock.appendChild(el("span", "left", window.keydomClocks.text(c.left_seconds, c.expired)));
      line.appendChild(clock);
    });
    return line;
  }

  function removeButton(game) {
    const button = el("button", "button remove", "Remove");
    button.type = "button";
    button.title = "Forget this game on this device (the links keep working)";
    button.addEventListener("click", function () {
      store.list().forEach(function (g) { if (g.game === game) store.forget(g.url); });
      refresh();
    });
    return button;
  }

  // One row per game; a seat link is what opens it, a host link adds "Host page".
  function row(entries) {
    const seat = entries.find(function (e) { return e.role === "seat"; });
    const host = entries.find(function (e) { return e.role === "host"; });
    const game = seat || host;
    const item = el("li", "my-game" + (game.your_turn ? " your-turn" : "") + (game.status === "finished" ? " finished" : ""));
    item.dataset.game = game.id;
    const link = el("a", "open");
    link.href = game.url;
    link.appendChild(el("strong", "", game.title_name));
    item.appendChild(link);
    item.appendChild(el("span", "turn", whoseTurn(game)));
    item.appendChild(el("span", "players", players(game) + (host && !seat ? " · you host this game" : "")));
    const clocks = timeLeft(game);
    if (clocks) item.appendChild(clocks);
    item.appendChild(el("small", "changed", "last change " + ago(game.updated_at)));
    const tools = el("span", "tools");
    if (host && seat) {  // the title opens the seat; the host page is one more link
      const hostLink = el("a", "button host", "Host page");
      hostLink.href = host.url;
      tools.appendChild(hostLink);
    }
    tools.appendChild(removeButton(game.id));
    item.appendChild(tools);
    return item;
  }

  function goneRow(kept) {
    const item = el("li", "my-game gone");
    item.appendChild(el("strong", "", kept.title || "A game"));
    item.appendChild(el("span", "turn", "This link no longer opens a game (it was replaced, or the game is gone)."));
    // The link's own page says what happened to it (replaced, seat re-opened...) and whom to ask.
    const why = el("a", "why", "What happened?");
    why.href = kept.url;
    item.appendChild(why);
    const tools = el("span", "tools");
    const button = el("button", "button remove", "Remove");
    button.type = "button";
    button.addEventListener("click", function () { store.forget(kept.url); refresh(); });
    tools.appendChild(button);
    item.appendChild(tools);
    return item;
  }

  function render(kept, answered) {
    list.textContent = "";
    const byGame = new Map();
    answered.forEach(function (entry) {
      if (!byGame.has(entry.id)) byGame.set(entry.id, []);
      byGame.get(entry.id).push(entry);
    });
    // The server sorted: your turn first, then running games, newest change first.
    byGame.forEach(function (entries) { list.appendChild(row(entries)); });
    const known = new Set(answered.map(function (e) { return e.token; }));
    kept.forEach(function (g) { if (!known.has(g.token)) list.appendChild(goneRow(g)); });
    section.hidden = !list.children.length;
  }

  async function refresh() {
    const kept = store.list().map(function (g) { return Object.assign({}, store.parse(g.url), g); })
      .filter(function (g) { return g.token; });
    if (!kept.length) { section.hidden = true; list.textContent = ""; return; }
    try {
      const response = await fetch("/api/my-games", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ tokens: kept.map(function (g) { return g.token; }) }),
        cache: "no-store",
      });
      if (!response.ok) return;
      render(kept, await response.json());
      if (window.keydomClocks) window.keydomClocks.redrawn();
    } catch (err) { /* offline: keep what is shown and try again later */ }
  }

  function schedule() {
    clearInterval(timer);
    timer = document.hidden ? null : setInterval(refresh, EVERY);
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) refresh();
    schedule();
  });
  window.addEventListener("storage", function (event) { if (event.key === "keydom.games") refresh(); });
  refresh();
  schedule();
  window.keydomHome = { refresh: refresh };
})();
