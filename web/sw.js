// Parlour's service worker: the whole site works offline after the first visit, and a new
// release never breaks a tab that is already open.
//
// build.py replaces the object between the BUILD markers with this build's id and the list
// of every file of dist/ (relative to this script), so a new build is a new sw.js: the
// browser installs it and it fills a cache named by the build id. Only relative URLs: the
// site works under any sub-path.
//
// A release under an open tab. The game screens are loaded lazily under hashed names
// (js/<game>-<hash>.js), and the host replaces the whole site at once, so a tab opened
// before a release asks later for files the host no longer has. So:
// - the new build takes over at once (skipWaiting, claim): the next page load, a reload or a
//   new tab, runs it, even while older tabs stay open;
// - each page is pinned to the build that served it: the navigation that loads a page records
//   "client id -> build id" (kept in the cache PINS_CACHE, since a service worker's memory
//   does not outlive it), and every later request of that page is answered from its own
//   build's cache first. An engine worker names its page's build in its URL (?build=, see
//   engine-client.js). So an open tab keeps running the build it started with, whole (a game
//   screen, the engine worker restarted after a crash, its rules), online and offline;
// - an older build's cache is deleted only once no open page uses it (checked on activation
//   and after every page load); while a page of unknown build is open (loaded before it
//   was pinned) every cache is kept. On a first install the pages open are of this build.
// A file in no cache of the right build is looked up in the others (a hashed name is the
// same file in any build), then fetched.
const BUILD = /*BUILD*/{"build_id": "dev", "files": []}/*END-BUILD*/;

const CACHE_PREFIX = "parlour-";
const CACHE_NAME = CACHE_PREFIX + BUILD.build_id;
const PINS_CACHE = "parlour.pins";  // not a build's cache: its name lacks CACHE_PREFIX
const SCOPE = new URL("./", self.location.href);
const INDEX_URL = new URL("./index.html", SCOPE).href;
const PINS_URL = new URL("./.parlour-pins", SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    // cache: "no-cache" asks the server about every file the HTTP cache holds (its ETag):
    // a file is never stored from an older build, and what the page of a first visit has
    // just downloaded (the runtime, the page's own files) comes back as a 304 without a body
    // instead of being sent a second time.
    await Promise.all(BUILD.files.map(async (file) => {
      const url = new URL(file, SCOPE).href;
      const response = await fetch(new Request(url, { cache: "no-cache" }));
      if (!response.ok) {
        throw new Error(`precaching ${file} failed: HTTP ${response.status}`);
      }
      await cache.put(url, response);
    }));
    // The new build is complete in its cache: it takes over at once, for the next page
    // load; the pages already open keep their own build (see above).
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await self.clients.claim();
    await pinFirstVisit();
    await dropUnusedBuilds();
  })());
});

// ----- which page runs which build ------------------------------------------------------------

let pins = null;           // Map client id -> {build, at}, read once from PINS_CACHE
// A page is pinned as its navigation is answered, before it is an open client: its pin is
// forgotten only once it is this old and the page is not open.
const PIN_GRACE_MS = 10 * 60_000;
let pinsWritten = Promise.resolve();

async function readPins() {
  if (pins) return pins;
  let entries = [];
  try {
    const stored = await (await caches.open(PINS_CACHE)).match(PINS_URL);
    if (stored) entries = Object.entries(await stored.json());
  } catch { /* none kept yet, or unreadable: start afresh */ }
  if (!pins) pins = new Map(entries.filter(([, pin]) => pin && typeof pin.build === "string"));
  return pins;
}

function writePins() {
  const body = JSON.stringify(Object.fromEntries(pins));
  pinsWritten = pinsWritten.then(async () => {
    const cache = await caches.open(PINS_CACHE);
    await cache.put(PINS_URL, new Response(body, { headers: { "Content-Type": "application/json" } }));
  }).catch(() => { /* storage refused: pins live in memory only */ });
  return pinsWritten;
}

/** The build a client runs: a pinned page's, or the one an engine worker names in its URL. */
async function buildOf(client) {
  const pinned = (await readPins()).get(client.id);
  if (pinned) return pinned.build;
  try {
    return new URL(client.url).searchParams.get("build");
  } catch {
    return null;
  }
}

/** On a first install (no older build's cache) the pages open were loaded from the network,
 * and they are of this build: pin them to it. */
async function pinFirstVisit() {
  const names = await caches.keys();
  if (names.some((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)) return;
  const known = await readPins();
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    if (!known.has(client.id)) known.set(client.id, { build: BUILD.build_id, at: Date.now() });
  }
  await writePins();
}

/** Forget the pins of closed pages; delete the caches of builds no open page runs. */
async function dropUnusedBuilds() {
  const open = await self.clients.matchAll({ includeUncontrolled: true, type: "all" });
  const known = await readPins();
  const openIds = new Set(open.map((client) => client.id));
  let changed = false;
  for (const [id, pin] of [...known.entries()]) {
    if (!openIds.has(id) && Date.now() - pin.at > PIN_GRACE_MS) { known.delete(id); changed = true; }
  }
  if (changed) await writePins();
  const used = new Set([BUILD.build_id]);
  for (const client of open) {
    const build = await buildOf(client);
    if (build) used.add(build);
    else if (client.type === "window") return;  // a page of unknown build: keep them all
  }
  const names = await caches.keys();
  await Promise.all(names
    .filter((name) => name.startsWith(CACHE_PREFIX) && !used.has(name.slice(CACHE_PREFIX.length)))
    .map((name) => caches.delete(name)));
}

// ----- answering requests ---------------------------------------------------------------------

function isNavigation(request) {
  return request.mode === "navigate" ||
    (request.method === "GET" && (request.headers.get("accept") || "").includes("text/html"));
}

/** The file at `key` from the cache of `build`, else from this build's, else from any. */
async function cached(key, build) {
  if (build && build !== BUILD.build_id && await caches.has(CACHE_PREFIX + build)) {
    const own = await (await caches.open(CACHE_PREFIX + build)).match(key);
    if (own) return own;
  }
  const current = await (await caches.open(CACHE_NAME)).match(key);
  if (current) return current;
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX)) continue;
    const found = await (await caches.open(name)).match(key);
    if (found) return found;
  }
  return null;
}

async function answerNavigation(event, url) {
  // A page load is always this build's.
  const cache = await caches.open(CACHE_NAME);
  const key = url.origin + url.pathname;
  let found = await cache.match(key);
  if (!found && url.pathname.endsWith("/")) found = await cache.match(key + "index.html");
  if (!found && isNavigation(event.request)) found = await cache.match(INDEX_URL);
  if (event.resultingClientId) {
    (await readPins()).set(event.resultingClientId, { build: BUILD.build_id, at: Date.now() });
    event.waitUntil(writePins().then(dropUnusedBuilds));
  }
  return found || fetch(event.request);
}

async function answer(event, url) {
  const client = event.clientId ? await self.clients.get(event.clientId) : null;
  const build = client ? await buildOf(client) : null;
  // Query strings (?speed=0) and fragments never name a different file here.
  const found = await cached(url.origin + url.pathname, build);
  return found || fetch(event.request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.href.startsWith(SCOPE.href)) return;
  const navigation = request.mode === "navigate" || isNavigation(request);
  event.respondWith(navigation ? answerNavigation(event, url) : answer(event, url));
});
