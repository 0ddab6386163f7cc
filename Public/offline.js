// Progressive enhancement for reading the site offline (README, "Offline and installable"):
// registers the service worker (sw.js, at the site's root) and, on a page the worker served
// from its cache because the network failed, shows when the data is from and how old it is.
// Without this file, or without JavaScript, the site works as before, online only.
(() => {
  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  // Imports are checked for changes too (sw.js names the build's version anyway).
  navigator.serviceWorker.register(script.dataset.worker, { updateViaCache: "none" }).catch(() => {});

  const note = () => document.querySelector(".offline-note");
  function show() {
    const element = note();
    if (!element || !element.dataset.time) return;
    const lang = document.documentElement.lang || undefined;
    const time = new Date(element.dataset.time);
    if (isNaN(time)) return;
    const zone = element.dataset.zone || undefined;
    const minutes = Math.round((Date.now() - time.getTime()) / 60000);
    // The time alone for data of today; with the weekday once it is a day old. A 24-hour
    // clock, as the page itself shows times (LocalTimeFormatter.time).
    const clock = new Intl.DateTimeFormat(lang, Object.assign(
      { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone },
      minutes >= 20 * 60 ? { weekday: "short" } : {}));
    const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
    const age = minutes < 60 ? relative.format(-Math.max(minutes, 0), "minute")
      : minutes < 48 * 60 ? relative.format(-Math.round(minutes / 60), "hour")
      : relative.format(-Math.round(minutes / 1440), "day");
    element.textContent = element.dataset.text.replace("{time}", clock.format(time)).replace("{age}", age);
    element.hidden = false;
  }
  function hide() {
    const element = note();
    if (element) element.hidden = true;
  }
  // The worker says when it answered this page from its cache (a network that fails while
  // the phone believes it is online); the browser says when it knows it is offline.
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "isobar-offline") show();
  });
  navigator.serviceWorker.startMessages();
  window.addEventListener("offline", show);
  window.addEventListener("online", hide);
  if (!navigator.onLine) document.addEventListener("DOMContentLoaded", show);
})();
