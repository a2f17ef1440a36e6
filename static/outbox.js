// The outbox: a save, an edit, a delete or an undo posted while the phone is offline (or the server doesn't answer,
// or older changes of that table still wait) is kept in localStorage ("scorekeeper.outbox") and sent by itself, in
// order, as soon as the server answers again: each with its form's idempotency token (a resend is never recorded
// twice) and a fresh CSRF token (GET /csrf). A change the server refuses stays, with the server's own reason, until
// it is fixed or discarded: the changes of that table behind it wait for it. The posts it keeps are the ones #net's
// data-queued names (web/assets.py QUEUED; the service worker has the same from its BUILD).
// It tells the page, by events on document: "scorekeeper:outbox" whenever its list or the server's answering changes
// (static/outbox_list.js shows them, static/offline_edit.js reads them), "scorekeeper:say" (a sentence for the
// banner), and "scorekeeper:kept" on a form whose post it kept (cancelable: the form's own script takes it). It is
// asked by "scorekeeper:outbox-mark" (a change in the hand form, or waiting again), "scorekeeper:outbox-discard" and
// "scorekeeper:outbox-fix" (a refused change sent again now). Its texts: /offline-words.js and #net's data attributes.
(function () {
  "use strict";
  var KEY = "scorekeeper.outbox", RETRY = 5000;
  var net = document.getElementById("net");
  if (!net || !net.dataset.queued) { return; }
  var T = Object.assign({}, window.SK_WORDS, net.dataset), savedAt = +document.documentElement.dataset.savedAt || 0;
  var renewed = document.documentElement.hasAttribute("data-renewed");
  var CHANGE = new RegExp(net.dataset.queued);  // groups: the table's key, what follows it, a hand's number, "/delete"
  var TRY_LATER = [429, 502, 503, 504];  // the server is there but can't take a change now: it waits, and goes later
  var down = false, sending = false, ready = false, heard = savedAt || Date.now();

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
  function tableKey() {
    var m = location.pathname.match(/^\/[tv]\/([^/]+)/);
    return m ? m[1] : null;
  }
  // A table's changes go through the queue while the phone is offline, the server doesn't answer, or some of them
  // wait; a kept page's (the worker's copy) always do: its CSRF token may be an old one.
  function queuing(table, list) {
    return !!savedAt || !navigator.onLine || down || (list || load()).some(function (c) { return c.table === table; });
  }

  // What the outbox holds and whether the server answers, to whoever shows it: `ready` once what a closed page left
  // half done is put right (see below), `queuing` for this page's table, `kept` the change just kept.
  function tell(kept) {
    var list = load(), table = tableKey();
    document.dispatchEvent(new CustomEvent("scorekeeper:outbox", { detail: {
      list: list, offline: !navigator.onLine || down, heard: heard, ready: ready, table: table,
      queuing: queuing(table, list), kept: kept || null } }));
  }
  function say(text, alarm) {
    document.dispatchEvent(new CustomEvent("scorekeeper:say", { detail: { text: text, alarm: !!alarm } }));
  }

  // A kept page: its forms' tokens are fresh ones (a token is used once), and it says it may be out of date;
  // a kept page the server said is current (304: static/sw.js) renews its tokens too, and is the page as it is.
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

  // ---- keeping a post ----
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

  function describe(form, m) {
    var hand = m[3], kind = m[2] === "undo" ? "undo" : m[4] ? "delete" : hand ? "edit" : "add";
    var title = form.querySelector("h2"), li = form.closest("li.hand");
    var label = kind === "add" ? T.newHand
      : kind === "edit" ? (form.dataset.label || (title ? title.textContent.trim() : ""))
      : kind === "delete" ? fill(T.deleteLabel, "hand", li ? li.querySelector("strong").textContent : hand)
      : T.undoLabel;  // sent in order: it undoes the change just before it
    return { kind: kind, hand: hand ? +hand : null, label: label,
             summary: kind === "add" || kind === "edit" ? summary(form) : "" };
  }

  document.addEventListener("submit", function (e) {
    // getAttribute: the hand form's buttons are named "action", which hides form.action
    var form = e.target, action = new URL(form.getAttribute("action") || "", location.href);
    var m = action.pathname.match(CHANGE);
    if (!m || (form.getAttribute("method") || "").toLowerCase() !== "post" || action.origin !== location.origin) { return; }
    var submitter = e.submitter;
    if (submitter && submitter.name === "action" && submitter.value !== "save") { return; }
    // a form holding a waiting change (data-editing: static/offline_edit.js) always goes through the queue
    if (!form.dataset.editing && !queuing(m[1])) { return; }  // online with nothing waiting: the form posts as always
    e.preventDefault();
    e.stopPropagation();  // kept here: htmx (the hand form's hx-post) must not send it too
    keep(form, submitter, m, action);
  }, true);

  // A Save sent through htmx that never reached the server (the network went under it): kept like one made offline.
  document.body.addEventListener("htmx:sendError", function (e) {
    down = true;
    var form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    if (form && form.id === "hand-form" && !form.dataset.editing &&
        !(sent && sent.get && sent.get("action") && sent.get("action") !== "save")) {  // Count, a group: no hand
      var action = new URL(form.getAttribute("action") || "", location.href), m = action.pathname.match(CHANGE);
      // what was sent, not the form as it is now (a second Save may have reset it meanwhile)
      if (m) { keep(form, { name: "action", value: "save" }, m, action, sent); }
    }
    tell();
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
    var body = new URLSearchParams(data), change = describe(form, m);
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
      if (done === "undone") { tell(); say(T.undone); flush(); return; }
      after(form, change);
    }, function () {
      tell();
      say(T.storage, true);  // nothing was kept: the form keeps what was typed
    });
  }

  // Kept: the form is ready for the next change, as when the server took it. A hand's edit made in the table page's
  // form is closed by its script (static/offline_edit.js takes the "scorekeeper:kept" event); one made on the hand's
  // own edit page goes back to its table.
  function after(form, change) {
    delete form.dataset.editing;
    if (change.kind === "add") {
      form.reset();
      var t = form.querySelector("input[name=token]");
      if (t) { t.value = token(); }
      var p = document.getElementById("preview");
      if (p) { p.textContent = ""; }
    } else if (change.kind === "delete") {  // the page's Delete buttons share one token: the next delete needs its own
      var fresh = token();
      document.querySelectorAll("form[action$='/delete'] input[name=token]").forEach(function (i) { i.value = fresh; });
    }
    var taken = !form.dispatchEvent(new CustomEvent("scorekeeper:kept", { bubbles: true, cancelable: true,
                                                                          detail: { change: change } }));
    tell(change);
    say(T.kept);
    if (change.kind === "edit" && !taken) { location.assign("/t/" + change.table); }
    flush();
  }

  // A post the service worker caught when the network failed under it (static/sw.js): queued here. The page is
  // its table's at once (static/tables.js remembers the table by the page's address), the post is queued at the start.
  var handed = document.documentElement.dataset.handoff;
  var hm = (document.documentElement.dataset.handoffAction || "").match(CHANGE);
  if (handed !== undefined && hm) { history.replaceState(null, "", "/t/" + hm[1]); }
  function handoff() {
    if (handed === undefined || !hm) { return; }
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
    }).then(function () { tell(); say(T.kept); flush(); }, function () { say(T.storage, true); });
  }
  // (static/offline_edit.js has the same, to put a hand into the form it edits)
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

  // Why the server recorded nothing: its own sentence, as it is (X-Refused: every refusal of this app says it, a
  // refused Save, web/table/tables.py refused, and an error page, web/site.py error_page); from anything else (a proxy's
  // error page), the status alone.
  function reason(status, refused) {
    if (refused) {
      try { return decodeURIComponent(refused); } catch (e) { /* not encoded as ours */ }
    }
    return fill(T.refusedStatus, "status", status);
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
        tell();
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
        var why = reason(res.status, res.headers.get("X-Refused"));
        return update(change.id, function (c) { c.state = "refused"; c.reason = why; });
      })
      .catch(function (err) {  // not sent: it waits again
        return update(change.id, function (c) { if (c.state === "sending") { c.state = "waiting"; } })
          .then(function () { throw err; });
      });
  }

  function flush() {
    if (sending || !sendable()) { return; }
    sending = true;
    tell();
    fetch("/csrf", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) { throw new Error("no token"); } return r.json(); })
      .then(function (j) {
        down = false;
        var next = function () {
          var c = sendable();
          return c ? send(c, j.csrf_token).then(function () { tell(); return next(); }) : null;
        };
        return next();
      })
      .catch(function () { down = true; })
      .then(function () {
        sending = false;
        if (!load().length) { say(""); }  // all sent: "kept on this phone" is no longer news
        tell();
      });
  }

  // A refused hand, asked to be fixed (its Fix it): sent again first (the table may have changed since); saved, it
  // goes and the table opens. Refused again: posted as a form, so the server shows why beside what was entered
  // (when the page's hand form holds its token the waiting copy goes; on an error page it stays refused: see the start).
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
      .catch(function () { down = true; tell(); });
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

  // ---- asked by the page ----
  // A change into the hand form (editing: true) or back to waiting (false), if it is still what that undoes;
  // detail.done: a promise of whether it was.
  document.addEventListener("scorekeeper:outbox-mark", function (e) {
    var d = e.detail, from = d.editing ? "waiting" : "editing", was = false;
    d.done = update(d.id, function (c) {
      if (c.state === from) { c.state = d.editing ? "editing" : "waiting"; was = true; }
    }).then(function () { tell(); return was; });
  });
  document.addEventListener("scorekeeper:outbox-discard", function (e) {
    update(e.detail.id, function (c) { c.gone = true; }).then(function () { tell(); flush(); });
  });
  document.addEventListener("scorekeeper:outbox-fix", function (e) {
    var c = load().filter(function (x) { return x.id === e.detail.id; })[0];
    if (c) { fix(c); }
  });

  // ---- the server's answering ----
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    // the counting aid's cards come from this phone's caches as often as from the server: not a sign of it
    if (/^\/count\/[^/]+\/aid\?/.test((e.detail.pathInfo || {}).requestPath || "")) { return; }
    if (xhr && xhr.status > 0 && xhr.status < 500) {
      heard = Date.now();
      if (down) { down = false; flush(); }
    }
    tell();
  });
  window.addEventListener("online", function () { down = false; flush(); tell(); });
  window.addEventListener("offline", function () { tell(); });
  window.addEventListener("storage", function (e) { if (e.key === KEY) { tell(); } });
  setInterval(function () { if (sendable()) { flush(); } }, RETRY);

  // The rest now: this script comes last (app/base.html's later scripts), so every other script of the page listens.
  tell();
  handoff();
  started.then(function () { ready = true; tell(); flush(); });
})();
