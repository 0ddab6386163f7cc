// The service worker's logic (README, "Offline and installable"), imported by sw.js, which
// defines VERSION (this build's digest) and PRECACHE (paths relative to the site's root).
//
// - Only requests inside the worker's scope (the folder of sw.js: base_url's path) on its
//   own origin are handled; anything else goes to the network untouched and is never kept.
// - Pages and data: the network first, kept when it answers; the kept copy when it fails.
// - The theme's assets (assets/): the kept copy first. They change only with VERSION, and a
//   new VERSION installs a new worker, which fetches them again.
// - Caches are named after the scope and the version: a new worker deletes only its own
//   scope's old ones, never those of another site on the same origin.
const SCOPE = self.registration.scope;
const PREFIX = "isobar " + SCOPE + " ";
const CACHE = PREFIX + VERSION;
const ASSETS = new URL("assets/", SCOPE).href;

function owned(url) {
  return url.startsWith(SCOPE) && new URL(url).origin === self.location.origin;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Fresh from the server, not the HTTP cache: these copies last until the next version.
    await cache.addAll(PRECACHE.map((path) => new Request(new URL(path, SCOPE).href, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      // The pages a visitor opened stay readable; the old version's assets go.
      const old = await caches.open(name);
      for (const request of await old.keys()) {
        if (!request.url.startsWith(ASSETS) && !(await cache.match(request))) await cache.put(request, await old.match(request));
      }
      await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A folder's address and its index.html are one page.
function alias(url) {
  const address = new URL(url);
  address.search = "";
  if (address.pathname.endsWith("/")) address.pathname += "index.html";
  else if (address.pathname.endsWith("/index.html")) address.pathname = address.pathname.slice(0, -"index.html".length);
  else return null;
  return address.href;
}

// Whether a newer worker is installing, waiting or has taken over (it deletes this one's
// cache when it takes over; this one's state says so last, after the takeover).
function superseded() {
  const registration = self.registration;
  return Boolean(registration.installing || registration.waiting) || replaced();
}

function replaced() {
  return self.serviceWorker?.state === "redundant";
}

// Keeps a copy in the background: the page gets its answer at once, whatever the copy takes.
// A superseded worker keeps nothing: caches.open makes a cache that is missing, and a copy
// written after the new worker deleted this one's cache would bring it back for good. A
// copy begun before and finished after the takeover is deleted here.
function keep(event, response) {
  // Only whole, successful answers from this origin (no opaque, redirected or partial ones).
  if (response.ok && response.status === 200 && response.type === "basic" && !response.redirected && owned(response.url)) {
    const copy = response.clone();
    event.waitUntil((async () => {
      if (superseded()) return;
      await (await caches.open(CACHE)).put(event.request, copy);
      if (replaced()) await caches.delete(CACHE);
    })());
  }
  return response;
}

// Read with caches.match, which, unlike caches.open, never makes a missing cache.
async function kept(request) {
  const other = alias(request.url);
  return (await caches.match(request, { cacheName: CACHE, ignoreSearch: true })) || (other && (await caches.match(other, { cacheName: CACHE }))) || null;
}

// Tells the page it is a kept copy, once the page exists (its script shows the note).
async function tell(clientId) {
  for (let attempt = 0; attempt < 50 && clientId; attempt++) {
    const client = await self.clients.get(clientId);
    if (client) {
      client.postMessage({ type: "isobar-offline" });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !owned(request.url)) return;
  // A stream of events (isobar serve's reload) never ends: nothing to keep, nothing to
  // answer offline, and a copy of it would wait forever.
  if ((request.headers.get("accept") || "").includes("text/event-stream")) return;
  if (request.url.startsWith(ASSETS)) {
    event.respondWith((async () => (await kept(request)) || keep(event, await fetch(request)))());
    return;
  }
  event.respondWith((async () => {
    try {
      return keep(event, await fetch(request));
    } catch (failure) {
      const copy = await kept(request);
      if (!copy) throw failure;
      if (request.mode === "navigate") event.waitUntil(tell(event.resultingClientId));
      return copy;
    }
  })());
});
