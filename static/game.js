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
  let version = Number(root.dataset.version);
  let shownTitle = document.title;
  let busy = false;
  let socket = null;
  let retry = 0;
  // A move sent over the socket waits here for its answer ("acted" or "error" frame); null
  // when none is on its way. Resolved with null if the socket closes first.
  let answering = null;
  // The newest view version a fetch of the fragment was asked for: the move's answer and
  // the frame it caused carry the same version, and one fetch of it is enough.
  let asked = -1;
  let seatsKey = null;
  let lastLog = null;
  let seatChanges = 0;
  let logChanges = 0;
  // Log lines older than the view carries, fetched on "Earlier…": line number -> text.
  const older = new Map();
  const olderTimes = new Map(); // line number -> when it was written (ISO, UTC)
  const between = new Map(); // the table's own lines (a seat taken...): line number before them -> texts
  let oldest = null; // the number of the oldest line fetched

  function authHeaders(extra) {
    const headers = Object.assign({}, extra || {});
    if (token) headers["Authorization"] = "Bearer " + token;
    return headers;
  }

  // A refusal is shown in the action bar, which stays in view, so the player reads it
  // where they are looking; it is drawn again after each redraw until the next choice.
  let message = "";
  function say(text) {
    message = text;
    const notice = body.querySelector(".bar-notice");
    if (!notice) return;
    notice.textContent = message;
    notice.hidden = !message;
  }

  // --- every question in view -------------------------------------------------------
  // Is the middle of this element inside the window, and not covered (by the sticky bar)?
  function inView(el) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
  }
  // Each choice drawn on the board has a copy in the bar, in a hidden row per kind. A kind
  // of choice with no place in view (under the board, in a panel further down) shows its
  // row, so whatever the game asks next can be answered without hunting for it.
  function showQuestions() {
    const rows = Array.from(body.querySelectorAll(".action-bar .echo-row"));
    rows.forEach(function (row) { row.hidden = true; });
    function drawn(echo) {
      return Array.from(body.querySelectorAll('[data-option="' + CSS.escape(echo.dataset.echo) + '"]'));
    }
    function seen(row) {
      return Array.from(row.children).some(function (echo) { return drawn(echo).some(inView); });
    }
    // A choice the board does not draw at all always shows its row.
    rows.forEach(function (row) {
      if (Array.from(row.children).some(function (echo) { return !drawn(echo).length; })) row.hidden = false;
    });
    // Kinds with few choices first, buttons and rows alike, so a short question ("stop",
    // which cottage number?) is never scrolled out of the bar by a long one (every move,
    // every free field). Showing rows makes the bar taller, which can push another kind
    // out of view: look once more.
    const plain = new Map();
    body.querySelectorAll(".action-bar .prompt > button.choice[data-kind]").forEach(function (b) {
      if (!plain.has(b.dataset.kind)) plain.set(b.dataset.kind, []);
      plain.get(b.dataset.kind).push(b);
    });
    const groups = Array.from(plain.values()).map(function (list) { return { size: list.length, els: list }; })
      .concat(rows.map(function (row) { return { size: row.children.length, els: [row] }; }));
    groups.sort(function (a, b) { return a.size - b.size; }); // stable: page order among equals
    groups.forEach(function (group, rank) {
      group.els.forEach(function (el) { el.style.order = String(rank); });
    });
    rows.forEach(function (row) { row.classList.toggle("few", row.children.length <= 6); }); // a few wrap; many scroll sideways on a phone
    const kinds = rows.slice().sort(function (a, b) { return a.children.length - b.children.length; });
    for (let pass = 0; pass < 2; pass += 1) {
      const unseen = kinds.filter(function (row) { return row.hidden && !seen(row); });
      unseen.forEach(function (row) { row.hidden = false; });
      if (!unseen.length) break;
    }
  }

  // What the player clicked on the board stays marked while the step it began goes on
  // (the bar still offers to cancel it), e.g. the gap a cottage is going to.
  let clicked = null;
  function identify(el) {
    const own = Object.keys(el.dataset).filter(function (k) { return k !== "option" && k !== "laidOut"; });
    if (!own.length) return null;
    const owner = el.parentElement && el.parentElement.closest("[data-seat]");
    const attr = function (k) { return "[data-" + k.replace(/[A-Z]/g, function (c) { return "-" + c.toLowerCase(); }) + '="' + CSS.escape(el.dataset[k]) + '"]'; };
    const own_selector = own.map(attr).join("");
    return owner ? '[data-seat="' + CSS.escape(owner.dataset.seat) + '"] ' + own_selector : own_selector;
  }
  function markClicked() {
    const bar = body.querySelector(".action-bar");
    const going = bar && bar.classList.contains("asked") && bar.querySelector(".kind-cancel");
    if (!clicked || !going) { clicked = null; return; }
    const el = body.querySelector(clicked);
    if (el) el.classList.add("chosen");
  }

  function laidOut() {
    say(message);
    markClicked();
    showQuestions();
    document.body.dataset.laidOut = "yes";
  }
  let resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(showQuestions, 150);
  });

  // seen: the version of this page's view that a frame or the action's answer carried, so
  // the server can draw it from the game it holds instead of reading it again.
  async function refresh(seen) {
    if (seen !== undefined) {
      if (seen <= asked || seen <= version) return;  // that version is drawn, or on its way
      asked = seen;
    }
    const query = seen === undefined ? "" : "?seen=" + seen;
    const response = await fetch("/g/" + gameId + "/fragment" + query, { headers: authHeaders(), cache: "no-store" });
    if (!response.ok) {
      if (asked === seen) asked = version;  // the next frame or answer may ask for it again
      return;
    }
    const fresh = document.createElement("template");
    fresh.innerHTML = await response.text();
    // Two fetches in flight (the action's answer and a frame's) may come back in either
    // order: one older than the page already shows must not take it back (versions only grow).
    const line = fresh.content.querySelector(".status-line");
    if (line && Number(line.dataset.version) < version) return;
    document.body.dataset.laidOut = "no";
    body.replaceChildren(fresh.content);
    drawEarlier();
    if (line) version = Number(line.dataset.version);
    // The tab title follows the seats' names, unless notify.js is showing "Your turn" there.
    if (line && line.dataset.tabTitle && document.title === shownTitle) document.title = shownTitle = line.dataset.tabTitle;
    laidOut();
    root.dataset.version = String(version);
    document.dispatchEvent(new CustomEvent("keydom:updated", { detail: { version: version } }));
  }

  async function choose(optionId) {
    if (busy || !token) return;
    busy = true;
    body.classList.add("busy");
    try {
      let seen;
      if (socket && socket.readyState === WebSocket.OPEN) {
        // Over the game's own socket: no request of its own, the same checks and refusals.
        const answer = await new Promise(function (resolve) {
          answering = resolve;
          socket.send(JSON.stringify({ act: optionId, version: version }));
        });
        if (answer === null) {
          say("The connection dropped before your move was answered. The page now shows the game as the server has it: look whether your move is there.");
        } else if (answer.error !== undefined) {
          say(answer.error || "The server refused that.");
        } else {
          say("");
          seen = answer.version;
        }
      } else {
        const response = await fetch("/api/games/" + gameId + "/actions", {
          method: "POST",
          // Only the new version back: the view comes by the websocket, and the page redraws from the server.
          headers: authHeaders({ "Content-Type": "application/json", "Prefer": "return=minimal" }),
          body: JSON.stringify({ option: optionId, version: version }),
        });
        if (response.ok) {
          say("");
          seen = (await response.json().catch(() => ({}))).version;
        } else {
          const problem = await response.json().catch(() => ({ detail: "The server refused that." }));
          say(problem.detail || "The server refused that.");
        }
      }
      await refresh(typeof seen === "number" ? seen : undefined);
    } catch (err) {
      say("Could not reach the server. Check your connection; your move was not sent.");
    } finally {
      busy = false;
      body.classList.remove("busy");
    }
  }

  async function fetchLog(before, limit) {
    const response = await fetch("/api/games/" + gameId + "/log?before=" + before + "&limit=" + limit,
                                 { cache: "no-store" });
    if (!response.ok) throw new Error("log " + response.status);
    const page = await response.json();
    page.lines.forEach(function (text, i) { older.set(page.first + i, text); });
    (page.times || []).forEach(function (at, i) { if (at) olderTimes.set(page.first + i, at); });
    (page.table_lines || []).forEach(function (t) {
      if (!between.has(t.after)) between.set(t.after, []);
      between.get(t.after).push({ line: t.line, at: t.at });
    });
    if (page.lines.length && (oldest === null || page.first < oldest)) oldest = page.first;
  }

  async function showEarlier(button) {
    button.disabled = true;
    try {
      await fetchLog(oldest || Number(button.dataset.before), 100);
      drawEarlier();
    } catch (err) {
      say("Could not load the earlier lines of the log. Try again in a moment.");
      button.disabled = false;
    }
  }

  // Put the fetched lines under the ones the server drew (newest first, like them). The
  // server's window moves on as the game does: fetch any lines that fell between the two.
  function drawEarlier() {
    const list = body.querySelector(".log ol");
    const button = body.querySelector(".log-earlier");
    if (!list || oldest === null) return;
    const first = Number(list.dataset.first);
    let newest = oldest;
    while (older.has(newest + 1)) newest += 1;
    if (newest < first - 1) {
      if (first - 1 - newest > 200) { forget(); return; }
      fetchLog(first, first - 1 - newest).then(drawEarlier, forget);
      return;
    }
    list.querySelectorAll("li.earlier").forEach(function (item) { item.remove(); });
    function add(text, at) {
      const item = document.createElement("li");
      item.className = "earlier";
      if (at) {
        const time = document.createElement("time");
        time.setAttribute("datetime", at);
        time.textContent = at.slice(11, 16);
        item.append(time, " ");
      }
      item.append(text);
      list.appendChild(item);
    }
    for (let n = first - 1; n >= oldest; n -= 1) {
      add(older.get(n), olderTimes.get(n));
      (between.get(n - 1) || []).slice().reverse().forEach(function (t) { add(t.line, t.at); });
    }
    if (window.keydomLocalTimes) window.keydomLocalTimes(list);
    if (button && oldest <= 1) {
      button.remove(); // the whole log is shown
    } else if (button) {
      button.dataset.before = String(oldest);
      button.disabled = false;
    }
  }

  function forget() {
    older.clear();
    olderTimes.clear();
    between.clear();
    oldest = null;
  }

  // On a phone the log is a sheet opened from the action bar; the open state lives on
  // #game-body, so it survives the fragment being redrawn.
  function showLogState() {
    const open = body.classList.contains("log-open");
    body.querySelectorAll(".log-toggle").forEach(function (b) { b.setAttribute("aria-expanded", String(open)); });
  }
  function toggleLog(open) {
    body.classList.toggle("log-open", open);
    showLogState();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && body.classList.contains("log-open")) toggleLog(false);
  });
  document.addEventListener("keydom:updated", showLogState);

  body.addEventListener("click", function (event) {
    const logButton = event.target.closest(".log-toggle");
    if (logButton) {
      event.preventDefault();
      toggleLog(!logButton.classList.contains("log-close") && !body.classList.contains("log-open"));
      return;
    }
    const earlier = event.target.closest(".log-earlier");
    if (earlier) {
      event.preventDefault();
      showEarlier(earlier);
      return;
    }
    const target = event.target.closest("[data-option], [data-echo]");
    if (!target || !body.contains(target)) return;
    event.preventDefault();
    if (!target.closest(".action-bar")) clicked = identify(target);
    choose(target.dataset.option || target.dataset.echo);
  });
  body.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const target = event.target.closest("[data-option]");
    if (!target || target.tagName === "BUTTON") return;
    event.preventDefault();
    clicked = identify(target);
    choose(target.dataset.option);
  });
  // One choice drawn on several things (a group of fields) lights them all up together.
  function lightSame(event, on) {
    const target = event.target.closest && event.target.closest("[data-option]");
    if (!target || !body.contains(target)) return;
    body.querySelectorAll('[data-option="' + CSS.escape(target.dataset.option) + '"]')
      .forEach(function (el) { el.classList.toggle("same-option", on); });
  }
  body.addEventListener("mouseover", function (event) { lightSame(event, true); });
  body.addEventListener("mouseout", function (event) { lightSame(event, false); });
  body.addEventListener("focusin", function (event) { lightSame(event, true); });
  body.addEventListener("focusout", function (event) { lightSame(event, false); });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // Only what changed comes after the first frame: the page needs just the version and
    // whether the seats changed (it then fetches the new fragment).
    const query = "?frames=changes" + (token ? "&token=" + encodeURIComponent(token) : "");
    socket = new WebSocket(scheme + location.host + "/ws/games/" + gameId + query);
    socket.onopen = function () {
      retry = 0;
      banner.hidden = true;
      socket.send(JSON.stringify({ since: version }));
    };
    socket.onmessage = function (event) {
      let view;
      try { view = JSON.parse(event.data); } catch (e) { return; }
      if (view.error !== undefined || view.acted !== undefined) {  // the answer to a move sent here
        if (answering) { const done = answering; answering = null; done(view); }
        return;
      }
      if (view.chat !== undefined) { // chat lines (chat.js shows them), and a rematch made
        document.dispatchEvent(new CustomEvent("keydom:chat", { detail: view.chat }));
        if (view.rematch && !body.querySelector(".rematch")) refresh();
        return;
      }
      let key = seatsKey;
      let lastLine = lastLog;
      if (view.base === undefined) {  // a whole view
        key = JSON.stringify([view.seats, view.takeback]);  // a takeback request moves no version
        lastLine = JSON.stringify((view.log || []).slice(-1));
      } else {  // only what changed
        const dropped = (view.drop || []).map(function (drop) { return [drop[0]]; });  // a list's first items went
        view.set.concat(view.unset.map(function (path) { return [path]; }), dropped).forEach(function (change) {
          if (change[0][0] === "seats" || change[0][0] === "takeback") key = "changed " + (++seatChanges);
          if (change[0][0] === "log") lastLine = "changed " + (++logChanges);
        });
      }
      // A new version: as the frame showed it (the server reads names and seats afresh
      // when they changed). Seats or the takeback changed, or a line the table wrote (a
      // seat's time ran out, a hand-over), with no new version: read the game afresh.
      if (view.version !== version) refresh(view.version);
      else if ((seatsKey !== null && key !== seatsKey) || (lastLog !== null && lastLine !== lastLog)) refresh();
      seatsKey = key;
      lastLog = lastLine;
    };
    socket.onclose = function (event) {
      if (answering) { const done = answering; answering = null; done(null); }
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
      const title = root.dataset.titleName || document.title.replace(/ — Keydom$/, "");
      const games = JSON.parse(localStorage.getItem("keydom.games") || "[]")
        .filter(function (g) { return g && g.url !== location.pathname; });
      // The home page asks the server about each kept link (POST /api/my-games).
      games.unshift({ url: location.pathname, game: gameId, role: "seat", token: token,
                      title: title, you: you, seen: new Date().toISOString() });
      localStorage.setItem("keydom.games", JSON.stringify(games.slice(0, 100)));
    } catch (err) { /* private mode: nothing to remember */ }
  }

  laidOut();
  window.keydom = { choose: choose, refresh: refresh, get version() { return version; },
                    get live() { return !!socket && socket.readyState === WebSocket.OPEN; } };
})();
