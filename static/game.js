// Keydom game page: live updates over a websocket, clicks on highlighted choices.
// The server renders everything; this file only moves HTML and option ids around.
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.game;
  const token = root.dataset.token || "";
  const body = document.getElementById("game-body");
  const banner = document.getElementById("connection");
  const notice = document.getElementById("notice");
  let version = Number(root.dataset.version);
  let busy = false;
  let socket = null;
  let retry = 0;
  let seatsKey = null;

  function authHeaders(extra) {
    const headers = Object.assign({}, extra || {});
    if (token) headers["Authorization"] = "Bearer " + token;
    return headers;
  }

  function say(message) {
    notice.textContent = message;
    notice.hidden = !message;
  }

  async function refresh() {
    const response = await fetch("/g/" + gameId + "/fragment", { headers: authHeaders(), cache: "no-store" });
    if (!response.ok) return;
    const html = await response.text();
    body.innerHTML = html;
    const line = body.querySelector(".status-line");
    if (line) version = Number(line.dataset.version);
    root.dataset.version = String(version);
    document.dispatchEvent(new CustomEvent("keydom:updated", { detail: { version: version } }));
  }

  async function choose(optionId) {
    if (busy || !token) return;
    busy = true;
    body.classList.add("busy");
    try {
      const response = await fetch("/api/games/" + gameId + "/actions", {
        method: "POST",
        headers: authHeaders({ "Content-Type": "application/json" }),
        body: JSON.stringify({ option: optionId, version: version }),
      });
      if (response.ok) {
        say("");
      } else {
        const problem = await response.json().catch(() => ({ detail: "The server refused that." }));
        say(problem.detail || "The server refused that.");
      }
      await refresh();
    } catch (err) {
      say("Could not reach the server. Check your connection; your move was not sent.");
    } finally {
      busy = false;
      body.classList.remove("busy");
    }
  }

  body.addEventListener("click", function (event) {
    const target = event.target.closest("[data-option]");
    if (!target || !body.contains(target)) return;
    event.preventDefault();
    choose(target.dataset.option);
  });
  body.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-option]");
    if (!target || target.tagName === "BUTTON") return;
    event.preventDefault();
    choose(target.dataset.option);
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const query = token ? "?token=" + encodeURIComponent(token) : "";
    socket = new WebSocket(scheme + location.host + "/ws/games/" + gameId + query);
    socket.onopen = function () {
      retry = 0;
      banner.hidden = true;
      socket.send(JSON.stringify({ since: version }));
    };
    socket.onmessage = function (event) {
      let view;
      try { view = JSON.parse(event.data); } catch (e) { return; }
      if (view.error) return;
      const key = JSON.stringify(view.seats);
      if (view.version !== version || (seatsKey !== null && key !== seatsKey)) refresh();
      seatsKey = key;
    };
    socket.onclose = function (event) {
      if (event.code === 4403 || event.code === 4404) {
        banner.hidden = false;
        banner.textContent = event.reason || "This link no longer opens a game.";
        return;
      }
      banner.hidden = false;
      banner.textContent = "Reconnecting…";
      const delay = Math.min(15000, 500 * Math.pow(2, retry)) * (0.75 + Math.random() / 2);
      retry += 1;
      setTimeout(connect, delay);
    };
  }
  connect();
  // Remember this seat on this device, so the home page can list "Your games".
  if (token) {
    try {
      const you = (document.querySelector(".status-line .you strong") || {}).textContent || "";
      const title = document.title.replace(/ — Keydom$/, "");
      const games = JSON.parse(localStorage.getItem("keydom.games") || "[]")
        .filter(function (g) { return g && g.url !== location.pathname; });
      // The home page asks the server about each kept link (POST /api/my-games).
      games.unshift({ url: location.pathname, game: gameId, role: "seat", token: token,
                      title: title, you: you, seen: new Date().toISOString() });
      localStorage.setItem("keydom.games", JSON.stringify(games.slice(0, 100)));
    } catch (err) { /* private mode: nothing to remember */ }
  }

  window.keydom = { choose: choose, refresh: refresh, get version() { return version; } };
})();
