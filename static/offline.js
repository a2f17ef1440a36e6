// Offline: the service worker's registration, the queue of changes made without a network, the banner.
// A save, edit, delete or undo posted while the phone is offline (or the server doesn't answer, or older
// changes still wait) is kept in localStorage ("scorekeeper.outbox"), shown above the table's hands as
// waiting to send, and sent by itself, in order, as soon as the server answers again: each with its
// form's idempotency token (a resend is never recorded twice) and a fresh CSRF token (GET /csrf). A change
// the server refuses stays, with the server's own reason, until it is fixed or discarded: the changes of
// that table behind it wait for it. Every text comes translated: from /offline-words.js (SK_WORDS, loaded
// before this script) and, for the few only a scorer's page needs, #net's data attributes.
(function () {
  "use strict";
  var KEY = "scorekeeper.outbox", PAGES = "sk-pages", RETRY = 5000;
  var net = document.getElementById("net");
  if (!net) { return; }
  var T = Object.assign({}, window.SK_WORDS, net.dataset), savedAt = +document.documentElement.dataset.savedAt || 0;
  var down = false, sending = false, heard = savedAt || Date.now(), note = "", shown = null;
  var CHANGE = /^\/t\/([^/]+)\/(hands(?:\/(\d+)(\/delete)?)?|undo)$/;
  var TRY_LATER = [429, 502, 503, 504];  // the server is there but can't take a change now: it waits, and goes later

  if ("serviceWorker" in navigator && window.isSecureContext) {  // plain http on a LAN: no worker, the queue still works
    navigator.serviceWorker.register("/sw.js", { updateViaCache: "none" }).catch(function () { /* none: online only */ });
  }

  // ---- the queue ----
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (e) { return []; }
  }
  function store(list) { localStorage.setItem(KEY, JSON.stringify(list)); }  // throws when full or blocked
  // A read-modify-write of the queue: under a lock shared by this phone's tabs where there is one (another
  // tab's write can't fall between the read and the write); without, as it is. Its promise holds fn's answer.
  function atomic(fn) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request(KEY, function () { return fn(); });
    }
    try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); }
  }
  function update(id, change) {
    return atomic(function () {
      var list = load();
      list.forEach(function (c) { if (c.id === id) { change(c); } });
      store(list.filter(function (c) { return !c.gone; }));
    });
  }
  function token() {
    var b = new Uint8Array(16), s = "";
    crypto.getRandomValues(b);
    b.forEach(function (x) { s += String.fromCharCode(x); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function fill(text, key, value) { return (text || "").replace("{" + key + "}", value); }
  function clock(ms, seconds) {
    var o = { hour: "2-digit", minute: "2-digit" };
    if (seconds) { o.second = "2-digit"; }
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || [], o);
  }
  function tableKey() {
    var m = location.pathname.match(/^\/[tv]\/([^/]+)/);
    return m ? m[1] : null;
  }

  // A kept page: its forms' tokens are fresh ones (a token is used once), and it says it may be out of date;
  // a kept page the server said is current (304: static/sw.js) renews its tokens too, and is the page as it is.
  var renewed = document.documentElement.hasAttribute("data-renewed");
  if (savedAt || renewed) {
    document.querySelectorAll("input[name=token]").forEach(function (i) { i.value = token(); });
  }
  // An edit left half done (the page closed): the waiting hand goes as it was; a change whose sending was cut
  // off waits again (its token: never recorded twice). A refused change posted to be fixed: when this page's
  // hand form holds it (its token) the form has it now; on any other page (an error page) it is refused still.
  var formToken = document.querySelector("#hand-form [name=token]");
  formToken = formToken && !savedAt && !renewed ? formToken.value : null;
  var started = atomic(function () {
    if (load().some(function (c) { return c.state === "editing" || c.state === "fixing" || c.state === "sending"; })) {
      store(load().filter(function (c) {
        if (c.state === "editing" || c.state === "sending") { c.state = "waiting"; }
        if (c.state === "fixing") { c.state = "refused"; return !formToken || c.id !== formToken; }
        return true;
      }));
    }
  }).catch(function () { /* storage blocked: said when something is to be kept */ });

  // What a hand's form says, in its own words: the chosen buttons and the numbers typed.
  function summary(form) {
    var parts = [];
    form.querySelectorAll("input").forEach(function (i) {
      if (i.type === "hidden" || !i.name || i.name === "card" || /^c_/.test(i.name) || i.closest("details.count")) { return; }
      var label = i.closest("label");
      if (!label || label.offsetParent === null) { return; }
      if (i.type === "radio" || i.type === "checkbox") {
        if (i.checked) { parts.push(label.textContent.trim()); }
      } else if (i.value.trim()) {
        var span = label.querySelector("span");
        parts.push((span ? span.textContent.trim() + " " : "") + i.value.trim());
      }
    });
    return parts.join(" · ");
  }

  function describe(form, submitter, m) {
    var hand = m[3], kind = m[2] === "undo" ? "undo" : m[4] ? "delete" : hand ? "edit" : "add";
    var title = form.querySelector("h2"), li = form.closest("li.hand");
    var label = kind === "add" ? T.newHand
      : kind === "edit" ? (form.dataset.label || (title ? title.textContent.trim() : ""))
      : kind === "delete" ? fill(T.deleteLabel, "hand", li ? li.querySelector("strong").textContent : hand)
      : T.undoLabel;  // sent in order: it undoes the change just before it
    return { kind: kind, hand: hand ? +hand : null, label: label,
             summary: kind === "add" || kind === "edit" ? summary(form) : "" };
  }

  function shouldQueue(table) {
    return !navigator.onLine || down || load().some(function (c) { return c.table === table; });
  }

  document.addEventListener("submit", function (e) {
    // getAttribute: the hand form's buttons are named "action", which hides form.action
    var form = e.target, action = new URL(form.getAttribute("action") || "", location.href);
    var m = action.pathname.match(CHANGE);
    if (!m || (form.getAttribute("method") || "").toLowerCase() !== "post" || action.origin !== location.origin) { return; }
    var submitter = e.submitter;
    if (submitter && submitter.name === "action" && submitter.value !== "save") { return; }
    var editing = form.dataset.editing;
    // A kept page (the worker's copy) always goes through the queue: its CSRF token may be an old one.
    if (!editing && !savedAt && !shouldQueue(m[1])) { return; }  // online with nothing waiting: the form posts as always
    e.preventDefault();
    e.stopPropagation();  // kept here: htmx (the hand form's hx-post) must not send it too
    keep(form, submitter, m, action);
  }, true);

  // A Save sent through htmx that never reached the server (the network went under it): kept like one made offline.
  document.body.addEventListener("htmx:sendError", function (e) {
    var form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    if (!form || form.id !== "hand-form" || form.dataset.editing) { return; }
    if (sent && sent.get && sent.get("action") && sent.get("action") !== "save") { return; }  // Count, a group: no hand
    var action = new URL(form.getAttribute("action") || "", location.href), m = action.pathname.match(CHANGE);
    // what was sent, not the form as it is now (a second Save may have reset it meanwhile)
    if (m) { keep(form, { name: "action", value: "save" }, m, action, sent); }
  });

  // A Save the server couldn't take now (its database is down, it is overloaded: 503, 502, 504, 429): kept like one
  // made offline, and sent when the server answers again; the form is the next hand's, as after a Save.
  document.body.addEventListener("htmx:responseError", function (e) {
    var xhr = e.detail.xhr, form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    if (!xhr || TRY_LATER.indexOf(xhr.status) < 0 || !form || form.id !== "hand-form" || form.dataset.editing) { return; }
    if (sent && sent.get && sent.get("action") && sent.get("action") !== "save") { return; }  // Count, a group: no hand
    var action = new URL(form.getAttribute("action") || "", location.href), m = action.pathname.match(CHANGE);
    if (!m) { return; }
    down = true;
    keep(form, { name: "action", value: "save" }, m, action, sent);
  });

  function keep(form, submitter, m, action, sent) {
    var editing = form.dataset.editing;
    var data = sent ? new FormData() : new FormData(form);
    if (sent) { sent.forEach(function (v, k) { data.append(k, v); }); }
    if (submitter && submitter.name) { data.set(submitter.name, submitter.value); }
    var body = new URLSearchParams(data), change = describe(form, submitter, m);
    change.id = editing || body.get("token") || token();
    body.set("token", change.id);
    change.table = m[1]; change.action = action.pathname; change.body = body.toString();
    change.at = Date.now(); change.state = "waiting";
    atomic(function () {
      var list = load(), at = -1;
      list.forEach(function (c, k) {
        if ((c.id === change.id || change.kind === "delete") && c.action === change.action) { at = k; }
      });
      if (at >= 0 && !editing) { return "twice"; }  // the same form tapped twice (or that hand's Delete again): kept once
      if (change.kind === "undo") {
        // Undo while changes of this table wait: the last of them is taken back; never a waiting undo (a second
        // Undo undoes one more), nor one being sent (the server has it, or will: a real undo follows it).
        var mine = list.filter(function (c) { return c.table === m[1] && c.state !== "editing"; });
        var last = mine[mine.length - 1];
        if (last && last.kind !== "undo" && last.state !== "sending") {
          last.gone = true;
          store(list.filter(function (c) { return !c.gone; }));
          return "undone";
        }
        if (last) {  // behind a change of this phone's: the button's "change" names one before it; it undoes that one
          var b = new URLSearchParams(change.body);
          b.delete("change");
          change.body = b.toString();
        }
      }
      if (at >= 0) { list[at] = change; } else { list.push(change); }
      store(list);
      return "kept";
    }).then(function (done) {
      if (done === "twice") { return; }
      if (done === "undone") { say(T.undone); flush(); return; }
      after(form, change);
    }, function () {
      say(T.storage, true);  // nothing was kept: the form keeps what was typed
    });
  }

  function after(form, change) {
    delete form.dataset.editing;
    say(T.kept);
    if (change.kind === "add") {
      form.reset();
      var t = form.querySelector("input[name=token]");
      if (t) { t.value = token(); }
      var p = document.getElementById("preview");
      if (p) { p.textContent = ""; }
      render();
      var w = document.getElementById("waiting");
      if (w) { w.scrollIntoView({ block: "nearest" }); }
    } else if (change.kind === "edit" && form.dataset.editHand) {  // edited on the table page: the next hand's form again
      closeEdit(form);
      render();
      var box = document.getElementById("waiting");
      if (box) { box.scrollIntoView({ block: "nearest" }); }
    } else if (change.kind === "edit") {
      location.assign("/t/" + change.table);
    } else {
      if (change.kind === "delete") {  // the page's Delete buttons share one token: the next delete needs its own
        var fresh = token();
        document.querySelectorAll("form[action$='/delete'] input[name=token]").forEach(function (i) { i.value = fresh; });
      }
      render();
    }
    flush();
  }

  // A post the service worker caught when the network failed under it (static/sw.js): queued here.
  var handed = document.documentElement.dataset.handoff;
  var hm = (document.documentElement.dataset.handoffAction || "").match(CHANGE);
  if (handed !== undefined && hm) {
    history.replaceState(null, "", "/t/" + hm[1]);
    var values = new URLSearchParams(handed), form = document.getElementById("hand-form"), li = hm[3] && document.getElementById("hand-" + hm[3]);
    var kind = hm[2] === "undo" ? "undo" : hm[4] ? "delete" : hm[3] ? "edit" : "add", what = "";
    if (kind === "add" && form) { fillForm(form, values); what = summary(form); form.reset(); }
    var id = values.get("token") || token();
    values.set("token", id);
    var caught = { kind: kind, hand: hm[3] ? +hm[3] : null, summary: what, id: id, table: hm[1], action: hm[0],
                   body: values.toString(), at: Date.now(), state: "waiting",
                   label: kind === "add" ? T.newHand : kind === "edit" ? fill(T.editLabel, "n", hm[3])
                     : kind === "delete" ? fill(T.deleteLabel, "hand", li ? li.querySelector("strong").textContent : hm[3])
                     : T.undoLabel };
    atomic(function () {
      var known = load();
      if (!known.some(function (c) { return c.id === id && c.action === caught.action; })) { known.push(caught); store(known); }
    }).then(function () { say(T.kept); flush(); }, function () { say(T.storage, true); });
  }

  // ---- sending ----
  function sendable() {
    var blocked = {};
    var list = load();
    for (var k = 0; k < list.length; k++) {
      var c = list[k];
      if (blocked[c.table]) { continue; }
      if (c.state === "waiting") { return c; }
      blocked[c.table] = true;  // refused, being edited or sent: what comes after it for that table waits
    }
    return null;
  }

  function reason(html, status, refused) {
    if (refused) {  // the server said why it recorded nothing (web/tables.py refused): its sentence, as it is
      try { return decodeURIComponent(refused); } catch (e) { /* not encoded as ours: read the page */ }
    }
    var doc = new DOMParser().parseFromString(html, "text/html"), said = [];
    // the hand form's own errors and the page's message: never a hand row's engine error elsewhere on the page
    doc.querySelectorAll("#hand-form .form-errors, #hand-form .engine-error, #hand-form .field-error, main .message").forEach(function (el) {
      var t = el.textContent.trim();
      if (t && said.indexOf(t) < 0) { said.push(t); }
    });
    return said.join(" ") || fill(T.refusedStatus, "status", status);
  }

  function send(change, csrf) {
    var body = new URLSearchParams(change.body);
    body.set("csrf_token", csrf);
    // An undo follows its redirect: "nothing was undone" (the table moved on) is said on the page it leads to.
    var undo = change.kind === "undo", gone = true;
    // Being sent: not to be edited, discarded or taken back by an Undo now (the server may have it already).
    return update(change.id, function (c) { if (c.state === "waiting") { c.state = "sending"; gone = false; } })
      .then(function () {
        if (gone) { return true; }  // changed meanwhile (another tab): sendable() says what is next
        render();
        return fetch(change.action, { method: "POST", body: body, credentials: "same-origin", redirect: undo ? "follow" : "manual" });
      })
      .then(function (res) {
        if (res === true) { return true; }
        if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
          return update(change.id, function (c) { c.gone = true; });
        }
        if (undo && res.ok && res.redirected) {
          return res.text().then(function (html) {
            var said = new DOMParser().parseFromString(html, "text/html").querySelector("main .message");
            return update(change.id, function (c) {
              if (said) { c.state = "refused"; c.reason = said.textContent.trim(); } else { c.gone = true; }
            });
          });
        }
        if (TRY_LATER.indexOf(res.status) >= 0) {
          throw new Error("not now");
        }
        return res.text().then(function (html) {
          var why = reason(html, res.status, res.headers.get("X-Refused"));
          return update(change.id, function (c) { c.state = "refused"; c.reason = why; });
        });
      })
      .catch(function (err) {  // not sent: it waits again
        return update(change.id, function (c) { if (c.state === "sending") { c.state = "waiting"; } })
          .then(function () { throw err; });
      });
  }

  function flush() {
    if (sending || !sendable()) { return; }
    sending = true;
    render();
    fetch("/csrf", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error("no token"); } return r.json(); })
      .then(function (j) {
        down = false;
        var next = function () {
          var c = sendable();
          return c ? send(c, j.csrf_token).then(function () { render(); return next(); }) : null;
        };
        return next();
      })
      .catch(function () { down = true; })
      .then(function () {
        sending = false;
        if (!load().length) { say(""); }  // all sent: "kept on this phone" is no longer news
        render();
      });
  }

  // ---- what the page shows ----
  function say(text, alarm) {
    note = text || "";
    net.classList.toggle("alarm", !!alarm);
    render();
  }

  function button(text, cls, onclick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary " + (cls || "");
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  }

  function render() {
    var list = load(), waiting = 0, refused = 0, offline = !navigator.onLine || down, lines = [];
    list.forEach(function (c) { if (c.state === "refused") { refused++; } else { waiting++; } });
    if (offline) { lines.push(navigator.onLine ? T.unreachable : T.offline); }
    if (waiting) { lines.push(waiting === 1 ? T.waitingOne : fill(T.waitingMany, "n", waiting)); }
    if (refused) { lines.push(T.refused); }
    if (savedAt && heard <= savedAt) { lines.push(fill(T.savedCopy, "time", clock(savedAt))); }
    if (note && !(offline && note === T.kept)) { lines.push(note); }  // offline already says it is kept
    var text = net.querySelector(".net-text");
    if (text.textContent !== lines.join(" ")) { text.textContent = lines.join(" "); }  // said once, not every poll
    net.hidden = !lines.length;
    net.classList.toggle("is-offline", offline);
    renderWaiting(list);
    renderAhead(list);
    renderHeard();
  }

  // ---- while changes wait: the next hand, its dealer and the totals as they will be once sent ----
  // The dealer is a fact of each hand, passed down the table's players (web/board.py): after k hands added here, the
  // next deals k seats after the one the server names. A delete or an undo waiting may move it: then it isn't said.
  // The totals need the server's scoring: they stay the server's, and say that they are without what waits.
  function renderAhead(list) {
    var key = tableKey(), title = document.getElementById("hand-title"), totals = document.getElementById("totals");
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
    var note = totals.querySelector(".waiting-note");
    if (note) {
      var said = mine.length === 1 ? T.totalsOne : fill(T.totalsMany, "n", mine.length);
      note.hidden = !mine.length;
      if (mine.length && note.textContent !== said) { note.textContent = said; }
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

  // ---- a hand edited without the network, on the table page ----
  // Its row's Edit link carries what its edit form holds (data-edit-form, web/tables.py hand_edit): the page's own
  // hand form takes it (overlaid with this phone's waiting change for that hand, if any), and Save keeps the edit in
  // the queue. Never an old copy of the hand's edit page: the table page the phone has now is the newest it knows.
  var stash = null;  // the next hand's form as it was before the edit: it comes back after
  function openEdit(number) {
    var form = document.getElementById("hand-form"), key = tableKey();
    var link = document.querySelector("#hand-" + number + " .hand-actions a[data-edit-form]");
    var label = link ? link.dataset.index || number : number, data = null;
    try { data = link && link.dataset.editForm ? JSON.parse(link.dataset.editForm) : null; } catch (e) { data = null; }
    var setup = form && form.querySelector("input[name=setup]");
    var action = "/t/" + key + "/hands/" + number, mine = null;
    load().forEach(function (c) {
      if (c.table === key && c.action === action && c.kind === "edit" && c.state !== "sending") { mine = c; }
    });
    var values = mine ? new URLSearchParams(mine.body) : new URLSearchParams();
    if (!mine && data) {
      Object.keys(data.values).forEach(function (name) {
        [].concat(data.values[name]).forEach(function (v) { values.append(name, v); });
      });
      values.set("version", data.version);
    }
    // the page's form is for the table's setup now: a hand played with another one (or not on the page) can't be
    // filled into it, and a field or choice it doesn't have would be lost
    var fits = form && (mine || (data && setup && setup.value === data.setup));
    values.forEach(function (v, name) {
      if (!fits || /^(csrf_token|token|version|setup|action|change|counted|card|group)$/.test(name) || /^c_/.test(name)) { return; }
      var inputs = form.querySelectorAll("[name='" + name.replace(/'/g, "") + "']");
      var ok = [].some.call(inputs, function (i) {
        return i.type === "radio" || i.type === "checkbox" ? i.value === v : true;
      });
      if (!ok && !(v === "" && inputs.length)) { fits = false; }
    });
    if (!fits) {
      say(fill(T.cannotEdit, "n", label), true);
      return;
    }
    if (!stash) {
      if (form.dataset.editing) {  // a waiting hand was in the form: it waits as it was
        var was = form.dataset.editing;
        update(was, function (x) { if (x.state === "editing") { x.state = "waiting"; } });
        form.reset();
        var t0 = form.querySelector("input[name=token]");
        if (t0) { t0.value = token(); }
        delete form.dataset.editing;
      }
      stash = { action: form.getAttribute("action"), values: new URLSearchParams(new FormData(form)).toString(),
                save: form.querySelector("button.save").textContent };
    } else if (form.dataset.editing) {
      update(form.dataset.editing, function (x) { if (x.state === "editing") { x.state = "waiting"; } });
    }
    var id = mine ? mine.id : token();
    fillForm(form, values);
    ["version", "token"].forEach(function (name) {
      var i = form.querySelector("input[type=hidden][name=" + name + "]");
      if (i) { i.value = name === "token" ? id : values.get("version") || ""; }
    });
    form.querySelectorAll(".form-errors, .engine-error, .field-error").forEach(function (el) { el.remove(); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    form.setAttribute("action", action);
    form.dataset.editing = id;
    form.dataset.editHand = number;
    form.dataset.label = fill(T.editLabel, "n", label);
    form.querySelector("button.save").textContent = T.saveChanges;
    if (!form.querySelector("button.cancel-edit")) {
      var cancel = button(T.cancel, "big cancel-edit", function () {
        var was = form.dataset.editing;
        closeEdit(form);
        update(was, function (x) { if (x.state === "editing") { x.state = "waiting"; } }).then(render, render);
      });
      form.querySelector("button.save").insertAdjacentElement("afterend", cancel);
    }
    var p = document.getElementById("preview");
    if (p) { p.textContent = ""; }
    // a refused one stays refused while it is in the form (Cancel leaves it so); Save makes it a waiting one again
    var done = mine ? update(mine.id, function (x) { if (x.state === "waiting") { x.state = "editing"; } })
      : Promise.resolve();
    done.then(function () {
      render();
      form.scrollIntoView({ block: "start" });
    });
  }

  function closeEdit(form) {
    if (!stash) { return; }
    fillForm(form, new URLSearchParams(stash.values));
    var values = new URLSearchParams(stash.values);
    ["version", "token", "setup"].forEach(function (name) {
      var i = form.querySelector("input[type=hidden][name=" + name + "]");
      if (i) { i.value = values.get(name) || ""; }
    });
    form.setAttribute("action", stash.action);
    form.querySelector("button.save").textContent = stash.save;
    var cancel = form.querySelector("button.cancel-edit");
    if (cancel) { cancel.remove(); }
    var p = document.getElementById("preview");
    if (p) { p.textContent = ""; }
    delete form.dataset.editing;
    delete form.dataset.editHand;
    delete form.dataset.label;
    var title = document.getElementById("hand-title");
    if (title) { title.dataset.ahead = "1"; }  // said again from what the server and the queue say
    stash = null;
  }

  // Edit on a hand's row, while this table's changes go through the queue (offline, the server not answering, or
  // changes of this phone waiting): the hand opens in this page's form, not its edit page (which needs the server,
  // or would come from an old copy).
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("#hands li.hand .hand-actions a[href]");
    if (!a || e.defaultPrevented || e.button || e.metaKey || e.ctrlKey || e.shiftKey) { return; }
    var m = new URL(a.href, location.href).pathname.match(/^\/t\/([^/]+)\/hands\/(\d+)$/);
    if (!m || !document.getElementById("hand-form") || !(savedAt || shouldQueue(tableKey()))) { return; }
    e.preventDefault();
    openEdit(+m[2]);
  });

  function renderWaiting(list) {
    var hands = document.getElementById("hands"), key = tableKey();
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
        actions.appendChild(button(T.edit, "", function () { edit(c, form); }));
      }
      if (c.kind === "edit" && c.state === "waiting" && form && c.hand) {  // a hand's edit: back into this page's form
        actions.appendChild(button(T.edit, "", function () { openEdit(c.hand); }));
      }
      if (c.state === "refused" && (c.kind === "add" || c.kind === "edit")) {
        actions.appendChild(button(T.fix, "", function () { fix(c); }));
      }
      if (c.state !== "sending") {  // being sent: the server may have it already, so it can't be called back
        actions.appendChild(button(T.discard, "danger", function () {
          if (window.confirm(T.confirmDiscard)) {
            update(c.id, function (x) { x.gone = true; }).then(function () { render(); flush(); });
          }
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

  function fillForm(form, values) {
    form.reset();
    form.querySelectorAll("input").forEach(function (i) {
      if (i.type === "radio" || i.type === "checkbox") {
        i.checked = values.getAll(i.name).indexOf(i.value) >= 0;
      } else if (i.type !== "hidden" && values.has(i.name)) {
        i.value = values.get(i.name);
      }
    });
  }

  // A waiting hand back in the form: Save puts it back in its place in the queue, with its token.
  function edit(c, form) {
    var was = false;
    if (form.dataset.editHand) {  // a hand of the table was in the form: it is left as it was (its waiting copy waits)
      var other = form.dataset.editing;
      closeEdit(form);
      update(other, function (x) { if (x.state === "editing") { x.state = "waiting"; } });
    }
    update(c.id, function (x) { if (x.state === "waiting") { x.state = "editing"; was = true; } }).then(function () {
      if (!was) { render(); return; }  // sent (or being sent) meanwhile: nothing to edit
      var values = new URLSearchParams(c.body);
      fillForm(form, values);
      // the hand was made for the table as it was then (its setup and version): the server checks them
      ["setup", "version"].forEach(function (name) {
        var i = form.querySelector("input[type=hidden][name=" + name + "]");
        if (i && values.has(name)) { i.value = values.get(name); }
      });
      var t = form.querySelector("input[name=token]");
      if (t) { t.value = c.id; }
      form.dataset.editing = c.id;
      render();
      form.scrollIntoView({ block: "start" });
    });
  }

  // A refused hand: sent again first (the table may have changed since); saved, it goes and the table opens.
  // Refused again: posted as a form, so the server shows why beside what was entered (when the page's hand
  // form holds its token the waiting copy goes; on an error page it stays refused: see the start).
  function fix(c) {
    var csrf;
    fetch("/csrf", { credentials: "same-origin", cache: "no-store" }).then(function (r) { return r.json(); })
      .then(function (j) {
        csrf = j.csrf_token;
        var values = new URLSearchParams(c.body);
        values.set("csrf_token", csrf);
        return fetch(c.action, { method: "POST", body: values, credentials: "same-origin", redirect: "manual" });
      })
      .then(function (res) {
        if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
          return update(c.id, function (x) { x.gone = true; }).then(function () { location.assign("/t/" + c.table); });
        }
        return update(c.id, function (x) { x.state = "fixing"; }).then(function () { post(c, csrf); });
      })
      .catch(function () { down = true; render(); });
  }

  function post(c, csrf) {
    var f = document.createElement("form"), values = new URLSearchParams(c.body);
    f.method = "post";
    f.action = c.action;
    f.hidden = true;
    values.set("csrf_token", csrf);
    values.forEach(function (v, k) {
      var i = document.createElement("input");
      i.type = "hidden"; i.name = k; i.value = v;
      f.appendChild(i);
    });
    f.dataset.fixing = "1";
    document.body.appendChild(f);
    HTMLFormElement.prototype.submit.call(f);  // no submit event: never queued again
  }

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
    var late = Date.now() - heard > 10000 || !navigator.onLine || down;
    p.textContent = fill(T.heard, "time", clock(heard, true));
    p.classList.toggle("late", late);
    live.classList.toggle("late", late);  // its dot turns red: "live" is not true now
  }

  // The phone's copy of this table page follows what the page shows: once a poll or a Save brought a new version and
  // the page has been still for a few seconds (a burst of saves is one fetch), or when the page is left, the worker
  // fetches the page as it is now and keeps it (static/sw.js). Opened again without the network (an edit offline
  // among them), it shows the evening as this phone last saw it, not as it was when the page was first opened.
  var keptTag = null, keepTimer = null, keepWanted = false;
  function keepPage(xhr) {
    var tag = xhr && xhr.status === 200 && xhr.getResponseHeader("ETag");
    if (!tag || tag === keptTag) { return; }
    keptTag = tag;
    keepWanted = true;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(keepNow, 3000);
  }
  function keepNow() {
    var worker = navigator.serviceWorker;
    clearTimeout(keepTimer);
    if (!keepWanted || !worker || !worker.controller || !/^\/t\/[^/]+$/.test(location.pathname)) { return; }
    keepWanted = false;
    worker.controller.postMessage({ keep: location.pathname });
  }
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") { keepNow(); } });

  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    // a poll (its element may be gone by now: a whole board's answer brings a new one) or a Save
    var asked = (e.detail.pathInfo || {}).requestPath || "";
    if (/^\/t\/[^/]+\/board$/.test(asked.split("?")[0]) || (e.detail.elt && e.detail.elt.id === "hand-form")) { keepPage(xhr); }
    // the counting aid's cards come from this phone's caches as often as from the server: not a sign of it
    if (/^\/count\/[^/]+\/aid\?/.test((e.detail.pathInfo || {}).requestPath || "")) { return; }
    if (xhr && xhr.status === 286 && tableKey()) { forget(tableKey()); }  // the link was turned off: its pages go
    if (xhr && xhr.status > 0 && xhr.status < 500) {
      heard = Date.now();
      if (down) { down = false; flush(); }
    }
    render();
  });
  document.body.addEventListener("htmx:sendError", function (e) {
    down = true;
    var p = document.getElementById("preview");
    if (p && e.detail.target === p) { p.textContent = T.noPreview; }
    render();
  });
  window.addEventListener("online", function () { down = false; flush(); render(); });
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (e) { if (e.key === KEY) { render(); } });
  setInterval(function () { if (sendable()) { flush(); } else { renderHeard(); } }, RETRY);

  // A link turned off: every page kept under it goes (the worker does the same on a 404 or 410).
  function forget(key) {
    if (!window.caches) { return Promise.resolve(); }
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (r) {
          var m = new URL(r.url).pathname.match(/^\/[tv]\/([^/]+)/);
          return m && m[1] === key ? cache.delete(r) : null;
        }));
      });
    });
  }

  // This phone removed a table from its list: its kept pages go too (static/tables.js calls this).
  window.scorekeeperForget = function (keep) {
    if (!window.caches) { return Promise.resolve(); }
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (r) {
          var m = new URL(r.url).pathname.match(/^\/[tv]\/([^/]+)/);
          return m && keep.indexOf(m[1]) < 0 ? cache.delete(r) : null;
        }));
      });
    });
  };

  var editHand = document.documentElement.dataset.editHand, em = location.pathname.match(/^\/t\/([^/]+)\/hands\/(\d+)$/);
  if (editHand !== undefined && em) {
    history.replaceState(null, "", "/t/" + em[1]);
    started.then(function () { openEdit(+em[2]); });
  }

  render();
  started.then(function () { render(); flush(); });
})();
