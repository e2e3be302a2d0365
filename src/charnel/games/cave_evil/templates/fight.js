/* The fight calculator: picks two sides from the card pool and shows the exact fight odds.
   It computes nothing: `charnel serve` answers `odds.json` with the engine's report (the one
   `charnel odds --json` prints), so the engine alone decides who fights with what. */
(() => {
  "use strict";
  const SIDES = ["attacker", "defender"];

  // --- the page ----------------------------------------------------------------------------
  const root = document.getElementById("calculator");
  if (!root) return;
  const state = { attacker: [[]], defender: [[]], ranged: false, rangedDefence: false, separately: false };
  let pool = new Map();
  let names = {};

  const key = (name) => name.trim().toLowerCase().replace(/\s+/g, " ");

  function readHash() {
    // a link from a card page preselects it with ?attacker=...; the page then keeps its sides
    // in the hash
    const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
    for (const side of SIDES) {
      const text = params.get(side);
      state[side] = text ? text.split("/").map((s) => s.split(/[,+]/).map((n) => n.trim()).filter(Boolean)) : [[]];
    }
    const modes = (params.get("mode") || "").split(",");
    state.ranged = modes.includes("ranged") || modes.includes("ranged-defence");
    state.rangedDefence = modes.includes("ranged-defence");
    state.separately = modes.includes("separately");
  }

  function writeHash() {
    const params = new URLSearchParams();
    for (const side of SIDES) {
      const text = state[side].map((s) => s.join(", ")).filter(Boolean).join(" / ");
      if (text) params.set(side, text);
    }
    const modes = [];
    if (state.ranged && !state.rangedDefence) modes.push("ranged");
    if (state.rangedDefence) modes.push("ranged-defence");
    if (state.separately) modes.push("separately");
    if (modes.length) params.set("mode", modes.join(","));
    history.replaceState(null, "", `#${params.toString()}`);
    return params;
  }

  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };

  function picker(side, index) {
    const select = el("select", { className: "pick" });
    select.setAttribute("aria-label", `Card to add to ${side} squad ${index + 1}`);
    for (const [label, kind] of [["Creatures", "creature"], ["Items and spells", "item"]]) {
      const group = el("optgroup", { label });
      for (const f of pool.values()) {
        if (f.kind === kind) group.append(el("option", { value: f.name, textContent: f.name }));
      }
      select.append(group);
    }
    const button = el("button", { type: "button", className: "add", textContent: "Add" });
    button.addEventListener("click", () => {
      state[side][index].push(select.value);
      update();
    });
    return el("div", {}, select, " ", button);
  }

  function drawSide(side) {
    const box = root.querySelector(`[data-side=${side}] .squads`);
    box.replaceChildren();
    state[side].forEach((members, index) => {
      const legend = index === 0 ? "Squad" : `Flanking squad ${index}`;
      const list = el("ul");
      members.forEach((name, at) => {
        const f = pool.get(key(name));
        const label = el("span", { className: f && f.kind !== "creature" ? "item-name" : "", textContent: name });
        const remove = el("button", { type: "button", className: "remove", textContent: "Remove" });
        remove.setAttribute("aria-label", `Remove ${name}`);
        remove.addEventListener("click", () => {
          members.splice(at, 1);
          update();
        });
        list.append(el("li", {}, label, remove));
      });
      const fieldset = el("fieldset", { className: "squad" }, el("legend", { textContent: legend }), list, picker(side, index));
      if (index > 0) {
        const drop = el("button", { type: "button", textContent: "Remove this squad" });
        drop.addEventListener("click", () => {
          state[side].splice(index, 1);
          update();
        });
        fieldset.append(drop);
      }
      box.append(fieldset);
    });
  }

  const cell = (className, textContent) => el("td", { className: `num ${className}`, textContent });

  function showReport(data) {
    const body = root.querySelector("#odds tbody");
    const result = root.querySelector("#fight-result");
    const rows = [];
    if (data.separate) {
      for (const part of data.separate) {
        const row = part.odds.find((r) => r.first === part.best);
        const t = part.totals;
        rows.push(el("tr", { className: "best" },
          el("th", { scope: "row", textContent: `${names[row.first]} (${row.first}) v ${part.creature}` }),
          cell("totals", `${t.attacker[row.first]} v ${t.defender[row.first]}`),
          cell("attacker", row.attacker), cell("defender", row.defender), cell("exact", row.exact.attacker)));
      }
    } else {
      for (const row of data.odds) {
        const tr = el("tr", { className: row.first === data.best ? "best" : "" },
          el("th", { scope: "row", textContent: `${names[row.first]} (${row.first})` }),
          cell("totals", `${data.attacker.totals[row.first]} v ${data.defender.totals[row.first]}`),
          cell("attacker", row.attacker), cell("defender", row.defender), cell("exact", row.exact.attacker));
        tr.dataset.first = row.first;
        rows.push(tr);
      }
    }
    body.replaceChildren(...rows);
    const who = data.first_by === "defender" ? "the defender picks the first attribute" : "best first attribute";
    const first = Array.isArray(data.result.first) ? data.result.first.join(", ") : data.result.first;
    const idle = data.separate ? [] : [...data.attacker.idle, ...data.defender.idle];
    result.textContent = (data.separate
      ? `Kills the whole squad, one creature at a time (first: ${first}): ${data.result.attacker}`
      : `${who}: ${first}; the attacker wins with ${data.result.attacker}`)
      + (idle.length ? `. Carried but not counted: ${idle.join(", ")}` : "");
    result.dataset.attacker = data.result.attacker;
    result.dataset.first = first;
  }

  let asked = 0;
  async function drawOdds(params) {
    const error = root.querySelector("#fight-error");
    const result = root.querySelector("#fight-result");
    root.querySelector("#odds tbody").replaceChildren();
    error.textContent = "";
    result.textContent = "";
    delete result.dataset.attacker;
    if (!SIDES.every((side) => state[side].some((s) => s.length))) {
      error.textContent = "Pick at least one creature for each side.";
      return;
    }
    const mine = ++asked;
    let data;
    try {
      const response = await fetch(`${root.dataset.answer}?${params.toString()}`, { headers: { accept: "application/json" } });
      if (!(response.headers.get("content-type") || "").startsWith("application/json")) throw new Error("no answer");
      data = await response.json();
    } catch (e) {
      if (mine === asked) error.textContent = SERVER_NEEDED;
      return;
    }
    if (mine !== asked) return; // a later change asked again
    if (data.error) error.textContent = data.error;
    else showReport(data);
  }
  const SERVER_NEEDED = "The odds come from charnel's engine: open this page from `charnel serve`, or run `charnel odds` on the command line.";

  async function update() {
    const params = writeHash();
    for (const side of SIDES) drawSide(side);
    root.querySelector("#mode-ranged").checked = state.ranged;
    root.querySelector("#mode-ranged-defence").checked = state.rangedDefence;
    root.querySelector("#mode-separately").checked = state.separately;
    root.dataset.ready = "false";
    await drawOdds(params);
    root.dataset.ready = "true";
  }

  function start(data) {
    names = Object.fromEntries(data.attributes);
    pool = new Map(data.fighters.map((f) => [key(f.name), f]));
    root.hidden = false;
    for (const side of SIDES) {
      root.querySelector(`[data-side=${side}] .add-squad`).addEventListener("click", () => {
        state[side].push([]);
        update();
      });
    }
    root.querySelector("#mode-ranged").addEventListener("change", (e) => {
      state.ranged = e.target.checked;
      if (!state.ranged) state.rangedDefence = false;
      update();
    });
    root.querySelector("#mode-ranged-defence").addEventListener("change", (e) => {
      state.rangedDefence = e.target.checked;
      if (state.rangedDefence) state.ranged = true;
      update();
    });
    root.querySelector("#mode-separately").addEventListener("change", (e) => {
      state.separately = e.target.checked;
      update();
    });
    window.addEventListener("hashchange", () => {
      readHash();
      update();
    });
    readHash();
    update();
  }

  fetch(root.dataset.pool)
    .then((r) => r.json())
    .then(start);
})();
