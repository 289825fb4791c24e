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
  }
  seats.addEventListener("change", sync);
  sync();
})();
