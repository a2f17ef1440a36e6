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
                  settle: table.dataset.settle, finished: !!before.finished };
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
      // the offline copies of tables no longer on the list are forgotten (static/offline.js)
      if (window.scorekeeperForget) { window.scorekeeperForget(load().map(function (t) { return t.id; })); }
    };
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
  // A refused Save: bring its first message into view, above the sticky Save bar, and put the cursor there.
  function showFirstError(root) {
    var form = root && root.querySelector ? (root.id === "hand-form" ? root : root.querySelector("#hand-form")) : null;
    if (!form) { return; }
    var bad = form.querySelector(".form-errors, .has-error, .engine-error");
    if (!bad) { return; }
    var field = form.querySelector(".has-error");
    (field || bad).scrollIntoView({ block: "center" });
    var input = field && field.querySelector("input:not([type=hidden])");
    if (input) { input.focus({ preventScroll: true }); }
  }
  showFirstError(document);
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var t = e.detail.target;  // an outerHTML swap's target is the form it replaced: look up the new one
    showFirstError(t && t.id === "hand-form" ? document : t);
  });
  // A hand saved through htmx whose answer didn't resend the form: reset this phone's form to the next hand's
  // values (X-Next-Hand: what each field holds, the new token), as a freshly loaded page would have them.
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr, form = document.getElementById("hand-form");
    var next = xhr && xhr.status === 200 && e.detail.elt && e.detail.elt.id === "hand-form" && xhr.getResponseHeader("X-Next-Hand");
    if (!next || !form) { return; }
    next = JSON.parse(next);
    form.reset();  // taps, class counts, typed points: back to the form's own defaults
    Object.keys(next.values).forEach(function (name) {
      var v = next.values[name];
      form.querySelectorAll("[name='" + name.replace(/'/g, "") + "']").forEach(function (i) {
        if (i.type === "radio" || i.type === "checkbox") {
          i.checked = i.defaultChecked = Array.isArray(v) ? v.indexOf(i.value) >= 0 : i.value === v;
        } else {
          i.value = i.defaultValue = v;
        }
      });
    });
    [["token", next.token], ["setup", next.setup]].forEach(function (p) {
      var i = form.querySelector("input[name=" + p[0] + "]");
      if (i) { i.value = i.defaultValue = p[1]; }
    });
    form.querySelectorAll("input[name=group], .group-list, .count .total").forEach(function (el) { el.remove(); });
    // what a refused Save said about the last hand is not about the next one: a new form has no messages
    form.querySelectorAll(".form-errors, .engine-error, .field-error").forEach(function (el) { el.remove(); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    var preview = document.getElementById("preview");
    if (preview) { preview.textContent = ""; }
  });
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
      if (table && xhr.getResponseHeader("X-Hands")) { table.dataset.hands = xhr.getResponseHeader("X-Hands"); remember(); }
    }
  });
  // The evening in numbers, opened: fetch them as they are now (closed, no answer brought them).
  document.addEventListener("toggle", function (e) {
    if (e.target.id === "numbers" && e.target.open && window.htmx) { window.htmx.trigger(e.target, "opened"); }
  }, true);
  // A Save refused before the form was read (a link turned off, a stale CSRF token, a table gone): post the
  // form as a page instead, so the page that says why is shown; nothing typed is lost, the token keeps it once.
  document.body.addEventListener("htmx:responseError", function (e) {
    var form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    // a server that can't take it now (its database down, overloaded): static/offline.js keeps it to send later
    if ([429, 502, 503, 504].indexOf(e.detail.xhr.status) >= 0 && document.getElementById("net")) { return; }
    var action = sent && sent.get ? sent.get("action") : null;  // a Count or a group posted by the form: no Save
    if (form && form.id === "hand-form" && form.isConnected && (!action || action === "save")) {
      HTMLFormElement.prototype.submit.call(form);
    }
  });

  // Cards tapped after a count of tapped cards filled the points (or classes changed after a count by classes):
  // those points are the old pile's. Empty them, so the preview counts the pile as it is now and Save counts it
  // (count_aid.before_save); points the player typed over the count are theirs, and stay.
  document.addEventListener("input", function (e) {
    var t = e.target, form = t.form;
    if (!form || form.id !== "hand-form" || !t.closest("#count-aid") || !(t.name === "card" || /^c_/.test(t.name))) { return; }
    var counted = form.querySelector("input[name=counted]");
    if (!counted) { return; }
    var parts = counted.value.split(":");  // field : points : what they were counted from (cards or classes)
    if (parts[2] !== (t.name === "card" ? "cards" : "classes")) { return; }  // the other way: the server says "not both"
    var field = form.querySelector("[name='" + parts[0].replace(/'/g, "") + "']");
    if (field && field.value === parts[1]) { field.value = ""; }
    counted.remove();
  });

  // Delete asks first (its form's data-confirm); in the capture phase of the window, before the offline queue
  // (static/offline.js) takes the post. Without scripts it deletes at once, and Undo is beside the trace it leaves.
  window.addEventListener("submit", function (e) {
    var f = e.target;
    if (f.dataset && f.dataset.confirm && !window.confirm(f.dataset.confirm)) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, true);

  // Fewer taps: choosing who declared opens the keypad on the points field (the same tap, where the
  // platform allows), unless the points are already typed.
  document.addEventListener("change", function (e) {
    var t = e.target, form = t.form;
    if (!form || form.id !== "hand-form" || t.type !== "radio" || !t.closest("[data-keypad-next]")) { return; }
    var points = form.querySelector("input.keypad");  // the game's points field (macros/fields.html)
    if (points && !points.value && points.offsetParent !== null) { points.focus(); }
  });
})();
