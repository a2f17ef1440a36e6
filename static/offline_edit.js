// A hand edited without the network, on the table page (#hands, #hand-form): while this table's changes go through
// the outbox (static/outbox.js: offline, the server not answering, changes of this phone waiting, or a kept copy of
// the page), a hand's Edit opens it in this page's own form, not its edit page (which needs the server, or would come
// from an old copy). The form takes what the row's Edit link carries (data-edit-form, web/hand_form.py offline_edit),
// overlaid with this phone's waiting change for that hand, if any; Save keeps the edit in the outbox, Cancel brings
// the next hand's form back. A waiting change's Edit in the list (static/outbox_list.js: "scorekeeper:edit") brings
// it back into the form the same way. The page the worker shows for a hand's edit page offline (static/sw.js,
// data-edit-hand) opens that hand here. Changes are marked in the form through "scorekeeper:outbox-mark"; the form
// changing says "scorekeeper:editing".
(function () {
  "use strict";
  var net = document.getElementById("net");
  if (!net || !net.dataset.queued || !document.getElementById("hands")) { return; }
  var T = Object.assign({}, window.SK_WORDS, net.dataset), CHANGE = new RegExp(net.dataset.queued);
  var outbox = null;  // what the outbox last said ("scorekeeper:outbox")
  var stash = null;  // the next hand's form as it was before the edit: it comes back after

  function fill(text, key, value) { return (text || "").replace("{" + key + "}", value); }
  function token() {  // a new idempotency token (static/outbox.js makes them the same way)
    var b = new Uint8Array(16), s = "";
    crypto.getRandomValues(b);
    b.forEach(function (x) { s += String.fromCharCode(x); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  // Ask the outbox to mark a change as in the form (editing) or waiting again: its promise says whether it was.
  function mark(id, editing) {
    var e = new CustomEvent("scorekeeper:outbox-mark", { detail: { id: id, editing: editing } });
    document.dispatchEvent(e);
    return e.detail.done || Promise.resolve(false);
  }
  function changed() { document.dispatchEvent(new CustomEvent("scorekeeper:editing")); }
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

  // A hand of the table (its number) into the page's form.
  function openEdit(number) {
    var form = document.getElementById("hand-form"), key = outbox.table;
    var link = document.querySelector("#hand-" + number + " .hand-actions a[data-edit-form]");
    var label = link ? link.dataset.index || number : number, data = null;
    try { data = link && link.dataset.editForm ? JSON.parse(link.dataset.editForm) : null; } catch (e) { data = null; }
    var setup = form && form.querySelector("input[name=setup]");
    var action = "/t/" + key + "/hands/" + number, mine = null;
    outbox.list.forEach(function (c) {
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
      document.dispatchEvent(new CustomEvent("scorekeeper:say", { detail: { text: fill(T.cannotEdit, "n", label), alarm: true } }));
      return;
    }
    if (!stash) {
      if (form.dataset.editing) {  // a waiting hand was in the form: it waits as it was
        mark(form.dataset.editing, false);
        form.reset();
        var t0 = form.querySelector("input[name=token]");
        if (t0) { t0.value = token(); }
        delete form.dataset.editing;
      }
      stash = { action: form.getAttribute("action"), values: new URLSearchParams(new FormData(form)).toString(),
                save: form.querySelector("button.save").textContent };
    } else if (form.dataset.editing) {
      mark(form.dataset.editing, false);
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
      var cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "secondary big cancel-edit";
      cancel.textContent = T.cancel;
      cancel.addEventListener("click", function () {
        var was = form.dataset.editing;
        closeEdit(form);
        mark(was, false);
      });
      form.querySelector("button.save").insertAdjacentElement("afterend", cancel);
    }
    var p = document.getElementById("preview");
    if (p) { p.textContent = ""; }
    // a refused one stays refused while it is in the form (Cancel leaves it so); Save makes it a waiting one again
    (mine ? mark(mine.id, true) : Promise.resolve()).then(function () {
      changed();
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
    changed();
  }

  // A waiting new hand back in the form: Save puts it back in its place in the queue, with its token.
  function edit(c, form) {
    if (form.dataset.editHand) {  // a hand of the table was in the form: it is left as it was (its waiting copy waits)
      var other = form.dataset.editing;
      closeEdit(form);
      mark(other, false);
    }
    mark(c.id, true).then(function (was) {
      if (!was) { return; }  // sent (or being sent) meanwhile: nothing to edit
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
      changed();
      form.scrollIntoView({ block: "start" });
    });
  }

  // Edit on a hand's row, while this table's changes go through the outbox: the hand opens in this page's form.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("#hands li.hand .hand-actions a[href]");
    if (!a || e.defaultPrevented || e.button || e.metaKey || e.ctrlKey || e.shiftKey) { return; }
    var m = new URL(a.href, location.href).pathname.match(CHANGE);
    if (!m || !m[3] || m[4] || !document.getElementById("hand-form") || !outbox || !outbox.queuing) { return; }
    e.preventDefault();
    openEdit(+m[3]);
  });

  // A change in the list asked to be edited: a new hand goes back into the form, a hand's edit opens that hand.
  document.addEventListener("scorekeeper:edit", function (e) {
    var c = e.detail.change, form = document.getElementById("hand-form");
    if (!form || !outbox) { return; }
    if (c.kind === "add") { edit(c, form); } else if (c.kind === "edit" && c.hand) { openEdit(c.hand); }
  });

  // The outbox kept the edit in this form: the form is the next hand's again (and the outbox needn't leave the page).
  document.addEventListener("scorekeeper:kept", function (e) {
    if (e.target.id === "hand-form" && e.target.dataset.editHand) {
      closeEdit(e.target);
      e.preventDefault();
    }
  });

  // The worker's answer for a hand's edit page offline: this page, which opens that hand once the outbox is ready
  // (a change an earlier page left in the form is waiting again by then).
  var em = location.pathname.match(CHANGE), opening = false;
  if (document.documentElement.dataset.editHand !== undefined && em && em[3] && !em[4]) {
    history.replaceState(null, "", "/t/" + em[1]);
    opening = true;
  }
  document.addEventListener("scorekeeper:outbox", function (e) {
    outbox = e.detail;
    if (opening && outbox.ready) {
      opening = false;
      openEdit(+em[3]);
    }
  });
})();
