/* The fight calculator: picks two sides from the card pool and shows the exact fight odds,
   for one line of play or several side by side, and what card flips a fight.
   It computes nothing: `charnel serve` answers `odds.json` with the engine's report (the one
   `charnel odds --json` prints, or with `flip=` the one `charnel odds --flip --json` prints),
   so the engine alone decides who fights with what; the page only draws the numbers. */
(() => {
  "use strict";
  const SIDES = ["attacker", "defender"];
  const SCORES = ["2-0", "2-1", "1-2", "0-2"];
  const LINES = 6; // lines of play at once, as `charnel odds --compare` takes them

  // --- the page ----------------------------------------------------------------------------
  const root = document.getElementById("calculator");
  if (!root) return;
  const blank = () => ({ attacker: [[]], defender: [[]] });
  const state = { lines: [blank()], at: 0, ranged: false, rangedDefence: false, separately: false, flip: "" };
  const line = () => state.lines[state.at];
  let pool = new Map();
  let names = {};

  const key = (name) => name.trim().toLowerCase().replace(/\s+/g, " ");
  const squadsOf = (text) => text.split("/").map((s) => s.split(/[,+]/).map((n) => n.trim()).filter(Boolean));
  const sideText = (squads) => squads.map((s) => s.join(", ")).filter(Boolean).join(" / ");

  function readHash() {
    // a link from a card page preselects it with ?attacker=...; the page then keeps its lines
    // of play in the hash, an attacker and a defender each
    const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
    const attackers = params.getAll("attacker");
    const defenders = params.getAll("defender");
    const count = Math.min(LINES, Math.max(1, attackers.length, defenders.length));
    state.lines = Array.from({ length: count }, (_, i) => ({
      attacker: attackers[i] ? squadsOf(attackers[i]) : [[]],
      defender: defenders[i] ? squadsOf(defenders[i]) : [[]],
    }));
    state.at = Math.min(count - 1, Math.max(0, (parseInt(params.get("line") || "1", 10) || 1) - 1));
    const modes = (params.get("mode") || "").split(",");
    state.ranged = modes.includes("ranged") || modes.includes("ranged-defence");
    state.rangedDefence = modes.includes("ranged-defence");
    state.separately = modes.includes("separately");
    state.flip = params.get("flip") || "";
  }

  function modeText() {
    const modes = [];
    if (state.ranged && !state.rangedDefence) modes.push("ranged");
    if (state.rangedDefence) modes.push("ranged-defence");
    if (state.separately) modes.push("separately");
    return modes.join(",");
  }

  function query(l, extra = {}) {
    const params = new URLSearchParams({ attacker: sideText(l.attacker), defender: sideText(l.defender) });
    if (modeText()) params.set("mode", modeText());
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return params;
  }

  function writeHash() {
    const params = new URLSearchParams();
    for (const l of state.lines) {
      params.append("attacker", sideText(l.attacker));
      params.append("defender", sideText(l.defender));
    }
    if (modeText()) params.set("mode", modeText());
    if (state.lines.length > 1) params.set("line", String(state.at + 1));
    if (state.flip) params.set("flip", state.flip);
    history.replaceState(null, "", `#${params.toString()}`);
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
      line()[side][index].push(select.value);
      update();
    });
    return el("div", {}, select, " ", button);
  }

  function drawSide(side) {
    const box = root.querySelector(`[data-side=${side}] .squads`);
    box.replaceChildren();
    line()[side].forEach((members, index) => {
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
          line()[side].splice(index, 1);
          update();
        });
        fieldset.append(drop);
      }
      box.append(fieldset);
    });
  }

  function drawLines() {
    const bar = root.querySelector("#lines");
    const tabs = state.lines.map((_, i) => {
      const b = el("button", { type: "button", className: "line-tab", textContent: `Line ${i + 1}` });
      b.setAttribute("aria-pressed", String(i === state.at));
      b.addEventListener("click", () => {
        state.at = i;
        update();
      });
      return b;
    });
    const copy = el("button", { type: "button", id: "copy-line", textContent: "Copy as a new line" });
    copy.disabled = state.lines.length >= LINES;
    copy.addEventListener("click", () => {
      state.lines.push(JSON.parse(JSON.stringify(line())));
      state.at = state.lines.length - 1;
      update();
    });
    const drop = el("button", { type: "button", id: "drop-line", textContent: "Remove this line" });
    drop.hidden = state.lines.length < 2;
    drop.addEventListener("click", () => {
      state.lines.splice(state.at, 1);
      state.at = Math.max(0, state.at - 1);
      update();
    });
    bar.replaceChildren(...tabs, copy, drop);
  }

  const cell = (className, label, ...children) => {
    const td = el("td", { className }, ...children);
    td.dataset.label = label; // a phone shows each cell as a labelled line
    return td;
  };
  const exact = (summary, ...lines) =>
    el("details", { className: "exact" }, el("summary", { textContent: summary }), ...lines.map((t) => el("div", { textContent: t })));

  function chart(row) {
    // one bar per first attribute: the four final scores, the attacker's two first; the same
    // numbers as text beside it, for readers who do not see the bar
    const bar = el("span", { className: "bar" });
    bar.setAttribute("aria-hidden", "true");
    for (const s of SCORES) {
      const part = el("span", { className: `score s${s.replace("-", "")}` });
      part.style.width = `${parseFloat(row.scores[s]) * 100}%`;
      bar.append(part);
    }
    const words = SCORES.map((s) => `${s} ${row.said.scores[s]}`).join(", ");
    return [bar, el("span", { className: "bar-text", textContent: words })];
  }

  function spoils(row) {
    const e = row.expected;
    if (!e) return "";
    return `attacker takes ${e.attacker.kill_points} kill points, ${e.attacker.gore} Gore; defender ${e.defender.kill_points}, ${e.defender.gore}`;
  }

  function showReport(data) {
    const body = root.querySelector("#odds tbody");
    const result = root.querySelector("#fight-result");
    const rows = [];
    const parts = data.separate
      ? data.separate.map((part) => ({ row: part.odds.find((r) => r.first === part.best), totals: part.totals, label: ` v ${part.creature}`, best: true }))
      : data.odds.map((row) => ({ row, totals: { attacker: data.attacker.totals, defender: data.defender.totals }, label: "", best: row.first === data.best }));
    for (const { row, totals, label, best } of parts) {
      const tr = el("tr", { className: best ? "best" : "" },
        el("th", { scope: "row", textContent: `${names[row.first]} (${row.first})${label}` }),
        cell("num totals", "Totals", `${totals.attacker[row.first]} v ${totals.defender[row.first]}`),
        cell("attacker", "Attacker wins", row.said.attacker),
        cell("chart", "Final scores", ...chart(row)),
        cell("spoils", "Expected spoils", data.separate ? "" : spoils(row)),
        cell("exact", "", exact("Exact", `attacker ${row.exact.attacker}`, `attacker dies ${row.exact.attacker_dies}`,
          ...SCORES.map((s) => `${s}: ${row.exact.scores[s]}`))));
      if (!data.separate) tr.dataset.first = row.first;
      rows.push(tr);
    }
    body.replaceChildren(...rows);
    const who = data.first_by === "defender" ? "the defender picks the first attribute" : "best first attribute";
    const first = Array.isArray(data.result.first) ? data.result.first.join(", ") : data.result.first;
    const idle = data.separate ? [] : [...data.attacker.idle, ...data.defender.idle];
    const text = (data.separate
      ? `Kills the whole squad, one creature at a time (first: ${first}): ${data.result.said.attacker}`
      : `${who}: ${first}; the attacker wins ${data.result.said.attacker}, and dies ${data.result.said.attacker_dies}`)
      + (data.separate && data.expected ? `. Expected: ${spoils(data)}` : "")
      + (idle.length ? `. Carried but not counted: ${idle.join(", ")}` : "");
    result.replaceChildren(el("span", { textContent: text }), " ",
      exact("Exact", `attacker wins ${data.result.attacker}`, `attacker dies ${data.result.attacker_dies}`));
    result.dataset.attacker = data.result.attacker;
    result.dataset.first = first;
  }

  function showComparison(answers) {
    const table = root.querySelector("#compare");
    table.hidden = answers.length < 2;
    table.querySelector("tbody").replaceChildren(...answers.map((data, i) => {
      const l = state.lines[i];
      const side = `${sideText(l.attacker)} vs ${sideText(l.defender)}`;
      if (!data || data.error) {
        return el("tr", {}, el("th", { scope: "row", textContent: `Line ${i + 1}` }), cell("sides", "Sides", side),
          el("td", { className: "refused", colSpan: 3, textContent: data ? data.error : "no answer" }));
      }
      const r = data.result;
      const taken = data.odds && data.odds.find((o) => o.first === r.first);
      const scores = taken ? SCORES.map((s) => `${s} ${taken.said.scores[s]}`).join(", ") : "";
      const tr = el("tr", { className: i === state.at ? "best" : "" },
        el("th", { scope: "row", textContent: `Line ${i + 1}` }), cell("sides", "Sides", side),
        cell("num first", "First", Array.isArray(r.first) ? r.first.join(", ") : r.first),
        cell("attacker", "Attacker wins", r.said.attacker), cell("scores", "Final scores", scores));
      tr.dataset.attacker = r.attacker;
      return tr;
    }));
  }

  async function ask(params) {
    const response = await fetch(`${root.dataset.answer}?${params.toString()}`, { headers: { accept: "application/json" } });
    if (!(response.headers.get("content-type") || "").startsWith("application/json")) throw new Error("no answer");
    return response.json();
  }

  const filled = (l) => SIDES.every((side) => l[side].some((s) => s.length));

  let asked = 0;
  async function drawOdds() {
    const error = root.querySelector("#fight-error");
    const result = root.querySelector("#fight-result");
    root.querySelector("#odds tbody").replaceChildren();
    error.textContent = "";
    result.textContent = "";
    delete result.dataset.attacker;
    const mine = ++asked;
    let answers;
    try {
      answers = await Promise.all(state.lines.map((l) => (filled(l) ? ask(query(l)) : null)));
    } catch (e) {
      if (mine === asked) error.textContent = SERVER_NEEDED;
      return;
    }
    if (mine !== asked) return; // a later change asked again
    showComparison(answers);
    const data = answers[state.at];
    if (!data) error.textContent = "Pick at least one creature for each side.";
    else if (data.error) error.textContent = data.error;
    else showReport(data);
  }
  const SERVER_NEEDED = "The odds come from charnel's engine: open this page from `charnel serve`, or run `charnel odds` on the command line.";

  async function drawFlip() {
    const out = root.querySelector("#flip-result");
    out.replaceChildren();
    delete out.dataset.card;
    if (!state.flip || !filled(line())) return;
    let data;
    try {
      data = await ask(query(line(), { flip: `${state.flip}%` }));
    } catch (e) {
      out.textContent = SERVER_NEEDED;
      return;
    }
    if (data.error) {
      out.textContent = data.error;
      return;
    }
    const now = data.before.result.said.attacker;
    if (!data.card) {
      out.textContent = parseFloat(data.before.result.attacker) >= parseFloat(data.threshold)
        ? `The attacker already wins ${now}.`
        : `No one card of the pool, added to the attacker, gets it to ${state.flip}% (now ${now}).`;
      out.dataset.card = "";
      return;
    }
    const c = data.card;
    const open = el("button", { type: "button", textContent: "Compare it as a new line" });
    open.disabled = state.lines.length >= LINES;
    open.addEventListener("click", () => {
      state.lines.push({ attacker: squadsOf(c.line), defender: JSON.parse(JSON.stringify(line().defender)) });
      state.at = state.lines.length - 1;
      update();
    });
    out.append(el("span", { textContent: `${c.name} (cost ${c.cost}): ${c.line} wins ${c.odds.result.said.attacker}, from ${now}. ` }), open);
    out.dataset.card = c.name;
  }

  async function update() {
    writeHash();
    drawLines();
    for (const side of SIDES) drawSide(side);
    root.querySelector("#mode-ranged").checked = state.ranged;
    root.querySelector("#mode-ranged-defence").checked = state.rangedDefence;
    root.querySelector("#mode-separately").checked = state.separately;
    root.querySelector("#flip-chance").value = state.flip;
    root.dataset.ready = "false";
    try {
      await Promise.all([drawOdds(), drawFlip()]);
    } finally {
      root.dataset.ready = "true";
    }
  }

  function start(data) {
    names = Object.fromEntries(data.attributes);
    pool = new Map(data.fighters.map((f) => [key(f.name), f]));
    root.hidden = false;
    for (const side of SIDES) {
      root.querySelector(`[data-side=${side}] .add-squad`).addEventListener("click", () => {
        line()[side].push([]);
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
    root.querySelector("#flip-form").addEventListener("submit", (e) => {
      e.preventDefault();
      state.flip = root.querySelector("#flip-chance").value.trim();
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
