// "Your games": seat links this browser has opened (kept in localStorage by game.js).
(function () {
  const section = document.getElementById("your-games");
  if (!section) return;
  let games = [];
  try { games = JSON.parse(localStorage.getItem("keydom.games") || "[]"); } catch (err) { return; }
  if (!games.length) return;
  const list = section.querySelector("ul");
  games.forEach(function (g) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = g.url;
    link.textContent = g.title + (g.you ? " — as " + g.you : "");
    const when = document.createElement("small");
    when.textContent = " last opened " + new Date(g.seen).toLocaleString();
    item.appendChild(link);
    item.appendChild(when);
    list.appendChild(item);
  });
  section.hidden = false;
})();
