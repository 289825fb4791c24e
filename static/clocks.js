// Time left for each timed decision (app/bots/clocks.py): the server writes the seconds
// left when it drew the page (data-left); this counts them down, so a page left open
// stays right without asking the server. Also used by the home page's "Your games".
(function () {
  "use strict";
  // The same words as the server's duration(): "3 days", "2 d 5 h", "36 hours", "4 min".
  function duration(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    const days = seconds >= 2 * 86400 ? Math.floor(seconds / 86400) : 0; // up to 2 days: in hours
    const hours = Math.floor((seconds - days * 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const plural = function (n, word) { return n + " " + word + (n === 1 ? "" : "s"); };
    if (days && !hours) return plural(days, "day");
    if (days) return days + " d " + hours + " h";
    if (hours && !minutes) return plural(hours, "hour");
    if (hours) return hours + " h " + minutes + " min";
    if (minutes) return minutes + " min";
    return "under a minute";
  }
  function text(left, expired) {
    return expired || left <= 0 ? "time ran out" : duration(left) + " left";
  }
  let drawn = Date.now(); // when the numbers on the page were written
  function tick() {
    const gone = (Date.now() - drawn) / 1000;
    document.querySelectorAll(".clock[data-left]").forEach(function (clock) {
      const left = Number(clock.dataset.left) - gone;
      const out = clock.querySelector(".left");
      if (out) out.textContent = text(left, clock.dataset.expired === "yes");
      clock.classList.toggle("out", clock.dataset.expired === "yes" || left <= 0);
    });
  }
  document.addEventListener("keydom:updated", function () { drawn = Date.now(); });
  setInterval(tick, 20000);
  window.keydomClocks = { duration: duration, text: text, redrawn: function () { drawn = Date.now(); } };
})();
