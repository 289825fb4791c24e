// Show one name box per chosen seat.
(function () {
  const seats = document.getElementById("seats");
  if (!seats) return;
  function sync() {
    const n = Number(seats.value);
    document.querySelectorAll(".names li").forEach(function (li) {
      const on = Number(li.dataset.seat) < n;
      li.hidden = !on;
      li.querySelector("input").disabled = !on;
    });
    // Options meant for other player counts (e.g. Town Hall needs 2+) are hidden.
    document.querySelectorAll("[data-min]").forEach(function (label) {
      const on = n >= Number(label.dataset.min) && n <= Number(label.dataset.max);
      label.hidden = !on;
      label.querySelectorAll("input, select").forEach(function (input) { input.disabled = !on; });
    });
  }
  seats.addEventListener("change", sync);
  sync();
})();
