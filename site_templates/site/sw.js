// charnel's offline copy of one game (see charnel.site.offline): after a visit the game's
// pages, faces, scripts and search index are kept, and answered from when the network fails.
// Online, every request goes to the network first, so a reader sees what the server has.
"use strict";

const CACHE = `charnel${GAME}${VERSION}`;
// Files fetched at once while the copy is made, at low priority: the copy is made in the
// background and leaves the reader's own requests most of the connections.
const BATCH = 4;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (let i = 0; i < FILES.length; i += BATCH) {
      await cache.addAll(FILES.slice(i, i + BATCH)
        .map((url) => new Request(url, { cache: "reload", priority: "low" })));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  // the caches of older builds of this game go; other games' caches stay
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(`charnel${GAME}`) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function saved(request) {
  const cache = await caches.open(CACHE);
  // a file is kept by its address without the query: ?q=hound is the search page, and
  // Pagefind asks for its files with a query of its own
  return cache.match(request, { ignoreSearch: true });
}

async function marked(response) {
  // a page answered from the copy says so: site.js shows a note when <html> has data-offline
  const text = await response.text();
  const headers = new Headers(response.headers);
  return new Response(text.replace("<html ", "<html data-offline "), {
    status: response.status, statusText: response.statusText, headers,
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/sql/")) {
    return;
  }
  event.respondWith((async () => {
    try {
      return await fetch(request);
    } catch (offline) {
      const copy = await saved(request);
      if (!copy) throw offline;
      return request.mode === "navigate" ? marked(copy) : copy;
    }
  })());
});
