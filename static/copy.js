// Copy buttons beside the seat links.
document.addEventListener("click", async function (event) {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (err) {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied ✓";
  setTimeout(function () { button.textContent = "Copy"; }, 1500);
});
