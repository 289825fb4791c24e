// "My games" on this device: the seat and host links this browser has opened, kept in
// localStorage ("keydom.games") so the home page can list them. Only links are kept;
// everything shown about a game comes fresh from the server (POST /api/my-games).
(function () {
  "use strict";
  const KEY = "keydom.games";
  const KEEP = 100; // the server answers about at most 100 links at once

  function list() {
    try {
      const games = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(games) ? games.filter(function (g) { return g && typeof g.url === "string"; }) : [];
    } catch (err) { return []; }
  }

  // The secret in a link: /g/<game>/seat/<token> or /g/<game>/host/<token>.
  function parse(url) {
    const match = /\/g\/([^/]+)\/(seat|host)\/([^/?#]+)/.exec(url || "");
    return match ? { game: match[1], role: match[2], token: decodeURIComponent(match[3]) } : null;
  }

  function save(games) {
    try { localStorage.setItem(KEY, JSON.stringify(games.slice(0, KEEP))); } catch (err) { /* private mode */ }
  }

  function remember(entry) {
    const games = list().filter(function (g) { return g.url !== entry.url; });
    games.unshift(Object.assign({ seen: new Date().toISOString() }, parse(entry.url), entry));
    save(games);
  }

  function forget(url) {
    save(list().filter(function (g) { return g.url !== url; }));
  }

  window.keydomGames = { list: list, parse: parse, remember: remember, forget: forget };

  // On the host page: remember the host link (its address is the link).
  const host = document.getElementById("host");
  if (host) remember({ url: location.pathname, title: host.dataset.title, you: "" });

  // After taking or opening a seat: keep its new private link, the only way back to it.
  const yours = document.getElementById("yours");
  if (yours) remember({ url: yours.dataset.url, role: "seat", title: yours.dataset.title, you: yours.dataset.you });
})();
