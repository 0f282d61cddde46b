// Parlour's service worker: the whole site works offline after the first visit.
//
// build.py replaces the object between the BUILD markers with this build's id and the list
// of every file of dist/ (relative to this script), so a new build is a new sw.js: the
// browser installs it, it fills a cache named by the build id, and on activation the caches
// of older builds are deleted. Only relative URLs: the site works under any sub-path.
const BUILD = /*BUILD*/{"build_id": "dev", "files": []}/*END-BUILD*/;

const CACHE_PREFIX = "parlour-";
const CACHE_NAME = CACHE_PREFIX + BUILD.build_id;
const SCOPE = new URL("./", self.location.href);
const INDEX_URL = new URL("./index.html", SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    // cache: "reload" skips the HTTP cache, so a file is never stored from an older build.
    await Promise.all(BUILD.files.map(async (file) => {
      const url = new URL(file, SCOPE).href;
      const response = await fetch(new Request(url, { cache: "reload" }));
      if (!response.ok) {
        throw new Error(`precaching ${file} failed: HTTP ${response.status}`);
      }
      await cache.put(url, response);
    }));
    // The new build is complete in its cache: take over at once rather than waiting for
    // every tab to close. Pages keep the files they already loaded; the next load is new.
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

function isNavigation(request) {
  return request.mode === "navigate" ||
    (request.method === "GET" && (request.headers.get("accept") || "").includes("text/html"));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.href.startsWith(SCOPE.href)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE_NAME);
    // Query strings (?speed=0) and fragments never name a different file here.
    const key = url.origin + url.pathname;
    let cached = await cache.match(key);
    if (!cached && isNavigation(request)) {
      const path = url.pathname;
      if (path.endsWith("/")) cached = await cache.match(key + "index.html");
      if (!cached) cached = await cache.match(INDEX_URL);
    }
    if (cached) return cached;
    return fetch(request);
  })());
});
