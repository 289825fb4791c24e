// Takebacks: "Undo my last move", "Ask to take back", and the answers to a request
// (templates/_takeback.html). Each click posts to the API; the page then redraws.
(function () {
  "use strict";
  const root = document.getElementById("game");
  const body = document.getElementById("game-body");
  if (!root || !body || !root.dataset.token) return;
  const paths = { undo: "undo", ask: "takeback", accept: "takeback/answer", decline: "takeback/answer",
                  withdraw: "takeback/withdraw" };

  function payload(kind, button) {
    const request = Number(button.dataset.request);
    if (kind === "accept" || kind === "decline") return { request: request, accept: kind === "accept" };
    if (kind === "withdraw") return { request: request };
    return { version: window.keydom ? window.keydom.version : Number(root.dataset.version) };
  }

  function tell(text) {
    const notice = body.querySelector(".bar-notice");
    if (!notice) return;
    notice.textContent = text;
    notice.hidden = !text;
  }

  body.addEventListener("click", async function (event) {
    const button = event.target.closest("[data-takeback]");
    if (!button || button.disabled) return;
    const kind = button.dataset.takeback;
    button.disabled = true;
    try {
      const response = await fetch("/api/games/" + root.dataset.game + "/" + paths[kind], {
        method: "POST",
        headers: { "Content-Type": "application/json", "Authorization": "Bearer " + root.dataset.token },
        body: JSON.stringify(payload(kind, button)),
      });
      if (window.keydom) await window.keydom.refresh();
      if (!response.ok) {
        let detail = "That did not work; the page is up to date now.";
        try { detail = (await response.json()).detail || detail; } catch (e) { /* not JSON */ }
        tell(detail);
      }
    } catch (err) {
      tell("The server could not be reached; try again.");
    } finally {
      button.disabled = false;
    }
  });
})();
