// charnel site: card lists filter and sort in the page; search runs Pagefind as you type.
// Everything works without this file except search.
"use strict";

function setupList(box) {
  // A list's filters and sort live in its URL (?type=champion&text=blow&sort=-name), so a
  // filtered list can be shared, bookmarked and reloaded as it was.
  const table = box.querySelector("table.cards");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const original = rows.slice();
  const controls = box.querySelector(".list-controls");
  if (controls) controls.hidden = false;
  const text = box.querySelector("[data-filter-text]");
  const selects = Array.from(box.querySelectorAll("select[data-filter]"));
  const count = box.querySelector("[data-count]");
  const buttons = Array.from(table.querySelectorAll("th button[data-sort]"));
  let sorted = ""; // "" (the page's order), "name" or "-name" (descending)
  // a number column between two bounds, either left empty: ?number=st&min=7
  const number = box.querySelector("select[data-filter-number]");
  const min = box.querySelector("[data-filter-min]");
  const max = box.querySelector("[data-filter-max]");
  const bounds = number ? [["number", number], ["min", min], ["max", max]] : [];

  function inRange(row) {
    if (!number || !number.value || (min.value === "" && max.value === "")) return true;
    const value = row.dataset[number.value] ?? "";
    if (value === "") return false;
    const n = Number(value);
    return (min.value === "" || n >= Number(min.value)) && (max.value === "" || n <= Number(max.value));
  }

  function apply() {
    const needle = text ? text.value.trim().toLowerCase() : "";
    // a facet a card may have several values of lists them joined by "|"
    const chosen = (row) => inRange(row) && selects.every(
      (s) => !s.value || (row.dataset[s.dataset.filter] || "").split("|").includes(s.value));
    let shown = 0;
    for (const row of rows) {
      const ok = (!needle || row.dataset.name.includes(needle) || row.dataset.text.includes(needle)) &&
        chosen(row);
      row.hidden = !ok;
      if (ok) shown++;
    }
    let said = `${shown} of ${rows.length} cards`;
    if (!shown && needle.length >= 3) {
      // nothing has these words: take them for a misspelt name and show the nearest names
      const near = nearest(needle, rows.filter(chosen));
      for (const row of near) row.hidden = false;
      if (near.length) said = `no card is named “${text.value.trim()}”; the nearest: ${near.length}`;
    }
    if (count) count.textContent = said;
  }

  function sortBy(spec) {
    const key = spec.replace(/^-/, "");
    const button = buttons.find((b) => b.dataset.sort === key);
    for (const other of table.querySelectorAll("th[aria-sort]")) other.removeAttribute("aria-sort");
    if (!button) {
      sorted = "";
      rows.splice(0, rows.length, ...original);
      body.append(...rows);
      return;
    }
    const dir = spec.startsWith("-") ? -1 : 1;
    sorted = spec;
    button.parentElement.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
    const numeric = "numeric" in button.dataset;
    const value = (row) => row.dataset[key] ?? "";
    rows.sort((a, b) => {
      const x = value(a), y = value(b);
      if (numeric) {
        if (x === "" || y === "") return (x === "") - (y === "");
        return dir * (Number(x) - Number(y));
      }
      return dir * x.localeCompare(y);
    });
    body.append(...rows);
  }

  function remember() {
    const params = new URLSearchParams(location.search);
    for (const s of selects) {
      if (s.value) params.set(s.dataset.filter, s.value);
      else params.delete(s.dataset.filter);
    }
    for (const [name, input] of bounds) {
      if (input.value) params.set(name, input.value);
      else params.delete(name);
    }
    const needle = text ? text.value.trim() : "";
    if (needle) params.set("text", needle);
    else params.delete("text");
    if (sorted) params.set("sort", sorted);
    else params.delete("sort");
    const query = params.toString();
    history.replaceState(history.state, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  }

  function restore() {
    const params = new URLSearchParams(location.search);
    for (const s of selects) {
      const wanted = params.get(s.dataset.filter) || "";
      s.value = Array.from(s.options).some((o) => o.value === wanted) ? wanted : "";
    }
    for (const [name, input] of bounds) input.value = params.get(name) || "";
    if (text) text.value = params.get("text") || "";
    sortBy(params.get("sort") || "");
    apply();
  }

  if (text) text.addEventListener("input", () => { apply(); remember(); });
  for (const s of selects) s.addEventListener("change", () => { apply(); remember(); });
  for (const [, input] of bounds) input.addEventListener("input", () => { apply(); remember(); });
  for (const button of buttons) {
    button.addEventListener("click", () => {
      const key = button.dataset.sort;
      sortBy(sorted === key ? `-${key}` : key);
      remember();
    });
  }
  window.addEventListener("popstate", restore);
  restore();
}

function likeness(a, b) {
  // 1 - edit distance / the longer length: 1 for the same name, 0.89 for "ash hund"
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length, 1);
}

