// Keydom replay page: the controls fetch one step at a time, rendered by the server.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const gameId = root.dataset.game;
  const token = root.dataset.token || "";
  const body = document.getElementById("replay-body");
  let loading = false;

  function controls() { return body.querySelector(".replay-controls"); }

  async function show(at, asSeat) {
    if (loading) return;
    loading = true;
    const query = new URLSearchParams({ at: String(at) });
    if (asSeat !== "") query.set("as", asSeat);
    const headers = token ? { Authorization: "Bearer " + token } : {};
    try {
      const response = await fetch("/g/" + gameId + "/replay/fragment?" + query, { headers: headers, cache: "no-store" });
      if (!response.ok) return;
      body.innerHTML = await response.text();
      history.replaceState(null, "", "?" + query.toString());
    } finally {
      loading = false;
    }
  }

  body.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-step]");
    if (!button || button.disabled) return;
    const bar = controls();
    const at = Number(bar.dataset.at), last = Number(bar.dataset.steps) - 1;
    const next = { first: 0, back: at - 1, forward: at + 1, last: last }[button.dataset.step];
    show(Math.max(0, Math.min(last, next)), bar.dataset.as);
  });
  body.addEventListener("change", function (event) {
    const bar = controls();
    if (event.target.matches(".replay-slider")) show(event.target.value, bar.dataset.as);
    if (event.target.matches(".replay-seat")) show(0, event.target.value);
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.closest("input, select, textarea")) return;
    const step = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
    const button = step && body.querySelector('button[data-step="' + step + '"]');
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
})();
