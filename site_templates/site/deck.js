// The deck page: a pasted deck list checked in the browser against the card pool and the
// game's deck rules, with the messages `charnel deck check` gives (src/charnel/decks.py;
// tests/browser/test_deck_browser.py holds the two to the same fixtures).
(function () {
  "use strict";
  var LINE = /^(\d+)\s*[xX]?\s+(\S.*?)\s*$/;
  var COMMENT = /^\s*(#|\/\/)/;
  var MAX_COUNT = 10000;

  function read(text) {
    var entries = [], problems = [];
    text.split(/\r\n|\r|\n/).forEach(function (line, i) {
      var number = i + 1;
      var body = COMMENT.test(line) ? "" : line.split("#")[0].split("//")[0];
      if (!body.trim()) return;
      var col = line.length - line.replace(/^\s+/, "").length + 1;
      var match = LINE.exec(body.trim());
      if (!match) {
        problems.push([number, col, "a deck line is a count and a card name: '3 Grave Hound'"]);
        return;
      }
      var count = parseInt(match[1], 10);
      if (!(count >= 1 && count <= MAX_COUNT)) {
        problems.push([number, col, "a count is between 1 and " + MAX_COUNT]);
        return;
      }
      entries.push({count: count, name: match[2], line: number,
                    col: col + body.trim().indexOf(match[2]), card: null});
    });
    return {entries: entries, problems: problems, reasons: []};
  }

  // difflib.SequenceMatcher(None, a, b).ratio(), for short strings (no junk heuristics)
  function ratio(a, b) {
    var b2j = {};
    for (var j = 0; j < b.length; j++) (b2j[b[j]] = b2j[b[j]] || []).push(j);
    function longest(alo, ahi, blo, bhi) {
      var besti = alo, bestj = blo, bestsize = 0, j2len = {};
      for (var i = alo; i < ahi; i++) {
        var next = {}, js = b2j[a[i]] || [];
        for (var n = 0; n < js.length; n++) {
          var jj = js[n];
          if (jj < blo) continue;
          if (jj >= bhi) break;
          var k = (j2len[jj - 1] || 0) + 1;
          next[jj] = k;
          if (k > bestsize) { besti = i - k + 1; bestj = jj - k + 1; bestsize = k; }
        }
        j2len = next;
      }
      return [besti, bestj, bestsize];
    }
    var matched = 0, queue = [[0, a.length, 0, b.length]];
    while (queue.length) {
      var q = queue.pop(), m = longest(q[0], q[1], q[2], q[3]);
      if (!m[2]) continue;
      matched += m[2];
      if (q[0] < m[0] && q[2] < m[1]) queue.push([q[0], m[0], q[2], m[1]]);
      if (m[0] + m[2] < q[1] && m[1] + m[2] < q[3]) queue.push([m[0] + m[2], q[1], m[1] + m[2], q[3]]);
    }
    var total = a.length + b.length;
    return total ? 2 * matched / total : 1;
  }

  // difflib.get_close_matches(word, names, n=1, cutoff=0.6)[0]: the best score, ties to the
  // greater string, as Python's heapq.nlargest over (score, name) orders them
  function nearest(word, names) {
    var best = null, bestScore = -1;
    names.forEach(function (name) {
      var score = ratio(name, word);
      if (score < 0.6) return;
      if (score > bestScore || (score === bestScore && name > best)) { best = name; bestScore = score; }
    });
    return best;
  }

  function reason(deck, code) { if (deck.reasons.indexOf(code) < 0) deck.reasons.push(code); }

  function check(deck, pool) {
    var bySlug = {}, byName = {}, names = [];
    pool.cards.forEach(function (c) {
      var key = c[0].toLowerCase();
      byName[key] = c; bySlug[c[1]] = c;
      if (names.indexOf(key) < 0) names.push(key);
    });
    var copies = {}, order = [];
    deck.entries.forEach(function (e) {
      var card = byName[e.name.toLowerCase()];
      if (!card) {
        var near = nearest(e.name.toLowerCase(), names);
        var hint = near ? "; did you mean '" + byName[near][0] + "'?" : "";
        deck.problems.push([e.line, e.col, "no card named '" + e.name + "'" + hint]);
        reason(deck, "unknown-card");
        return;
      }
      e.card = card;
      if (!copies[card[1]]) { copies[card[1]] = []; order.push(card[1]); }
      copies[card[1]].push(e);
    });
    var rules = pool.rules || {};
    if (rules.max_copies != null) {
      order.forEach(function (slug) {
        var entries = copies[slug], total = 0;
        entries.forEach(function (e) { total += e.count; });
        var last = entries[entries.length - 1];
        if (total > rules.max_copies) {
          deck.problems.push([last.line, last.col, total + " copies of '" + last.name +
                              "'; a deck holds at most " + rules.max_copies]);
          reason(deck, "too-many-copies");
        }
      });
    }
    deck.cards = 0;
    deck.entries.forEach(function (e) { deck.cards += e.count; });
    if (rules.min_cards != null && deck.cards < rules.min_cards) {
      var line = deck.entries.length ? deck.entries[deck.entries.length - 1].line : 1;
      deck.problems.push([line, 1, "the deck holds " + deck.cards + " cards; it needs at least " +
                          rules.min_cards]);
      reason(deck, "too-few-cards");
    }
    deck.problems.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    return deck;
  }

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text != null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function tally(deck, index) {
    var counts = {};
    deck.entries.forEach(function (e) {
      if (!e.card) return;
      var key = e.card[index];
      if (key == null) return;
      counts[key] = (counts[key] || 0) + e.count;
    });
    return counts;
  }

  function table(caption, rows) {
    var t = el("table", null, "deck-tally");
    t.appendChild(el("caption", caption));
    var most = Math.max.apply(null, rows.map(function (r) { return r[1]; }).concat([1]));
    rows.forEach(function (r) {
      var tr = el("tr");
      tr.appendChild(el("th", r[0]));
      tr.appendChild(el("td", String(r[1])));
      var bar = el("td"), fill = el("span", null, "bar");
      fill.style.width = Math.round(100 * r[1] / most) + "%";  // a number this script computed
      bar.appendChild(fill);
      tr.appendChild(bar);
      t.appendChild(tr);
    });
    return t;
  }

  function show(deck, pool, out) {
    out.textContent = "";
    var legal = !deck.reasons.length && !deck.problems.length;
    var verdict = deck.cards + " card" + (deck.cards === 1 ? "" : "s") + ": " +
      (legal ? "legal" : "not legal" + (deck.reasons.length ? " (" + deck.reasons.join(", ") + ")" : ""));
    out.appendChild(el("p", verdict, "deck-verdict " + (legal ? "legal" : "illegal")));
    if (deck.problems.length) {
      var list = el("ul", null, "deck-problems");
      deck.problems.forEach(function (p) {
        list.appendChild(el("li", "line " + p[0] + ", column " + p[1] + ": " + p[2]));
      });
      out.appendChild(list);
    }
    if (pool.facet) {
      var byFacet = tally(deck, 2);
      var rows = pool.facet.values.filter(function (v) { return byFacet[v[0]]; })
        .map(function (v) { return [v[1], byFacet[v[0]]]; });
      if (rows.length) out.appendChild(table(pool.facet.label, rows));
    }
    if (pool.curve) {
      var byCost = tally(deck, 3), costs = Object.keys(byCost).map(Number).sort(function (x, y) { return x - y; });
      if (costs.length) {
        out.appendChild(table(pool.curve, costs.map(function (c) { return [String(c), byCost[c]]; })));
      }
    }
  }

  function link(href, text) {
    var a = el("a", text);
    a.href = href;  // addresses written by the build (charnel.deckrulings), never typed ones
    return a;
  }

  function item(parts) {
    var li = el("li");
    parts.forEach(function (p) { li.append(p); });
    return li;
  }

  // The rulings of a checked list's cards, from what the build wrote for every card
  // (charnel.deckrulings, the same as `charnel deck rulings`): by card, then by clause.
  function showRulings(deck, data, section) {
    var counts = {}, names = {}, order = [], bySlug = {};
    deck.entries.forEach(function (e) {
      if (!e.card) return;
      if (!counts[e.card[1]]) order.push(e.card[1]);
      counts[e.card[1]] = (counts[e.card[1]] || 0) + e.count;
      names[e.card[0]] = true;
    });
    data.cards.forEach(function (c) { bySlug[c.slug] = c; });
    var byCard = section.querySelector("[data-by-card]"), byRule = section.querySelector("[data-by-rule]");
    byCard.textContent = "";
    byRule.textContent = "";
    order.map(function (slug) { return bySlug[slug]; }).forEach(function (c) {
      var head = el("h3");
      head.append(link(c.url, c.name), " ×" + counts[c.slug]);
      var list = el("ul", null, "card-rulings");
      c.keywords.forEach(function (k) { list.append(item(["Keyword ", link(k.url, k.printed)])); });
      c.terms.forEach(function (t) { list.append(item(["Term ", link(t.url, t.term)])); });
      c.rulings.forEach(function (r) {
        list.append(item(["Ruling, " + r.date + ", " + r.source + ": " + r.text]));
      });
      c.errata.forEach(function (e) {
        list.append(item(["Erratum in " + e.version + (e.functional ? " (changes play)" : "")
                          + (e.reason ? ": " + e.reason : "")]));
      });
      if (c.clauses.length) {
        var rules = item(["Rules: "]);
        c.clauses.forEach(function (n, i) {
          rules.append(i ? ", " : "", link(data.clauses.find(function (x) { return x.number === n; }).url, n));
        });
        list.append(rules);
      }
      if (!list.children.length) list.append(item(["Nothing beyond its printed text."]));
      byCard.append(head, list);
    });
    data.clauses.forEach(function (clause) {
      var touching = clause.cards.filter(function (name) { return names[name]; });
      if (!touching.length) return;
      var words = clause.title || clause.text;
      var li = item([link(clause.url, clause.number), " " + (words.length > 90 ? words.slice(0, 89) + "…" : words),
                     el("span", "Touches: " + touching.join(", "), "touches")]);
      clause.rulings.forEach(function (r) { li.append(" ", link(r.url, "ruling " + r.number)); });
      byRule.append(li);
    });
    section.hidden = false;
  }

  var form = document.querySelector("[data-deck-check]");
  if (!form) return;
  var out = document.getElementById("deck-result");
  var section = document.getElementById("deck-rulings");
  var loaded = null, rulings = null;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    loaded = loaded || fetch(form.getAttribute("data-pool")).then(function (r) {
      if (!r.ok) throw new Error("the card pool could not be loaded");
      return r.json();
    });
    var text = form.querySelector("textarea").value;
    loaded.then(function (pool) {
      var deck = read(text);
      show(check(deck, pool), pool, out);
      if (!section || !form.getAttribute("data-rulings")) return null;
      rulings = rulings || fetch(form.getAttribute("data-rulings")).then(function (r) {
        if (!r.ok) throw new Error("the rulings could not be loaded");
        return r.json();
      });
      return rulings.then(function (data) { showRulings(deck, data, section); });
    }).catch(function (error) { out.textContent = String(error.message || error); });
  });
})();