function nearest(needle, rows, most = 3, least = 0.75) {
  // the rows whose names are most like `needle` (as `charnel search` finds them), best first
  return rows
    .map((row) => [likeness(needle, row.dataset.name), row])
    .filter(([score]) => score >= least)
    .sort((x, y) => y[0] - x[0])
    .slice(0, most)
    .map(([, row]) => row);
}

const RULE = /^\d+(\.\d+[a-z]?)?$/i;
const PAGE = 10; // results shown at a time
// A query in the card search language (docs/search.md): a field, a comparison, a negation,
// `or` or parentheses. Plain words are text search, which Pagefind answers in the browser.
const FIELD_QUERY = /(^|[\s(])-?[a-z]+(:|!=|<=|>=|=|<|>)\S|(^|[\s(])-\S|[()]|\s(or|and)\s/i;
// this game's folder ("/<game>/"); its pages, search and bundles are under it
const HOME = document.documentElement.dataset.home || "/";
const ASSET_BASE = "/assets/"; // the site's shared scripts, as base.html links site.js
const loading = {};

function ownReading() {
  // this game's reading: inline in the pages that host the search box (its home and search
  // pages, rendered once the index is made), as data and never run; other pages ask for it
  const inline = document.getElementById("search-reading");
  if (inline) return JSON.parse(inline.textContent);
  return fetch(`${HOME}assets/search.json`).then((response) => response.json());
}

async function readingOf(scope) {
  // a game's reading (its search.json): its bundles (the main one, and the delta of the
  // pages changed since, when there is one) and the main bundle's ids of those pages, to
  // leave out; "all" merges every game's, this game's first
  if (scope !== "all") return ownReading();
  const games = await (await fetch(document.documentElement.dataset.games)).json();
  const mine = games.find((g) => g.home === HOME);
  const chosen = [mine, ...games.filter((g) => g !== mine)];
  const readings = await Promise.all(chosen.map(async (g) => (
    g === mine ? ownReading() : (await fetch(g.search)).json())));
  return { bundles: readings.flatMap((r) => r.bundles), hidden: readings.flatMap((r) => r.hidden) };
}

function loadPagefind(scope = "game") {
  // one load per scope for the whole page: several forms ask at once, and merging twice
  // duplicates results; each scope is its own instance of Pagefind (a module URL of its own)
  if (!loading[scope]) {
    loading[scope] = (async () => {
      const reading = readingOf(scope); // fetched beside the main bundle's script
      const pagefind = await import(`${HOME}pagefind/pagefind.js?${scope}`);
      await pagefind.options({ excerptLength: 24 });
      const { bundles, hidden } = await reading;
      for (const bundle of bundles.slice(1)) await pagefind.mergeIndex(bundle);
      await pagefind.init();
      return { pagefind, hidden: new Set(hidden) };
    })();
  }
  return loading[scope];
}

let searchID = 0;

async function searchPages(scope, query, filters) {
  // Pagefind's search over the merged bundles, without the main bundle's results for pages
  // changed or removed since it was made (their delta results stand in for them), each once;
  // null when a later keystroke superseded it. It runs once typing pauses: Pagefind's
  // debouncedSearch would load the word index of every prefix typed on the way (`h`, `ho`,
  // ...), in each bundle, a request and several KB each.
  const mine = ++searchID;
  const { pagefind, hidden } = await loadPagefind(scope);
  await new Promise((resolve) => setTimeout(resolve, 120));
  if (mine !== searchID) return null;
  const search = await pagefind.search(query, { filters });
  if (mine !== searchID) return null;
  const seen = new Set();
  const results = search.results.filter((r) => !hidden.has(r.id) && !seen.has(r.id) && seen.add(r.id));
  return { ...search, results };
}

function scopeOf(form) {
  const chosen = form.querySelector("select[data-search-scope]");
  return chosen && chosen.value === "all" ? "all" : "game";
}

async function exists(url) {
  try {
    const response = await fetch(url, { method: "HEAD" });
    return response.ok;
  } catch (e) {
    return false;
  }
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

function chosenFilters(form) {
  const filters = {};
  for (const select of form.querySelectorAll("select[data-search-filter]")) {
    if (select.value) filters[select.dataset.searchFilter] = select.value;
  }
  return filters;
}

const WIDE = "(min-width: 701px)"; // as the stylesheet's phone layout begins below it

function showChosen(form) {
  // a closed filters box says which filters are on, so none works unseen
  const said = form.querySelector("[data-filters-on]");
  if (!said) return;
  const on = Object.entries(chosenFilters(form)).map(([name, value]) => `${name}: ${value}`);
  const scope = form.querySelector("select[data-search-scope]");
  if (scope && scope.value === "all") on.unshift("all games");
  said.textContent = on.length ? `(${on.join(", ")})` : "";
}

async function setupFilters(form) {
  const box = form.querySelector(".search-filters");
  if (!box) return;
  const options = form.querySelector("[data-search-options]");
  const params = new URLSearchParams(location.search);
  const refresh = () => {
    showChosen(form);
    form.dispatchEvent(new Event("refresh"));
  };
  const scope = form.querySelector("select[data-search-scope]");
  if (scope) {
    const games = await (await fetch(document.documentElement.dataset.games)).json();
    if (games.length > 1) scope.closest("label").hidden = false;
    if (params.get("scope") === "all") scope.value = "all";
    scope.addEventListener("change", refresh);
  }
  const all = await (await loadPagefind()).pagefind.filters();
  const order = (box.dataset.order || "").split(" ");
  const names = Object.keys(all).sort((a, b) => {
    const i = order.indexOf(a), j = order.indexOf(b);
    return (i < 0 ? 99 : i) - (j < 0 ? 99 : j) || a.localeCompare(b);
  });
  for (const name of names) {
    const label = document.createElement("label");
    label.textContent = name.charAt(0).toUpperCase() + name.slice(1) + " ";
    const select = document.createElement("select");
    select.dataset.searchFilter = name;
    select.append(new Option("any", ""));
    for (const value of Object.keys(all[name]).sort()) select.append(new Option(value, value));
    if (params.has(`f.${name}`) && Object.keys(all[name]).includes(params.get(`f.${name}`))) {
      select.value = params.get(`f.${name}`);
    }
    label.append(select);
    box.append(label);
    select.addEventListener("change", refresh);
  }
  // on a phone the box and the results come first: the filters wait, closed, below the box
  if (options) {
    options.open = window.matchMedia(WIDE).matches;
    options.hidden = false;
  }
  showChosen(form);
  form.dataset.filtersReady = "";
  if (Object.keys(chosenFilters(form)).length || (scope && scope.value === "all")) {
    form.dispatchEvent(new Event("refresh"));
  }
}

function rememberQuery(form, query) {
  // the query, the scope and the filters live in the URL: Back, reload and a shared link
  // show the same search
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (form.dataset.filtersReady === undefined) {
    // the filters are not built yet: the ones the URL asks for stay in it
    for (const [name, value] of new URLSearchParams(location.search)) {
      if (name === "scope" || name.startsWith("f.")) params.set(name, value);
    }
  } else {
    const scope = form.querySelector("select[data-search-scope]");
    if (scope && scope.value === "all") params.set("scope", "all");
    for (const [name, value] of Object.entries(chosenFilters(form))) params.set(`f.${name}`, value);
  }
  const search = params.toString();
  const url = location.pathname + (search ? `?${search}` : "") + location.hash;
  if (url !== location.pathname + location.search + location.hash) {
    history.replaceState(history.state, "", url);
  }
}

let server = null; // whether the card search endpoint answers: unknown until asked once

async function askServer(endpoint, query) {
  // under `charnel serve` the server runs a field query (charnel.query); a static host has no
  // such endpoint, and the build's field index answers instead (fieldsearch.js)
  if (server === false) return null;
  try {
    const response = await fetch(`${endpoint}?q=${encodeURIComponent(query)}`);
    const type = response.headers.get("content-type") || "";
    if (!type.includes("json") || (response.status !== 200 && response.status !== 400)) {
      server = false;
      return null;
    }
    server = true;
    return await response.json();
  } catch (e) {
    server = false;
    return null;
  }
}

let fieldSearch = null;

function loadFieldSearch() {
  // the language run in the browser over the build's field index: the script and the index's
  // manifest, fetched once, before the first field query where possible
  if (!fieldSearch) {
    fieldSearch = import(`${ASSET_BASE}fieldsearch.js`).then(async (module) => {
      await module.open(HOME);
      return module;
    });
    fieldSearch.catch(() => { fieldSearch = null; });
  }
  return fieldSearch;
}

const CARD_PAGE = 20; // cards shown at a time for a field query answered in the browser

async function staticCards(query) {
  // {rows, total, more()} or {error} from the build's field index; {unavailable} when it
  // cannot be had (a copy built without it, or not kept offline: true) or cannot answer the
  // query (why)
  let search, found;
  try {
    search = await loadFieldSearch();
    found = await search.find(HOME, query);
  } catch (e) {
    return { unavailable: true };
  }
  if (found.error) return { error: found.error };
  if (found.unsupported) return { unavailable: found.unsupported };
  const page = async (from) => found.index.rows(found.cards.slice(from, from + CARD_PAGE));
  return { rows: await page(0), total: found.total, more: page };
}

function note(text, link) {
  const p = document.createElement("p");
  p.className = "hint search-note";
  p.append(text);
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.textContent = link.text;
    p.append(" ", a, ".");
  }
  return p;
}

function cardItems(rows) {
  return rows.map((row) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `${HOME}cards/${encodeURIComponent(row.id)}/`;
    link.textContent = row.name;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = [row.type, row.cost == null ? "" : `cost ${row.cost}`].filter(Boolean).join(", ");
    const text = document.createElement("p");
    text.className = "card-text";
    text.textContent = row.text || "";
    item.append(link, kind, text);
    return item;
  });
}

function cardResults(form, query, data) {
  // the cards a field query found, each with its type line and text
  if (data.error) {
    const problem = note(`${data.error.message} (column ${data.error.column})`);
    problem.classList.add("search-error");
    return [problem];
  }
  const rows = data.rows || [];
  const list = document.createElement("ol");
  list.className = "card-results";
  list.append(...cardItems(rows));
  if (data.total !== undefined) { // answered in the browser: every match counted, shown in pages
    const count = note(`${data.total} card${data.total === 1 ? "" : "s"} match`);
    const extra = [];
    if (data.total > rows.length) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "more";
      const label = () => `Show ${Math.min(data.total - list.children.length, CARD_PAGE)} more`;
      button.textContent = label();
      button.addEventListener("click", async () => {
        list.append(...cardItems(await data.more(list.children.length)));
        if (list.children.length >= data.total) button.remove();
        else button.textContent = label();
      });
      extra.push(button);
    }
    return [count, list, ...extra];
  }
  const summary = note(`${rows.length}${data.truncated ? "+" : ""} card${rows.length === 1 ? "" : "s"} match`,
    { href: `${form.dataset.cardSearch.replace(/\.json$/, "")}?q=${encodeURIComponent(query)}`,
      text: "open in the SQL search" });
  return [summary, list];
}

