// The live scoreboard on this page (web/scoreboard.py speaks the other side): the poll asks with the version it
// shows (If-None-Match), a Save asks for what this page hasn't seen (X-Board) and the evening in numbers if open
// (X-Numbers); the version is the ETag of the last answer that brought the board; rows a poll and a Save both
// brought are kept once, newest first; the line saying a saved hand is brought into view.
(function () {
  "use strict";
  // A hand saved through htmx (its answer names the new version): show the line saying it, with Undo, as the
  // page did when a Save reloaded it.
  document.body.addEventListener("htmx:afterSettle", function (e) {
    // A poll in flight while this phone saved brings the same new row as the Save's answer: keep one, and keep
    // the list newest first (a late answer puts its rows on top, even older ones).
    var seen = {}, list = document.querySelector("#hands .hand-list"), rows = [];
    document.querySelectorAll("#hands .hand-list > li[id^='hand-']").forEach(function (li) {
      if (seen[li.id]) { li.remove(); } else { seen[li.id] = true; rows.push(li); }
    });
    var number = function (li) { return +li.id.slice(5); };
    if (list && rows.some(function (li, k) { return k > 0 && number(li) > number(rows[k - 1]); })) {
      rows.sort(function (a, b) { return number(b) - number(a); }).forEach(function (li) { list.appendChild(li); });
    }
    var xhr = e.detail.xhr, said = document.getElementById("said");
    if (said && e.detail.elt && e.detail.elt.id === "hand-form" && xhr && xhr.status === 200 &&
        xhr.getResponseHeader("ETag")) {
      said.scrollIntoView({ block: "start" });
      var totals = document.getElementById("totals");  // swapped by the answer: how many hands the table has now
      if (totals && totals.dataset.hands) {  // this phone's list of tables (static/tables.js)
        document.dispatchEvent(new CustomEvent("scorekeeper:hands", { detail: { hands: totals.dataset.hands } }));
      }
    }
  });
  // The chart drawn on by the hands an answer added (web/chart.py chart_steps), the moment it is swapped in: each
  // line's last point off when it was off the grid, its new steps on, the drawing as wide as the hands. Only onto
  // the chart drawn through the hands they start from: a poll and a Save that bring the same hands draw them once.
  document.body.addEventListener("htmx:oobAfterSwap", function (e) {
    var steps = e.target, svg = steps.id === "chart-steps" && steps.parentNode.querySelector("svg[data-hands]");
    if (!svg || svg.getAttribute("data-hands") !== steps.dataset.from) { return; }
    var paths = svg.querySelectorAll("path"), more = steps.querySelectorAll("i"), drop = +steps.dataset.drop;
    if (paths.length !== more.length) { return; }
    paths.forEach(function (p, k) {
      var d = p.getAttribute("d"), at = d.indexOf("l"), drawn = d.slice(at + 1).split(" ");
      drawn = drawn.slice(0, drawn.length - drop).concat(more[k].textContent.split(" "));
      p.setAttribute("d", d.slice(0, at + 1) + drawn.join(" "));
    });
    var view = svg.getAttribute("viewBox").split(" "), zero = svg.querySelector("line");
    svg.setAttribute("viewBox", [steps.dataset.left, view[1], steps.dataset.width, view[3]].join(" "));
    if (zero) { zero.setAttribute("x1", steps.dataset.left); zero.setAttribute("x2", steps.dataset.right); }
    svg.setAttribute("data-hands", steps.dataset.to);
  });
  // The evening in numbers, opened: fetch them as they are now (closed, no answer brought them).
  document.addEventListener("toggle", function (e) {
    if (e.target.id === "numbers" && e.target.open && window.htmx) { window.htmx.trigger(e.target, "opened"); }
  }, true);
})();

// What the board's requests say: the version shown (the poll's If-None-Match, a Save's X-Board) and whether the
// evening in numbers is open.
document.addEventListener("htmx:configRequest", function (e) {
  var live = document.getElementById("live"), numbers = document.getElementById("numbers");
  if (numbers && numbers.open && (e.detail.elt === live || e.detail.elt.id === "hand-form")) {
    e.detail.headers["X-Numbers"] = "open";  // the answer then brings them too; closed, they wait until opened
  }
  if (live && live.dataset.etag && e.detail.elt.id === "hand-form") {
    e.detail.headers["X-Board"] = live.dataset.etag;  // the answer brings whatever this page hasn't seen yet
  }
  if (live && e.detail.elt === live) {
    if (live.dataset.etag) { e.detail.headers["If-None-Match"] = live.dataset.etag; }
    // a cup's table: its round as this page shows it (closed, its clock), brought again when the director changed it
    var round = document.getElementById("cup-round");
    if (round && round.dataset.roundTag) { e.detail.headers["X-Cup-Round"] = round.dataset.roundTag; }
    // every 2 s on a metered phone: the server needs neither the page's address nor the element's id
    delete e.detail.headers["HX-Current-URL"];
    delete e.detail.headers["HX-Trigger"];
  }
});
// The scoreboard poll asks "anything after the version I show?": the version is the ETag of the last answer
// that brought the board (a poll's, or a Save's), so those answers need not carry the poll element again.
document.addEventListener("htmx:afterRequest", function (e) {
  var live = document.getElementById("live"), xhr = e.detail.xhr;
  var tag = xhr && xhr.status === 200 && xhr.getResponseHeader("ETag");
  if (live && tag && (e.detail.elt === live || e.detail.elt.id === "hand-form")) { live.dataset.etag = tag; }
});
