// Progressive enhancement for the share section: the page works without this file.
// Each button starts `hidden` and is shown only where the browser can do what it offers.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button.copy-link")) {
    if (!navigator.clipboard || !window.isSecureContext) continue;
    button.hidden = false;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(button.dataset.url);
        button.textContent = button.dataset.done;
      } catch (error) {
        // Permission refused: the link stays visible beside the button.
      }
    });
  }
  for (const button of document.querySelectorAll("button.web-share")) {
    if (typeof navigator.share !== "function") continue;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: button.dataset.title, url: button.dataset.url }).catch(() => {});
    });
  }
});
