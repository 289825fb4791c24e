// Times shown in the reader's own time (log lines and chat lines), and
// the game's chat: open and close the panel, send a line, add the lines that arrive.
// Lines are always set as text (never as HTML). On the game page new lines come over the
// game's websocket (game.js passes them on as "keydom:chat"); the host page asks now and then.
(function () {
  "use strict";
  function clock(iso) {
    const when = new Date(iso);
    if (isNaN(when)) return "";
    return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  // Times are written in UTC by the server; show them in the reader's own time.
  function localTimes(scope) {
    scope.querySelectorAll("time[datetime]").forEach(function (t) {
      const text = clock(t.getAttribute("datetime"));
      if (text) { t.textContent = text; t.title = new Date(t.getAttribute("datetime")).toLocaleString(); }
    });
  }
  window.keydomLocalTimes = localTimes;
  // The log's lines carry their times too.
  const gameBody = document.getElementById("game-body");
  if (gameBody) {
    localTimes(gameBody);
    document.addEventListener("keydom:updated", function () { localTimes(gameBody); });
  }

  const root = document.getElementById("chat");
  if (!root) return;
  const gameId = root.dataset.game;
  const token = root.dataset.token || "";
  const toggle = root.querySelector(".chat-toggle");
  const panel = root.querySelector(".chat-panel");
  const list = root.querySelector(".chat-lines");
  const empty = root.querySelector(".chat-empty");
  const unread = root.querySelector(".chat-unread");
  const form = root.querySelector(".chat-form");
  const error = root.querySelector(".chat-error");
  let unseen = 0;

  function isOpen() { return !panel.hidden; }
  function show(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unseen = 0;
      unread.hidden = true;
      list.scrollTop = list.scrollHeight;
      const input = form && form.querySelector("input");
      if (input && window.matchMedia("(min-width: 701px)").matches) input.focus();
    }
  }
  toggle.addEventListener("click", function () { show(true); });
  root.querySelector(".chat-close").addEventListener("click", function () { show(false); toggle.focus(); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && isOpen()) show(false);
  });

  function known(id) { return !!list.querySelector('li[data-id="' + Number(id) + '"]'); }
  function add(line) {
    if (known(line.id)) return false;
    const item = document.createElement("li");
    item.dataset.id = String(line.id);
    const time = document.createElement("time");
    time.setAttribute("datetime", line.at);
    time.textContent = clock(line.at);
    const name = document.createElement("strong");
    name.className = "chat-name";
    name.textContent = line.name;
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    item.append(time, " ", name, " ", text);
    // In id order: a line sent from here may be drawn before an older one arrives.
    const later = Array.from(list.children).find(function (li) { return Number(li.dataset.id) > line.id; });
    list.insertBefore(item, later || null);
    empty.hidden = true;
    return true;
  }
  function receive(lines, mine) {
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    let added = 0;
    lines.forEach(function (line) { if (add(line)) added += 1; });
    if (!added) return;
    if (isOpen()) {
      if (atEnd || mine) list.scrollTop = list.scrollHeight;
    } else if (!mine) {
      unseen += added;
      unread.textContent = String(unseen);
      unread.hidden = false;
    }
  }
  document.addEventListener("keydom:chat", function (event) { receive(event.detail || [], false); });

  function headers(extra) {
    const h = Object.assign({}, extra || {});
    if (token) h["Authorization"] = "Bearer " + token;
    return h;
  }
  function say(text) {
    if (!error) return;
    error.textContent = text;
    error.hidden = !text;
  }
  if (form) {
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      const input = form.querySelector("input");
      const button = form.querySelector("button");
      if (!input.value.trim()) return;
      button.disabled = true;
      try {
        const response = await fetch("/api/games/" + gameId + "/chat", {
          method: "POST", headers: headers({ "Content-Type": "application/json" }),
          body: JSON.stringify({ text: input.value }),
        });
        const answer = await response.json().catch(function () { return {}; });
        if (response.ok) {
          input.value = "";
          say("");
          receive([answer], true);
        } else {
          say(answer.detail || "The server refused that message.");
        }
      } catch (err) {
        say("Could not reach the server; your message was not sent.");
      } finally {
        button.disabled = false;
      }
    });
  }

  // The host page has no websocket of its own: it asks for new lines every few seconds.
  if (root.dataset.poll) {
    setInterval(async function () {
      if (document.hidden) return;
      try {
        const response = await fetch("/api/games/" + gameId + "/chat", { headers: headers(), cache: "no-store" });
        if (response.ok) receive((await response.json()).lines || [], false);
      } catch (err) { /* try again next time */ }
    }, 8000);
  }
  localTimes(list);
})();
