// Keydom turn notifications on the game page: the seat's channels (saved through the API),
// how the last message went, and this tab's own signals when it becomes your turn while
// the tab is in the background: "● Your turn — <Title>" as title, a dot as favicon and,
// if the player allowed it with a click, a browser notification and a short sound.
(function () {
  "use strict";
  const root = document.getElementById("game");
  const panel = document.getElementById("notify-panel");
  if (!root || !panel || !root.dataset.token) return;
  const gameId = root.dataset.game;
  const token = root.dataset.token;
  const titleName = panel.dataset.titleName || document.title.replace(/ — Keydom$/, "");
  const api = "/api/games/" + gameId + "/notifications";
  const auth = { Authorization: "Bearer " + token };
  const $ = function (id) { return document.getElementById(id); };
  const form = $("notify-form");
  const email = $("notify-email");
  const urls = $("notify-urls");
  const remind = $("notify-remind");
  const message = $("notify-message");
  const list = $("notify-deliveries");
  const failed = $("notify-failed");
  const state = $("notify-state");

  // --- The seat's channels ---
  function when(seconds) {
    return new Date(seconds * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  }

  function describe(d) {
    const where = d.service + " (" + d.channel + ")";
    if (d.ok) return "Delivered to " + where + " " + when(d.at) + (d.kind === "test" ? " (test)" : "") + ".";
    let line = "The last " + (d.kind === "test" ? "test " : "") + "notification to " + where + " failed: " + d.error;
    if (d.retry_at) line += " Trying again at " + when(d.retry_at) + ".";
    else if (d.gave_up) line += " Keydom has stopped trying; check the URL.";
    return line;
  }

  function show(settings) {
    email.value = settings.email || "";
    email.disabled = !settings.email_available && !settings.email;
    $("notify-email-off").hidden = settings.email_available;
    urls.value = (settings.urls || []).join("\n");
    remind.value = settings.remind_after_hours ? String(settings.remind_after_hours) : "";
    if (remind.value && remind.selectedIndex < 0) {
      const option = new Option(settings.remind_after_hours + " hours", String(settings.remind_after_hours));
      remind.add(option);
      remind.value = option.value;
    }
    const count = (settings.email ? 1 : 0) + (settings.urls || []).length;
    state.textContent = count ? "(on: " + count + " channel" + (count > 1 ? "s" : "") + ")" : "(off)";
    list.replaceChildren();
    (settings.deliveries || []).forEach(function (d) {
      const item = document.createElement("li");
      item.className = d.ok ? "ok" : "bad";
      item.textContent = describe(d);
      list.appendChild(item);
    });
    const problem = (settings.deliveries || []).find(function (d) { return !d.ok && d.kind !== "test"; });
    failed.hidden = !problem;
    failed.textContent = problem ? describe(problem) : "";
    if (problem) panel.open = true;
  }

  function say(text, bad) {
    message.textContent = text;
    message.classList.toggle("bad", !!bad);
  }

  async function load() {
    try {
      const response = await fetch(api, { headers: auth, cache: "no-store" });
      if (response.ok) show(await response.json());
    } catch (err) { /* offline: the panel stays as it is */ }
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const hours = remind.value ? Number(remind.value) : null;
    const body = {
      email: email.value.trim() || null,
      urls: urls.value.split("\n").map(function (u) { return u.trim(); }).filter(Boolean),
      remind_after_hours: hours,
    };
    try {
      const response = await fetch(api, {
        method: "PUT", headers: Object.assign({ "Content-Type": "application/json" }, auth), body: JSON.stringify(body),
      });
      const answer = await response.json().catch(function () { return {}; });
      if (!response.ok) { say(answer.detail || "The server refused that.", true); return; }
      show(answer);
      say(body.email || body.urls.length ? "Saved. Send a test to check it reaches you." : "Saved: notifications are off.");
    } catch (err) {
      say("Could not reach the server; nothing was saved.", true);
    }
  });

  $("notify-test").addEventListener("click", async function () {
    say("Sending…");
    try {
      const response = await fetch(api + "/test", { method: "POST", headers: auth });
      const answer = await response.json().catch(function () { return {}; });
      if (!response.ok) { say(answer.detail || "The server refused that.", true); return; }
      const bad = answer.filter(function (d) { return !d.ok; });
      say(bad.length ? bad.map(describe).join(" ") : "Test sent to " + answer.length + " channel" +
          (answer.length > 1 ? "s" : "") + ".", bad.length > 0);
      load();
    } catch (err) {
      say("Could not reach the server.", true);
    }
  });

  // --- This tab's signals ---
  const plainTitle = document.title;
  const DOT = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#d9822b"/>' +
    '<circle cx="16" cy="16" r="6" fill="#fff"/></svg>');
  let icon = document.querySelector("link[rel~='icon']");
  const plainIcon = icon ? icon.href : null;
  let myTurn = null; // at the last look; null: not looked yet
  let signalled = false;
  let audio = null;
  const OPT_IN = "keydom.notify.browser";

  function optedIn() {
    try { return localStorage.getItem(OPT_IN) === "on"; } catch (err) { return false; }
  }

  function setIcon(href) {
    if (!icon) {
      icon = document.createElement("link");
      icon.rel = "icon";
      document.head.appendChild(icon);
    }
    if (href) {
      icon.href = href;
    } else {
      icon.remove();
      icon = null;
    }
  }

  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (err) { /* no audio here */ }
  }

  function signal() {
    if (signalled) return;
    signalled = true;
    document.title = "● Your turn — " + titleName;
    setIcon(DOT);
    if (optedIn() && "Notification" in window && Notification.permission === "granted") {
      const note = new Notification("Your turn — " + titleName, { body: "Your game waits for you.", tag: "keydom-" + gameId });
      note.onclick = function () { window.focus(); note.close(); };
    }
    if (optedIn()) beep();
  }

  function unsignal() {
    if (!signalled) return;
    signalled = false;
    document.title = plainTitle;
    setIcon(plainIcon);
  }

  async function look() {
    const response = await fetch("/api/games/" + gameId, { headers: auth, cache: "no-store" });
    if (!response.ok) return;
    const view = await response.json();
    const mine = view.to_act.indexOf(view.seat) >= 0 && !view.result;
    if (mine && myTurn === false && document.hidden) signal();
    myTurn = mine;
  }

  document.addEventListener("keydom:updated", function () {
    if (document.hidden) look().catch(function () {});
    else myTurn = null;
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) look().catch(function () {}); // what "becomes your turn" is measured from
    else { unsignal(); myTurn = null; load(); }
  });

  const optButton = $("notify-browser");
  const optState = $("notify-browser-state");
  function showOptIn() {
    const on = optedIn();
    optButton.textContent = on ? "Stop the notification and sound" : "Also show a notification and play a sound";
    optState.textContent = on ? "On in this browser." : "";
  }
  optButton.addEventListener("click", async function () {
    if (optedIn()) {
      try { localStorage.removeItem(OPT_IN); } catch (err) { /* private mode */ }
      showOptIn();
      return;
    }
    let allowed = "denied";
    if ("Notification" in window) allowed = await Notification.requestPermission();
    try { localStorage.setItem(OPT_IN, "on"); } catch (err) { /* private mode */ }
    beep(); // the click lets this page play sound later
    showOptIn();
    if (allowed !== "granted") {
      optState.textContent = "The sound is on; this browser will not show notifications (allow them for this site in its settings).";
    }
  });

  showOptIn();
  load();
  if (document.hidden) look().catch(function () {}); // opened straight into a background tab
  window.keydomNotify = { get signalled() { return signalled; } };
})();
