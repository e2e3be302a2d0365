"use strict";
// Live reload under `charnel serve --watch` (see charnel/serve/live.py): the server says when
// this page was rebuilt (reload) and what the last build found wrong (problems, shown as
// text over the page until a build succeeds).
(function () {
  var me = document.currentScript;
  if (!me || !window.EventSource) return;
  var query = new URLSearchParams({
    file: me.dataset.file || "", sha: me.dataset.sha || "", assets: me.dataset.assets || "",
  });
  var panel = null;
  var source = new EventSource(me.src.replace(/live\.js$/, "events") + "?" + query);

  source.addEventListener("reload", function () {
    source.close();
    location.reload();
  });
  source.addEventListener("problems", function (event) {
    show(JSON.parse(event.data));
  });

  function show(state) {
    if (panel) panel.remove();
    panel = null;
    if (!state.problems.length) return;
    panel = document.createElement("section");
    panel.id = "charnel-problems";
    panel.setAttribute("role", "alert");
    panel.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;" +
      "z-index:2147483647;margin:0;padding:0.75em 1em;background:#fff4f4;color:#5a0000;" +
      "border-top:3px solid #b00020;font:14px/1.4 ui-monospace,monospace;" +
      "box-shadow:0 -2px 8px rgba(0,0,0,.25)";
    var title = document.createElement("h2");
    title.style.cssText = "margin:0 0 .5em;font-size:1.05em";
    title.textContent = "The last build failed: " + state.summary +
      ". The pages are those of the build before; saving a fix rebuilds them.";
    panel.append(title);
    state.problems.forEach(function (text) {
      var block = document.createElement("pre");
      block.style.cssText = "margin:0 0 .75em;white-space:pre-wrap;font:inherit";
      block.textContent = text;
      panel.append(block);
    });
    document.body.append(panel);
  }
})();
