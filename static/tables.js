// This phone's tables: remembered in localStorage (no list of all tables exists on the server).
(function () {
  "use strict";
  var KEY = "scorekeeper.tables";
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (e) { return []; }
  }
  function save(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, 30))); } catch (e) { /* private mode */ }
  }
  var table = document.getElementById("table");
  function remember() {  // a table page: remember it, newest first
    var before = load().filter(function (t) { return t.id === table.dataset.tableId; })[0] || {};
    var entry = { id: table.dataset.tableId, game: table.dataset.game, href: location.pathname,
                  players: JSON.parse(table.dataset.players || "[]"), at: Date.now(),
                  hands: +table.dataset.hands || 0, role: table.dataset.role, started: table.dataset.started,
                  settle: table.dataset.settle, finished: !!before.finished, ref: table.dataset.ref };
    save([entry].concat(load().filter(function (t) { return t.id !== entry.id; })));
  }
  if (table) { remember(); }
  var mine = document.getElementById("my-tables");
  if (mine) {  // the home page: list them (textContent: names are never parsed as HTML)
    var show = function () {
      mine.textContent = "";
      load().forEach(function (t) {
        var li = document.createElement("li"), a = document.createElement("a"), rm = document.createElement("button");
        var about = document.createElement("small"), done = document.createElement("button"), d = mine.dataset;
        a.href = t.finished && t.settle ? t.settle : t.href;  // a finished evening opens on its settle-up
        a.className = "button secondary wide";
        a.textContent = t.game + ": " + t.players.join(", ");
        about.className = "about";
        about.textContent = [t.started ? new Date(t.started).toLocaleDateString(document.documentElement.lang) : "",
                             t.hands === 1 ? d.oneHand : d.hands.replace("{n}", t.hands || 0),
                             t.role === "watcher" ? d.watcher : d.scorer,
                             t.finished ? d.finished : ""].filter(Boolean).join(" · ");
        a.appendChild(about);
        done.type = "button";
        done.className = "secondary finish";
        done.textContent = t.finished ? d.unfinish : d.finish;
        done.addEventListener("click", function () {
          save(load().map(function (x) { if (x.id === t.id) { x.finished = !x.finished; } return x; }));
          show();
        });
        rm.type = "button";
        rm.className = "secondary remove";
        rm.textContent = mine.dataset.remove;
        rm.addEventListener("click", function () {
          if (!window.confirm(mine.dataset.confirmRemove)) { return; }
          save(load().filter(function (x) { return x.id !== t.id; }));
          show();
        });
        li.appendChild(a);
        li.appendChild(done);
        li.appendChild(rm);
        mine.appendChild(li);
      });
      mine.parentNode.hidden = !mine.children.length;
      said();
    };
    // the list as it is now: the offline copies of tables no longer on it are forgotten (static/kept_pages.js, which
    // comes once the page has loaded, and asks)
    var said = function () {
      document.dispatchEvent(new CustomEvent("scorekeeper:tables", { detail: { ids: load().map(function (t) { return t.id; }) } }));
    };
    document.addEventListener("scorekeeper:tables-asked", said);
    show();
  }
  // This phone's circles: the circle pages it opened, newest first (a circle's page lists all its evenings, so an
  // evening is never lost with this list: the circle's link finds it again).
  var CIRCLES = "scorekeeper.circles";
  function circles() {
    try { return JSON.parse(localStorage.getItem(CIRCLES)) || []; } catch (e) { return []; }
  }
  var circle = document.getElementById("circle");
  if (circle) {
    var here = { key: circle.dataset.circleKey, name: circle.dataset.name, role: circle.dataset.role, href: location.pathname };
    try {
      localStorage.setItem(CIRCLES, JSON.stringify([here].concat(circles().filter(function (c) {
        return c.name !== here.name || c.role !== here.role;  // a circle's new scorer link replaces its old one
      })).slice(0, 20)));
    } catch (e) { /* private mode */ }
  }
  // The circle's evenings as they are now (a rename or a merge made there): this phone's list says their players so.
  // An evening is known by its ref (the same whichever link opened it: web/links.py table_ref), else its address.
  if (circle) {
    var now = {};
    document.querySelectorAll(".evening-list a[data-players]").forEach(function (a) {
      try { now[a.dataset.ref] = now[a.getAttribute("href")] = JSON.parse(a.dataset.players); } catch (e) { /* kept */ }
    });
    var kept = load(), changed = false;
    kept.forEach(function (t) {
      var players = now[t.ref] || now[t.href];
      if (players && JSON.stringify(players) !== JSON.stringify(t.players)) { t.players = players; changed = true; }
    });
    if (changed) { save(kept); }
  }
  var myCircles = document.getElementById("my-circles");
  if (myCircles) {
    circles().forEach(function (c) {
      var li = document.createElement("li"), a = document.createElement("a"), about = document.createElement("small");
      a.href = c.href;
      a.className = "button secondary wide";
      a.textContent = c.name;
      about.className = "about";
      about.textContent = c.role === "watcher" ? myCircles.dataset.watcher : myCircles.dataset.scorer;
      a.appendChild(about);
      li.appendChild(a);
      myCircles.appendChild(li);
    });
    myCircles.parentNode.hidden = !myCircles.children.length;
  }
  var names = document.getElementById("known-names");
  if (names) {  // opening a table: offer the names of this phone's last tables; label the dealer choice
    var seen = {};
    load().forEach(function (t) {
      t.players.forEach(function (p) {
        if (!seen[p]) { seen[p] = true; var o = document.createElement("option"); o.value = p; names.appendChild(o); }
      });
    });
    var inputs = document.querySelectorAll("input[data-seat]");
    var relabel = function () {
      var typed = [];
      inputs.forEach(function (i) { if (i.value.trim()) { typed.push(i.value.trim()); } });
      document.querySelectorAll(".dealer-choice label.choice").forEach(function (label, k) {
        label.querySelector("span").textContent = typed[k] || ("" + (k + 1));
        label.hidden = k >= Math.max(typed.length, 1);
      });
    };
    inputs.forEach(function (i) { i.addEventListener("input", relabel); });
    relabel();
  }
  // A Save's answer said how many hands the table now has (static/board.js): this phone's list says so too
  document.addEventListener("scorekeeper:hands", function (e) {
    if (table) { table.dataset.hands = e.detail.hands; remember(); }
  });
})();
