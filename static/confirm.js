// A button that undoes something for someone else (re-opening a seat) asks first: a
// button or form with data-confirm="question" goes ahead only when the question is accepted.
// (An inline onclick would break the pages' Content Security Policy.)
document.addEventListener("submit", function (event) {
  const asker = (event.submitter && event.submitter.closest("[data-confirm]")) || event.target.closest("[data-confirm]");
  if (asker && !window.confirm(asker.dataset.confirm)) event.preventDefault();
}, true);
