// Keydom turn notifications on the game page: a bell in the top bar opens the seat's
// settings (push to this device, e-mail, notification URLs, saved through the API), shows
// how the last message went, and this tab's own signals when it becomes your turn while
// the tab is in the background: "● Your turn — <Title>" as title, a dot as favicon and,
// if the player allowed it with a click, a browser notification and a short sound.
// Settings saved in one game are this browser's "usual" ones: offered in one click, or
// applied at once if the player ticked "every game", in each game it joins later.
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
  const every = $("notify-every");
  const message = $("notify-message");
  const list = $("notify-deliveries");
  const failed = $("notify-failed");
  const state = $("notify-state");
  const USUAL = "keydom.notify.usual";
  let current = null; // the seat's settings as the server last answered
  let device = null; // this browser's push subscription, if it has one

  // --- The bell in the top bar (it stays in view; the panel opens over the page) ---
  const bell = document.createElement("button");
  bell.type = "button";
  bell.id = "notify-open";
  bell.className = "notify-bell";
  bell.setAttribute("aria-haspopup", "dialog");
  const bellIcon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  bellIcon.setAttribute("viewBox", "0 0 24 24");
  bellIcon.setAttribute("aria-hidden", "true");
  const bellPath = document.createElementNS("http://www.w3.org/2000/svg", "path");
  bellPath.setAttribute("d", "M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0");
  bellIcon.appendChild(bellPath);
  const bellText = document.createElement("span");
  bell.append(bellIcon, bellText);
  const nav = document.querySelector("header nav") || document.querySelector("header");
  if (nav) nav.prepend(bell); else root.prepend(bell);
  root.prepend(failed); // a failed delivery is said at the top of the page, not under the log
  bell.addEventListener("click", function () { openPanel(); });
  $("notify-close").addEventListener("click", function () { panel.close(); });
  panel.addEventListener("click", function (event) { if (event.target === panel) panel.close(); });
  failed.addEventListener("click", function () { openPanel(); });

  function openPanel() {
    if (!panel.open) panel.showModal();
  }

  function bellState(text, mood, explained) {
    bellText.textContent = text;
    bell.setAttribute("aria-label", text); // on a phone only the bell shows
    bell.dataset.mood = mood;
    bell.title = explained;
  }

  // --- The seat's channels ---
  function when(seconds) {
    return new Date(seconds * 1000).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  }

  function describe(d) {
    const where = d.service === "push" ? "this seat's browser (push)" : d.service + " (" + d.channel + ")";
    if (d.ok) return "Delivered to " + where + " " + when(d.at) + (d.kind === "test" ? " (test)" : "") + ".";
    let line = "The last " + (d.kind === "test" ? "test " : "") + "notification to " + where + " failed: " + d.error;
    if (!/[.!?]$/.test(line)) line += ".";
    if (d.retry_at) line += " Trying again at " + when(d.retry_at) + ".";
    else if (d.gave_up) line += " Keydom has stopped trying; check the settings.";
    return line;
  }

  function channelCount(settings) {
    return (settings.email ? 1 : 0) + (settings.urls || []).length + (settings.push || []).length;
  }

  // What the person typed in the form and has not saved yet: a refresh of the settings
  // (a late first load, a retry, the one after a turn) must not write over it.
  let edited = false;
  form.addEventListener("input", function () { edited = true; });
  let saves = 0; // answers to a change; a load that started before one is out of date

  function show(settings, refreshing) {
    current = settings;
    email.disabled = !settings.email_available && !settings.email;
    $("notify-email-off").hidden = settings.email_available;
    if (!(refreshing && edited)) {
      edited = false;
      email.value = settings.email || "";
      urls.value = (settings.urls || []).join("\n");
      remind.value = settings.remind_after_hours ? String(settings.remind_after_hours) : "";
      if (remind.value && remind.selectedIndex < 0) {
        const option = new Option(settings.remind_after_hours + " hours", String(settings.remind_after_hours));
        remind.add(option);
        remind.value = option.value;
      }
    }
    const count = channelCount(settings);
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
    failed.textContent = problem ? describe(problem) + " (Notifications…)" : "";
    if (problem) bellState("Notify: failed", "bad", "The last turn message could not be delivered: open to see why.");
    else if (count) bellState("Notifying", "on", "Turn messages are on for this seat (" + count + " channel" +
                              (count > 1 ? "s" : "") + "): open to change them.");
    else if (usual()) bellState("Notify as usual?", "off", "Turn on your usual notification settings for this game.");
    else bellState("Notify me", "off", "Be told when it is your turn: on this device, by e-mail or a notification service.");
    showPush();
    showUsual();
  }

  function say(text, bad) {
    message.textContent = text;
    message.classList.toggle("bad", !!bad);
  }

  async function load() {
    // A busy or restarting server (503, 429, a dropped connection) gets two more tries, so
    // the bell does not stay wrong, nor the usual settings unapplied, for the whole visit.
    for (const pause of [0, 1000, 3000]) {
      if (pause) await new Promise(function (resolve) { setTimeout(resolve, pause); });
      try {
        const before = saves;
        const response = await fetch(api, { headers: auth, cache: "no-store" });
        if (response.ok) {
          const settings = await response.json();
          if (saves === before) show(settings, true); // else a change's answer, newer, is shown
          return;
        }
        if (response.status < 429) return; // refused for good (a bad seat link): the panel stays as it is
      } catch (err) { /* offline or dropped: try again */ }
    }
  }

  async function send(method, path, body) {
    const response = await fetch(api + path, {
      method: method, headers: Object.assign({ "Content-Type": "application/json" }, auth),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(answer.detail || "The server refused that.");
    saves += 1;
    return answer;
  }

  // --- This browser's usual settings ---
  function usual() {
    try { return JSON.parse(localStorage.getItem(USUAL) || "null"); } catch (err) { return null; }
  }

  function remember() {
    if (!current) return;
    const mine = thisDevice();
    const kept = { email: current.email, urls: current.urls, remind_after_hours: current.remind_after_hours,
                   push: !!mine, every: every.checked };
    try {
      if (channelCount(current)) localStorage.setItem(USUAL, JSON.stringify(kept));
      else if (usual()) localStorage.setItem(USUAL, JSON.stringify(Object.assign(usual(), { every: every.checked })));
    } catch (err) { /* private mode: nothing kept */ }
  }

  function usualSummary(u) {
    const parts = [];
    if (u.push) parts.push("this device");
    if (u.email) parts.push(u.email);
    (u.urls || []).forEach(function (url) {
      const site = url.replace(/^([a-z0-9+.-]+:\/\/[^\/?#]*).*$/i, "$1"); // the service and host, not the secret path
      parts.push(site.length < url.length ? site + "/…" : site);
    });
    return parts.join(", ");
  }

  function showUsual() {
    const u = usual();
    if (u && typeof u.every === "boolean") every.checked = u.every;
    const offer = !!u && !!current && channelCount(current) === 0 && !!usualSummary(u);
    $("notify-usual").hidden = !offer;
    if (offer) $("notify-usual-text").textContent = "Your usual settings in this browser: " + usualSummary(u);
  }

  async function useUsual(quietly) {
    const u = usual();
    if (!u) return;
    try {
      if (u.email || (u.urls || []).length) {
        show(await send("PUT", "", { email: u.email || null, urls: u.urls || [],
                                     remind_after_hours: u.remind_after_hours || null }));
      }
      if (u.push && device) show(await send("PUT", "/push", device.toJSON()));
      say(quietly ? "Turned on with your usual settings from another game; change them here." :
          "Turned on with your usual settings.");
    } catch (err) {
      say("Your usual settings could not be used here: " + err.message, true);
      openPanel();
    }
  }
  $("notify-usual-use").addEventListener("click", function () { useUsual(false); });
  every.addEventListener("change", remember);

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const hours = remind.value ? Number(remind.value) : null;
    const body = {
      email: email.value.trim() || null,
      urls: urls.value.split("\n").map(function (u) { return u.trim(); }).filter(Boolean),
      remind_after_hours: hours,
    };
    try {
      show(await send("PUT", "", body));
      remember();
      say(channelCount(current) ? "Saved. Send a test to check it reaches you." : "Saved: notifications are off.");
    } catch (err) {
      say(err.message === "Failed to fetch" ? "Could not reach the server; nothing was saved." : err.message, true);
    }
  });

  $("notify-test").addEventListener("click", async function () {
    say("Sending…");
    try {
      const answer = await send("POST", "/test");
      const bad = answer.filter(function (d) { return !d.ok; });
      say(bad.length ? bad.map(describe).join(" ") : "Test sent to " + answer.length + " channel" +
          (answer.length > 1 ? "s" : "") + ".", bad.length > 0);
      load();
    } catch (err) {
      say(err.message === "Failed to fetch" ? "Could not reach the server." : err.message, true);
    }
  });

  // --- Push to this device (Web Push through static/push-sw.js) ---
  const pushButton = $("notify-push");
  const pushState = $("notify-push-state");
  const pushWhy = $("notify-push-why");
  const canPush = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function pushBlocker() {
    if (!window.isSecureContext) {
      return "Push cannot work here: this page comes over plain http from " + location.host + ", and browsers " +
        "allow push only on HTTPS pages (or on this computer's own localhost). Use e-mail or a notification URL " +
        "below, or ask the host to serve Keydom over HTTPS.";
    }
    if (!canPush) {
      return "This browser cannot receive push messages (on an iPhone or iPad: add Keydom to the Home Screen " +
        "from the Share menu, then open it from there). Use e-mail or a notification URL below.";
    }
    if (Notification.permission === "denied") {
      return "Notifications are blocked for this site in this browser: allow them in the site settings, then come back.";
    }
    return "";
  }

  function thisDevice() {
    if (!device || !current) return null;
    return (current.push || []).find(function (p) { return p.endpoint === device.endpoint; }) || null;
  }

  function showPush() {
    const blocker = pushBlocker();
    pushButton.disabled = !!blocker;
    if (blocker) {
      pushWhy.textContent = blocker;
      pushWhy.classList.add("bad");
      pushButton.textContent = "Notify this device";
      pushState.textContent = "";
      return;
    }
    const mine = thisDevice();
    pushButton.textContent = mine ? "Stop notifying this device" : "Notify this device";
    pushButton.classList.toggle("primary", !mine);
    pushState.textContent = mine ? "On for this device." : "";
  }

  function keyBytes(text) {
    const raw = atob((text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function activated(registration) {
    return new Promise(function (resolve) {
      if (registration.active) { resolve(registration); return; }
      const worker = registration.installing || registration.waiting;
      worker.addEventListener("statechange", function () { if (worker.state === "activated") resolve(registration); });
    });
  }

  async function registration() {
    // The worker's scope is /static/: it controls no page, it only receives pushes.
    return activated(await navigator.serviceWorker.register("/static/push-sw.js"));
  }

  async function findDevice() {
    if (pushBlocker()) return;
    try {
      const existing = await navigator.serviceWorker.getRegistration("/static/");
      device = existing ? await existing.pushManager.getSubscription() : null;
    } catch (err) { device = null; }
  }

  pushButton.addEventListener("click", async function () {
    const mine = thisDevice();
    try {
      if (mine) {
        show(await send("DELETE", "/push/" + mine.id));
        remember();
        say("This device will not be notified in this game any more.");
        return;
      }
      pushState.textContent = "Asking the browser…";
      if (await Notification.requestPermission() !== "granted") {
        showPush();
        say("The browser did not allow notifications for this site.", true);
        return;
      }
      const reg = await registration();
      const key = keyBytes(current.push_key);
      device = await reg.pushManager.getSubscription();
      if (device && device.options && device.options.applicationServerKey &&
          btoa(String.fromCharCode.apply(null, new Uint8Array(device.options.applicationServerKey))) !==
          btoa(String.fromCharCode.apply(null, key))) {
        await device.unsubscribe(); // made with a key this server no longer has
        device = null;
      }
      if (!device) device = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      show(await send("PUT", "/push", device.toJSON()));
      remember();
      say("This device will be notified, also with this tab and the browser closed. Send a test to see it.");
    } catch (err) {
      showPush();
      say("Push could not be turned on: " + err.message, true);
    }
  });

  async function start() {
    showPush(); // whether push can work here is known before the server answers
    await findDevice();
    await load();
    const u = usual();
    if (u && u.every && current && channelCount(current) === 0 && usualSummary(u)) await useUsual(true);
  }

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
  start();
  if (document.hidden) look().catch(function () {}); // opened straight into a background tab
  window.keydomNotify = { get signalled() { return signalled; } };
})();