let probed = null;

function prefetchFields(form) {
  // whether a server runs field queries, and if not the field index's script and manifest,
  // known before the first field query (asked once, however many forms and events ask)
  probed ??= askServer(form.dataset.cardSearch, "").then(() => {
    if (server === false) loadFieldSearch().catch(() => {});
  });
}

function setupSearch(form) {
  const input = form.querySelector("input[type=search]");
  const out = form.querySelector(".results");
  let results = [];
  let serial = 0;
  // The index is fetched before the first query, not after it: as soon as the reader comes
  // near the box, and on the pages that are there to search (home, /search/) once the page
  // has loaded, while the reader finds the box.
  for (const event of ["focus", "pointerdown"]) {
    input.addEventListener(event, () => loadPagefind(), { once: true });
  }
  if (form.dataset.cardSearch) input.addEventListener("focus", () => prefetchFields(form), { once: true });
  if (out) {
    const soon = window.requestIdleCallback || ((f) => setTimeout(f, 200));
    const both = () => {
      loadPagefind();
      if (form.dataset.cardSearch) prefetchFields(form);
    };
    if (document.readyState === "complete") soon(both);
    else window.addEventListener("load", () => soon(both), { once: true });
  }

  async function run() {
    let query = input.value.trim();
    const mine = ++serial;
    const filters = chosenFilters(form);
    if (out) rememberQuery(form, query);
    if (!query && !Object.keys(filters).length) {
      out.replaceChildren();
      results = [];
      return;
    }
    if (FIELD_QUERY.test(query) && form.dataset.cardSearch) {
      await new Promise((resolve) => setTimeout(resolve, 120)); // one request per pause in typing
      if (mine !== serial) return;
      if (server === null) loadFieldSearch().catch(() => {}); // meanwhile, should no server answer
      let data = await askServer(form.dataset.cardSearch, query);
      if (mine !== serial) return;
      if (!data) data = await staticCards(query);
      if (mine !== serial) return;
      const syntax = { href: form.dataset.syntax || `${HOME}search/syntax/`, text: "The search language" };
      out.dataset.query = query;
      if (data.unavailable) {
        const why = data.unavailable === true ? "its index of the cards' fields did not load"
          : data.unavailable;
        out.replaceChildren(note(`This copy of the site cannot run the search ${query}: ${why}.`, syntax));
        return;
      }
      results = (data.rows || []).map((row) => ({ url: `${HOME}cards/${row.id}/`, meta: { title: row.name } }));
      const unused = Object.entries(filters).map(([name, value]) => `${name}: ${value}`);
      const ignored = unused.length ? [note(`The filters (${unused.join(", ")}) narrow word `
        + "searches only; a field search says everything in its query.", syntax)] : [];
      out.replaceChildren(...ignored, ...cardResults(form, query, data));
      return;
    }
    const search = await searchPages(scopeOf(form), query || null, filters);
    if (search === null || mine !== serial) return;
    // A page of results at a time: each shown result costs a request for its fragment.
    async function page(shown) {
      const more = (await Promise.all(search.results.slice(shown.length, shown.length + PAGE)
        .map((r) => r.data()))).map(
        // a rulings page holds many rulings: show the one that matched, by its heading
        (d) => ((d.filters.kind || []).includes("ruling") && d.sub_results && d.sub_results.length
          ? { ...d, url: d.sub_results[0].url, excerpt: d.sub_results[0].excerpt,
              meta: { ...d.meta, title: d.sub_results[0].title } }
          : d),
      );
      if (mine !== serial) return;
      results = [...shown, ...more];
      const list = document.createElement("ol");
      for (const data of results) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = data.url;
        link.textContent = data.meta.title || data.url;
        const kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = (data.filters.kind || []).join(", ");
        const excerpt = document.createElement("p");
        excerpt.innerHTML = data.excerpt; // Pagefind escapes page text and adds only <mark>
        item.append(link, kind, excerpt);
        list.append(item);
      }
      const summary = document.createElement("p");
      summary.className = "hint";
      summary.textContent = `${search.results.length} result${search.results.length === 1 ? "" : "s"}`;
      const rest = search.results.length - results.length;
      const extra = [];
      if (rest > 0) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "more";
        button.textContent = `Show ${Math.min(rest, PAGE)} more`;
        button.addEventListener("click", () => page(results));
        extra.push(button);
      }
      out.replaceChildren(summary, list, ...extra);
      out.dataset.query = input.value.trim(); // which query the results are for
    }
    await page([]);
  }

  async function jump(event) {
    const query = input.value.trim();
    if (!query) return;
    event.preventDefault();
    if (RULE.test(query) && (await exists(`${HOME}rules/${query.toLowerCase()}/`))) {
      location.href = `${HOME}rules/${query.toLowerCase()}/`;
      return;
    }
    const exact = results.find((d) => (d.meta.title || "").toLowerCase() === query.toLowerCase());
    if (exact) {
      location.href = exact.url;
      return;
    }
    if (await exists(`${HOME}cards/${slug(query)}/`)) {
      location.href = `${HOME}cards/${slug(query)}/`;
      return;
    }
    if (FIELD_QUERY.test(query) && !form.closest("header")) {
      await run(); // a field query's answer is the list, not one page
      return;
    }
    if (form.closest("header")) {
      location.href = `${HOME}search/?q=${encodeURIComponent(query)}`;
      return;
    }
    await run();
    if (results.length) location.href = results[0].url;
  }

  form.addEventListener("submit", jump);
  form.addEventListener("refresh", run);
  if (out) input.addEventListener("input", run);
  const initial = new URLSearchParams(location.search).get("q");
  if (initial && out) {
    input.value = initial;
    run();
  }
}

