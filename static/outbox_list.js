// What the page says about the outbox (static/outbox.js) and the network: the banner (#net: offline, changes waiting,
// a refusal, a kept copy of the page, the last thing said), the list of this table's waiting changes above its hands
// (#waiting: Edit, Fix it, Discard), while they wait the next hand and its dealer as they will be and the totals
// saying they are without them, and when the live scoreboard last heard from the server (#heard). It draws from the
// outbox's "scorekeeper:outbox" and "scorekeeper:say" (and "scorekeeper:editing" from static/offline_edit.js); its
// buttons ask by events: "scorekeeper:edit" (static/offline_edit.js), "scorekeeper:outbox-fix", "-discard".
(function () {
  "use strict";
  var net = document.getElementById("net");
  if (!net) { return; }
  var T = Object.assign({}, window.SK_WORDS, net.dataset), savedAt = +document.documentElement.dataset.savedAt || 0;
  var now = { list: [], offline: !navigator.onLine, heard: savedAt || Date.now(), table: null };
  var note = "", shown = null;

  function fill(text, key, value) { return (text || "").replace("{" + key + "}", value); }
  function clock(ms, seconds) {
    var o = { hour: "2-digit", minute: "2-digit" };
    if (seconds) { o.second = "2-digit"; }
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || [], o);
  }
  function ask(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); }
  function button(text, cls, onclick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary " + (cls || "");
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  }

  document.addEventListener("scorekeeper:outbox", function (e) {
    now = e.detail;
    render();
    var kept = e.detail.kept;
    if (kept && (kept.kind === "add" || kept.kind === "edit")) {  // where it went, in view
      var box = document.getElementById("waiting");
      if (box) { box.scrollIntoView({ block: "nearest" }); }
    }
  });
  document.addEventListener("scorekeeper:say", function (e) {
    note = e.detail.text || "";
    net.classList.toggle("alarm", !!e.detail.alarm);
    render();
  });
  document.addEventListener("scorekeeper:editing", render);
  // A preview asked for without the network: it says why there is none.
  document.body.addEventListener("htmx:sendError", function (e) {
    var p = document.getElementById("preview");
    if (p && e.detail.target === p) { p.textContent = T.noPreview; }
  });
  setInterval(renderHeard, 5000);  // "late" once nothing was heard for a while, even with no request

  function render() {
    var list = now.list, waiting = 0, refused = 0, offline = now.offline, lines = [];
    list.forEach(function (c) { if (c.state === "refused") { refused++; } else { waiting++; } });
    if (offline) { lines.push(navigator.onLine ? T.unreachable : T.offline); }
    if (waiting) { lines.push(waiting === 1 ? T.waitingOne : fill(T.waitingMany, "n", waiting)); }
    if (refused) { lines.push(T.refused); }
    if (savedAt && now.heard <= savedAt) { lines.push(fill(T.savedCopy, "time", clock(savedAt))); }
    if (note && !(offline && note === T.kept)) { lines.push(note); }  // offline already says it is kept
    var text = net.querySelector(".net-text");
    if (text.textContent !== lines.join(" ")) { text.textContent = lines.join(" "); }  // said once, not every poll
    net.hidden = !lines.length;
    net.classList.toggle("is-offline", offline);
    renderWaiting(list);
    renderAhead(list);
    renderHeard();
  }

  // ---- this table's changes waiting on this phone, above its hands ----
  function renderWaiting(list) {
    var hands = document.getElementById("hands"), key = now.table;
    if (!hands || !key) { return; }
    var mine = list.filter(function (c) { return c.table === key; });
    document.querySelectorAll("li.hand.doomed").forEach(function (li) { li.classList.remove("doomed"); });
    mine.forEach(function (c) {
      var gone = c.kind === "delete" && document.getElementById("hand-" + c.hand);
      if (gone) { gone.classList.add("doomed"); }  // again after every swap of the hands
    });
    var sig = JSON.stringify(mine), box = document.getElementById("waiting");
    if (box && shown === sig) { return; }
    shown = sig;
    if (!box) {
      box = document.createElement("section");
      box.id = "waiting";
      box.className = "hands waiting";
      box.setAttribute("aria-live", "polite");
      hands.parentNode.insertBefore(box, hands);
    }
    box.hidden = !mine.length;
    box.textContent = "";
    if (!mine.length) { return; }
    var h = document.createElement("h2"), ol = document.createElement("ol"), blocked = false;
    h.textContent = T.waitingTitle;
    ol.className = "hand-list";
    box.appendChild(h);
    box.appendChild(ol);
    mine.forEach(function (c) {
      var li = document.createElement("li"), head = document.createElement("div"), strong = document.createElement("strong");
      var state = document.createElement("p");
      li.className = "hand waiting-" + c.state;
      li.dataset.token = c.id;
      head.className = "hand-head";
      strong.textContent = c.label;
      head.appendChild(strong);
      var actions = document.createElement("div");
      actions.className = "hand-actions";
      var form = document.getElementById("hand-form");
      if (c.kind === "add" && c.state === "waiting" && form && new URL(form.getAttribute("action"), location.href).pathname === c.action) {
        actions.appendChild(button(T.edit, "", function () { ask("scorekeeper:edit", { change: c }); }));
      }
      if (c.kind === "edit" && c.state === "waiting" && form && c.hand) {  // a hand's edit: back into this page's form
        actions.appendChild(button(T.edit, "", function () { ask("scorekeeper:edit", { change: c }); }));
      }
      if (c.state === "refused" && (c.kind === "add" || c.kind === "edit")) {
        actions.appendChild(button(T.fix, "", function () { ask("scorekeeper:outbox-fix", { id: c.id }); }));
      }
      if (c.state !== "sending") {  // being sent: the server may have it already, so it can't be called back
        actions.appendChild(button(T.discard, "danger", function () {
          if (window.confirm(T.confirmDiscard)) { ask("scorekeeper:outbox-discard", { id: c.id }); }
        }));
      }
      head.appendChild(actions);
      li.appendChild(head);
      if (c.summary) {
        var what = document.createElement("p");
        what.className = "what";
        what.textContent = c.summary;
        li.appendChild(what);
      }
      state.className = c.state === "refused" ? "engine-error" : "waiting-state";
      state.textContent = c.state === "refused" ? fill(T.refusedReason, "reason", c.reason)
        : c.state === "editing" ? T.editing : c.state === "sending" ? T.sending : blocked ? T.blocked : T.waitingLabel;
      li.appendChild(state);
      ol.appendChild(li);
      if (c.state === "refused" || c.state === "editing") { blocked = true; }
    });
  }

  // ---- while changes wait: the next hand, its dealer and the totals as they will be once sent ----
  // The dealer is a fact of each hand, passed down the table's players (web/board.py): after k hands added here, the
  // next deals k seats after the one the server names. A delete or an undo waiting may move it: then it isn't said.
  // The totals need the server's scoring: they stay the server's, and say that they are without what waits.
  function renderAhead(list) {
    var key = now.table, title = document.getElementById("hand-title"), totals = document.getElementById("totals");
    if (!key || !T.handN) { return; }
    var mine = list.filter(function (c) { return c.table === key; });
    var adds = mine.filter(function (c) { return c.kind === "add"; }).length;
    var known = !mine.some(function (c) { return c.kind === "delete" || c.kind === "undo"; });
    var dealer = null, board = totals ? totals.dataset : {};
    if (title && board.dealer) {
      var order = JSON.parse(board.order || "[]"), at = order.indexOf(board.dealer);
      dealer = !mine.length ? board.dealer : known && at >= 0 ? order[(at + adds) % order.length] : null;
      var form = document.getElementById("hand-form");
      if (form && form.dataset.editHand) {  // the form is a hand's being edited: its heading says so (a poll swaps it back)
        if (title.textContent !== form.dataset.label) { title.textContent = form.dataset.label; }
      } else if (mine.length || title.dataset.ahead) {
        var small = document.createElement("small"), text = known ? fill(T.handN, "n", +board.hands + adds + 1) : T.newHand;
        small.textContent = dealer ? fill(T.deals, "name", apart(dealer)) : T.dealerLater;
        small.className = mine.length ? "pending" : "";
        var shown = title.querySelector("small");
        if (title.textContent !== text + " " + small.textContent || !shown || shown.className !== small.className) {
          title.textContent = text + " ";
          title.appendChild(small);
        }
        if (mine.length) { title.dataset.ahead = "1"; } else { delete title.dataset.ahead; }
      }
    }
    if (!totals) { return; }
    var said = totals.querySelector(".waiting-note");
    if (said) {
      var words = mine.length === 1 ? T.totalsOne : fill(T.totalsMany, "n", mine.length);
      said.hidden = !mine.length;
      if (mine.length && said.textContent !== words) { said.textContent = words; }
    }
    var mark = dealer || (mine.length ? null : totals.dataset.dealer);
    totals.querySelectorAll("tr[data-player]").forEach(function (tr) {
      var is = tr.dataset.player === mark, span = tr.querySelector(".deal-mark");
      tr.classList.toggle("dealer", is);
      tr.classList.toggle("pending", is && mine.length > 0);
      if (is && !span) {
        span = document.createElement("span");
        span.className = "deal-mark";
        span.textContent = T.dealsMark;
        tr.querySelector("th").appendChild(document.createTextNode(" "));
        tr.querySelector("th").appendChild(span);
      } else if (!is && span) {
        span.remove();
      }
    });
  }
  function apart(name) { return /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(name) ? "\u2068" + name + "\u2069" : name; }

  // ---- the live scoreboard: when it last heard from the server ----
  function renderHeard() {
    var live = document.getElementById("live");
    if (!live) { return; }
    var p = document.getElementById("heard");
    if (!p) {
      p = document.createElement("p");
      p.id = "heard";
      p.className = "heard";
      live.parentNode.insertBefore(p, live.nextSibling);
    }
    var late = Date.now() - now.heard > 10000 || !navigator.onLine || now.offline;
    p.textContent = fill(T.heard, "time", clock(now.heard, true));
    p.classList.toggle("late", late);
    live.classList.toggle("late", late);  // its dot turns red: "live" is not true now
  }
})();
