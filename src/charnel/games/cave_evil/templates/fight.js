/* The fight calculator: Cave Evil's exact fight odds, computed in the browser.
   The same sums as charnel's engine/fight.py and engine/odds.py, in exact BigInt fractions,
   so the page shows the very numbers `charnel odds` prints (a browser test compares them). */
(() => {
  "use strict";
  const RING = ["st", "sp", "dd", "bt", "ar", "wp"];
  const SIDES = ["attacker", "defender"];
  const ROLE = { attacker: "attacking", defender: "defending" };

  class FightError extends Error {}

  // --- exact fractions -------------------------------------------------------------------
  const gcd = (a, b) => {
    a = a < 0n ? -a : a;
    b = b < 0n ? -b : b;
    while (b) [a, b] = [b, a % b];
    return a;
  };
  const frac = (n, d = 1n) => {
    if (d < 0n) [n, d] = [-n, -d];
    const g = gcd(n, d) || 1n;
    return { n: n / g, d: d / g };
  };
  const ONE = frac(1n);
  const add = (x, y) => frac(x.n * y.d + y.n * x.d, x.d * y.d);
  const sub = (x, y) => frac(x.n * y.d - y.n * x.d, x.d * y.d);
  const mul = (x, y) => frac(x.n * y.n, x.d * y.d);
  const less = (x, y) => x.n * y.d < y.n * x.d;
  // floor(x * 10000 + 1/2): four places, halves up, as odds.four_places
  const fourPlaces = (x) => {
    const n = (x.n * 20000n + x.d) / (2n * x.d);
    return `${n / 10000n}.${String(n % 10000n).padStart(4, "0")}`;
  };
  const exact = (x) => (x.d === 1n ? `${x.n}` : `${x.n}/${x.d}`);

  // --- a round: P(attacker takes it) by the gap between the totals, ties rolled again ------
  const ROUND = new Map();
  for (let gap = -11; gap <= 11; gap++) {
    let wins = 0n;
    let ties = 0n;
    for (let a = 1; a <= 12; a++) {
      for (let d = 1; d <= 12; d++) {
        if (a - d > gap) wins++;
        if (a - d === gap) ties++;
      }
    }
    ROUND.set(gap, frac(wins, 144n - ties));
  }
  const roundOdds = (attacker, defender) =>
    ROUND.get(Math.min(11, Math.max(-11, defender - attacker)));

  const neighbours = (a) => {
    const i = RING.indexOf(a);
    return [RING[(i + RING.length - 1) % RING.length], RING[(i + 1) % RING.length]];
  };

  // --- totals ------------------------------------------------------------------------------
  function* effects(abilities, kind, role) {
    for (const ability of abilities || []) {
      const change = ability[kind];
      if (!change || typeof change !== "object") continue;
      if (change.when != null && role != null && change.when !== role) continue;
      yield change;
    }
  }
  const amount = (change, a) => (RING.includes(a) && Number.isInteger(change[a]) ? change[a] : 0);

  function binding(side) {
    const total = Object.fromEntries(RING.map((a) => [a, 0]));
    for (const squad of side) {
      for (const holder of [...squad.creatures, ...squad.items]) {
        for (const change of effects(holder.abilities, "binding", null)) {
          for (const a of RING) total[a] += amount(change, a);
        }
      }
    }
    return total;
  }

  function squadTotal(squad, a, role, bound) {
    const change = bound ? bound[a] : 0;
    let creatures = 0;
    for (const c of squad.creatures) creatures += Math.max(0, (c.attributes[a] || 0) + change);
    let extra = 0;
    for (const c of squad.creatures) {
      for (const e of effects(c.abilities, "combat", role)) extra += amount(e, a);
    }
    for (const i of squad.items) {
      for (const e of effects(i.abilities, "bonus", role)) extra += amount(e, a);
    }
    return Math.max(0, creatures + extra);
  }

  function sideTotals(side, role, enemy) {
    const bound = binding(enemy);
    return Object.fromEntries(RING.map((a) => [
      a, side.reduce((sum, squad, i) => sum + squadTotal(squad, a, role, i === 0 ? bound : null), 0),
    ]));
  }

  const isRanged = (c) => (c.abilities || []).some((a) => "ranged" in a);
  const rangedPart = (squad) => {
    const creatures = squad.creatures.filter(isRanged);
    return { creatures, items: creatures.length ? squad.items : [] };
  };

  // --- a matchup, as fight.Matchup ---------------------------------------------------------
  function odds(attacker, defender, ranged, rangedDefence) {
    if (!attacker.length || !defender.length) throw new FightError("each side needs at least one squad");
    if (rangedDefence && !ranged) throw new FightError("a ranged defence answers only a ranged attack");
    if (ranged && defender.length > 1) {
      throw new FightError("a squad attacked at range gets no flanking squads (rule 12.2h)");
    }
    if (ranged) {
      attacker = attacker.map(rangedPart);
      if (!attacker.some((s) => s.creatures.length)) {
        throw new FightError("a ranged attack needs a creature with a ranged ability");
      }
    }
    if (rangedDefence) {
      defender = defender.map(rangedPart);
      if (!defender.some((s) => s.creatures.length)) {
        throw new FightError("a ranged defence needs a creature with a ranged ability");
      }
    }
    const mine = sideTotals(attacker, "attacking", defender);
    const theirs = sideTotals(defender, "defending", attacker);
    const p = Object.fromEntries(RING.map((a) => [a, roundOdds(mine[a], theirs[a])]));
    let firsts = RING;
    if (ranged) {
      const forced = new Set();
      for (const s of attacker) {
        for (const c of s.creatures) {
          const r = c.abilities.find((a) => "ranged" in a).ranged;
          if (r && r.first) forced.add(r.first);
        }
      }
      if (forced.size) firsts = RING.filter((a) => forced.has(a));
    }
    return firsts.map((first) => {
      const [before, after] = neighbours(first);
      // the defender's better pick for round two: after a win the attacker needs one of the
      // two remaining rounds, after a loss both
      const pick = (chances) => (less(chances[1], chances[0]) ? chances[1] : chances[0]);
      const afterWin = pick([
        add(p[before], mul(sub(ONE, p[before]), p[after])),
        add(p[after], mul(sub(ONE, p[after]), p[before])),
      ]);
      const afterLoss = pick([mul(p[before], p[after]), mul(p[after], p[before])]);
      const wins = add(mul(p[first], afterWin), mul(sub(ONE, p[first]), afterLoss));
      return { first, totals: [mine[first], theirs[first]], attacker: wins, defender: sub(ONE, wins) };
    });
  }

  // --- the page ----------------------------------------------------------------------------
  const root = document.getElementById("calculator");
  if (!root) return;
  const state = { attacker: [[]], defender: [[]], ranged: false, rangedDefence: false };
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
    if (modes.length) params.set("mode", modes.join(","));
    history.replaceState(null, "", `#${params.toString()}`);
  }

  function squadOf(namesInSquad) {
    const found = namesInSquad.map((n) => {
      const f = pool.get(key(n));
      if (!f) throw new FightError(`no creature, item or spell named '${n}'`);
      return f;
    });
    const creatures = found.filter((f) => f.kind === "creature");
    if (!creatures.length) throw new FightError(`squad '${namesInSquad.join(", ")}' has no creature`);
    return { creatures, items: found.filter((f) => f.kind !== "creature") };
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

  function drawOdds() {
    const body = root.querySelector("#odds tbody");
    const error = root.querySelector("#fight-error");
    body.replaceChildren();
    error.textContent = "";
    const sides = {};
    try {
      for (const side of SIDES) {
        const squads = state[side].filter((s) => s.length);
        if (!squads.length) {
          error.textContent = "Pick at least one creature for each side.";
          return;
        }
        sides[side] = squads.map(squadOf);
      }
      const rows = odds(sides.attacker, sides.defender, state.ranged, state.rangedDefence);
      const best = rows.reduce((b, r) => (less(b.attacker, r.attacker) ? r : b), rows[0]);
      for (const row of rows) {
        const tr = el("tr", { className: row === best ? "best" : "" },
          el("th", { scope: "row", textContent: `${names[row.first]} (${row.first})` }),
          el("td", { className: "num totals", textContent: `${row.totals[0]} v ${row.totals[1]}` }),
          el("td", { className: "num attacker", textContent: fourPlaces(row.attacker) }),
          el("td", { className: "num defender", textContent: fourPlaces(row.defender) }),
          el("td", { className: "num exact", textContent: exact(row.attacker) }));
        tr.dataset.first = row.first;
        body.append(tr);
      }
    } catch (e) {
      if (!(e instanceof FightError)) throw e;
      error.textContent = e.message;
    }
  }

  function update() {
    writeHash();
    for (const side of SIDES) drawSide(side);
    root.querySelector("#mode-ranged").checked = state.ranged;
    root.querySelector("#mode-ranged-defence").checked = state.rangedDefence;
    drawOdds();
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