async function showDatasette(span) {
  // Datasette answers only where `charnel serve` serves the site; a static host has no row
  // to link to, so the link stays hidden unless the row is there.
  const link = span.querySelector("a");
  if (link && (await exists(link.href))) span.hidden = false;
}

const OFFLINE_AFTER_MS = 10000; // a page open this long starts the game's offline copy

function keepOffline() {
  // a game's pages keep a copy for reading with no network (its sw.js); a page answered from
  // that copy says so
  if ("offline" in document.documentElement.dataset) {
    const main = document.querySelector("main");
    const said = document.createElement("p");
    said.className = "note offline-note";
    said.setAttribute("role", "status");
    said.textContent = "No network: this is the copy your browser keeps from your last visit. "
      + "Searches by words and by field both work.";
    if (main) main.prepend(said);
  }
  if ("serviceWorker" in navigator && HOME !== "/" && location.protocol !== "file:") {
    // a while after the page has loaded, when the browser is idle: the copy is made in the
    // background, after what a reader asks for first (a search's index and results)
    const register = () => navigator.serviceWorker.register(`${HOME}sw.js`).catch(() => {});
    const idle = () => (window.requestIdleCallback || setTimeout)(register, { timeout: 3000 });
    const later = () => setTimeout(idle, OFFLINE_AFTER_MS);
    if (document.readyState === "complete") later();
    else window.addEventListener("load", later, { once: true });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  keepOffline();
  for (const span of document.querySelectorAll("[data-datasette]")) showDatasette(span);
  for (const box of document.querySelectorAll("[data-filterable]")) setupList(box);
  for (const form of document.querySelectorAll("form[data-live-search], form.quick")) setupSearch(form);
  for (const form of document.querySelectorAll("form[data-with-filters]")) setupFilters(form);
});
