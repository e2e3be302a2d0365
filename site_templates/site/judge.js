// The judge page: sends the example in the textarea to the server's judge and draws its
// answer. The example is kept in the address (#example=...), so a link or a reload asks
// again. Nothing from the example or the answer is written as HTML: text goes in as text,
// the drawings as images.
(function () {
  "use strict";
  const form = document.querySelector("[data-judge]");
  if (!form) return;
  const text = form.querySelector("textarea");
  const answer = document.getElementById("judge-answer");
  const copied = document.querySelector("[data-copied]");
  const PREFIX = "#example=";

  function el(tag, props, children) {
    const node = document.createElement(tag);
    Object.assign(node, props || {});
    for (const child of children || []) node.append(child);
    return node;
  }

  function fromAddress() {
    if (!location.hash.startsWith(PREFIX)) return false;
    try {
      text.value = decodeURIComponent(location.hash.slice(PREFIX.length));
      return true;
    } catch (e) {
      return false;
    }
  }

  function drawing(title, svg) {
    const img = el("img", {
      alt: title + " (drawing)",
      src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg),
    });
    return el("div", { className: "state" }, [el("h4", { textContent: title }), img]);
  }

  function clauseLink(clause) {
    // the server makes these from clause numbers; anything else is shown as text
    if (typeof clause.url !== "string" || !/^\/[a-z0-9-]+\/rules\/[A-Za-z0-9.]+\/$/.test(clause.url)) {
      return document.createTextNode(String(clause.number));
    }
    return el("a", { href: clause.url, className: "refusing-clause", textContent: String(clause.number) });
  }

  function show(data) {
    answer.replaceChildren();
    if (data.error) {
      answer.append(el("pre", { className: "judge-error", textContent: data.error }));
      return;
    }
    const verdict = data.passed ? "The example passes" : "The example fails";
    answer.append(el("p", { className: data.passed ? "judge-pass" : "judge-fail", textContent: verdict + (data.message ? ": " + data.message : ".") }));
    if (data.before_svg && data.after_svg) {
      answer.append(el("div", { className: "states" }, [drawing("Before", data.before_svg), drawing("After", data.after_svg)]));
    }
    if (data.refusals.length) {
      const items = data.refusals.map((r) => {
        const parts = [
          "Step " + r.step + " (" + r.action + ") refused" + (r.expected ? " as expected" : "") + ": " + r.message + " [" + r.reason + "]",
        ];
        if (r.clauses.length) {
          parts.push(" — see ");
          r.clauses.forEach((c, i) => {
            if (i) parts.push(", ");
            parts.push(clauseLink(c));
          });
        }
        return el("li", {}, parts);
      });
      answer.append(el("h3", { textContent: "Refused" }), el("ul", { className: "refusals" }, items));
    }
    if (data.diff.length) {
      answer.append(el("pre", { className: "judge-diff", textContent: "expected (-) vs computed (+):\n" + data.diff.join("\n") }));
    }
    const rows = data.facts.map(([k, v]) => el("tr", {}, [el("th", { scope: "row", textContent: k }), el("td", { textContent: v })]));
    answer.append(el("details", {}, [el("summary", { textContent: "Facts the engine computed" }), el("table", { className: "facts" }, rows)]));
  }

  async function run() {
    answer.replaceChildren(el("p", { textContent: "Asking the judge…" }));
    let data;
    try {
      const response = await fetch(form.dataset.run, {
        method: "POST",
        body: text.value,
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
      if (!(response.headers.get("content-type") || "").startsWith("application/json")) throw new Error("no judge");
      data = await response.json();
    } catch (e) {
      data = { error: "No judge answered: the judge needs `charnel serve` (this looks like a static copy of the site)." };
    }
    show(data);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    history.replaceState(null, "", PREFIX + encodeURIComponent(text.value));
    run();
  });

  const exampleBlock = () => "```example\n" + text.value.replace(/\s+$/, "") + "\n```\n";

  function offer(block) {
    copied.textContent = block;
    copied.hidden = false;
    if (navigator.clipboard) navigator.clipboard.writeText(block).catch(() => {});
  }

  form.querySelector("[data-copy]").addEventListener("click", () => offer(exampleBlock()));

  // "Report a question": the question as text, the example that shows it, and the link that
  // runs it again, ready to paste for a maintainer
  form.querySelector("[data-report]").addEventListener("click", () => {
    const question = form.querySelector("#judge-question").value.trim() || "(write the question here)";
    const link = location.origin + location.pathname + PREFIX + encodeURIComponent(text.value);
    offer("Question: " + question + "\n\n" + exampleBlock() + "\nRun it: " + link + "\n");
  });

  // the pickers insert a card's name, a zone (`name: `) or an action (`- name: {}`) where
  // the cursor is, as text
  const INSERTS = {
    card: (v) => v,
    zone: (v) => v + ": ",
    action: (v) => "- " + v + ": {}",
  };
  for (const button of form.querySelectorAll("[data-insert]")) {
    button.addEventListener("click", () => {
      const kind = button.dataset.insert;
      const value = form.querySelector('[data-pick="' + kind + '"]').value.trim();
      if (!value) return;
      text.focus();
      text.setRangeText(INSERTS[kind](value), text.selectionStart, text.selectionEnd, "end");
    });
  }

  window.addEventListener("hashchange", () => {
    if (fromAddress()) run();
  });
  if (fromAddress()) run();
})();
