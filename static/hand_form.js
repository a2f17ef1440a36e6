// The hand form: a refused Save's first message in view, the next hand's values after a Save (X-Next-Hand), a Save
// the server refused before reading it posted as a page, a count's points emptied when the pile changes, Delete
// asking first, the keypad opened by choosing who declared.
(function () {
  "use strict";
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
  // values (X-Next-Hand: what each field holds), as a freshly loaded page would have them; its token is made when it
  // is sent (static/page.js).
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
    var used = form.querySelector("input[name=token]");
    if (used) { used.value = used.defaultValue = ""; }  // the saved hand's: the next one gets its own
    var setup = form.querySelector("input[name=setup]");
    if (setup && next.setup) { setup.value = setup.defaultValue = next.setup; }  // none: the form's is still the table's
    form.querySelectorAll("input[name=group], .group-list, .count .total").forEach(function (el) { el.remove(); });
    // what a refused Save said about the last hand is not about the next one: a new form has no messages
    form.querySelectorAll(".form-errors, .engine-error, .field-error").forEach(function (el) { el.remove(); });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
    var preview = document.getElementById("preview");
    if (preview) { preview.textContent = ""; }
  });
  // A Save refused before the form was read (a link turned off, a stale CSRF token, a table gone): post the
  // form as a page instead, so the page that says why is shown; nothing typed is lost, the token keeps it once.
  document.body.addEventListener("htmx:responseError", function (e) {
    var form = e.detail.elt, sent = e.detail.requestConfig && e.detail.requestConfig.formData;
    // a server that can't take it now (its database down, overloaded): static/outbox.js keeps it to send later
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
    var parts = counted.value.split(":");  // field : points : what they were counted from (cards or classes) : whose
    if (parts[2] !== (t.name === "card" ? "cards" : "classes")) { return; }  // the other way: the server says "not both"
    // a pile being tapped for another player (or side) leaves the points the last count filled: they are that pile's
    var whose = form.querySelector("#count-aid input[name=count_of]:checked");
    if (whose && parts[3] && whose.value !== parts[3]) { return; }
    var field = form.querySelector("[name='" + parts[0].replace(/'/g, "") + "']");
    if (field && field.value === parts[1]) { field.value = ""; }
    counted.remove();
  });

  // Delete asks first (a hand's Delete: its list's data-confirm-delete, its number put in for {n}; else the form's
  // data-confirm); in the capture phase of the window, before the offline queue (static/outbox.js) takes the post.
  // Without scripts it deletes at once, and Undo is beside the trace it leaves.
  window.addEventListener("submit", function (e) {
    var f = e.target, list = f.dataset && f.dataset.delete && f.closest("[data-confirm-delete]");
    var ask = list ? list.dataset.confirmDelete.replace("{n}", f.dataset.delete) : f.dataset && f.dataset.confirm;
    if (ask && !window.confirm(ask)) {
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

// A group added or taken out of the count (the counting aid's own buttons): once the form is back, the count is
// in view, not wherever the new, longer form left the page.
(function () {
  "use strict";
  var grouping = false;
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("#hand-form button[name=action]");
    grouping = !!b && (b.value === "group" || b.value.indexOf("ungroup:") === 0);
  }, true);
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!grouping) { return; }
    grouping = false;
    var count = document.querySelector("#hand-form .group-list") || document.getElementById("count-aid");
    if (count) { count.scrollIntoView({ block: "center" }); }
  });
}());

// The preview (the hand's result in words before saving), asked from the server once the hand is complete: every
// needed choice it shows made and every needed number typed (data-needed, from the game's declaration), and again
// only when what the form says changed since. A pile being counted asks as it grows (the server counts the cards).
// Entering a hand so costs one request, not one per field.
(function () {
  "use strict";
  var asked = null, timer = null;
  function shown(el) { return el.offsetParent !== null || el.getClientRects().length > 0; }
  function counting(form) { return !!form.querySelector("#count-aid input[name=count_of]:checked"); }
  function complete(form) {
    var blanks = {};  // "but-one": of each player's number with a total, one may stay blank (it is the rest)
    return Array.prototype.every.call(form.querySelectorAll("[data-needed]"), function (el) {
      if (!shown(el)) { return true; }  // a group the hand's switch turns off, or folded away
      if (el.tagName === "FIELDSET") { return !!el.querySelector("input:checked"); }
      if (el.value.trim() !== "" || (el.classList.contains("keypad") && counting(form))) { return true; }  // a count fills the points
      if (el.dataset.needed !== "but-one") { return false; }
      var name = el.name.replace(/\d+$/, "");
      blanks[name] = (blanks[name] || 0) + 1;
      return blanks[name] < 2;
    });
  }
  // A tap on Save takes the focus from the field just typed in, and its change would ask for a preview at the very
  // moment the Save goes: the hand form drops a request while another of its own is on the way (hx-sync
  // "this:drop"), and the Save was lost now and then (the server saw the preview and never the Save). A press on a
  // button that posts the form asks for no preview; the next thing typed does again.
  var pressing = false;
  document.addEventListener("pointerdown", function (e) {
    var b = e.target.closest && e.target.closest("#hand-form button");
    pressing = !!(b && (b.type === "submit" || !b.getAttribute("type")));
    if (pressing) { clearTimeout(timer); }
  }, true);
  function ask(form, pile) {
    var box = document.getElementById("preview-box");
    if (pressing || !box || !window.htmx || !(pile || complete(form))) { return; }
    var now = new URLSearchParams(new FormData(form)).toString();
    if (now === asked) { return; }  // (a typed number's change after its input: asked already)
    asked = now;
    htmx.trigger(box, "preview");
  }
  function on(e, delay) {
    var form = e.target.form;
    if (!form || form.id !== "hand-form") { return; }
    var pile = !!e.target.closest("#count-aid");
    clearTimeout(timer);
    if (delay) { timer = setTimeout(function () { ask(form, pile); }, delay); } else { ask(form, pile); }
  }
  document.addEventListener("change", function (e) { if (e.target.type === "radio" || e.target.type === "checkbox") { pressing = false; } on(e, 0); });
  document.addEventListener("input", function (e) {
    pressing = false;
    if (e.target.type !== "radio" && e.target.type !== "checkbox") { on(e, 500); }
  });
  // a new hand (the form reset after a Save, or a new form swapped in): nothing asked for it yet
  document.body.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.elt && e.detail.elt.id === "hand-form") { asked = null; }
  });
}());

// The counting aid's cards come when the count is opened (_hand-form.html), not with the page: most hands never
// open it, and its few hundred elements cost a phone's CPU. Once the page is idle they are fetched (not drawn), so
// that the service worker and the browser keep them for opening the count later without a network.
(function () {
  "use strict";
  var wait = document.querySelector("#hand-form .aid-wait[hx-get]");
  if (!wait || !window.fetch) { return; }
  var later = window.requestIdleCallback || function (fn) { setTimeout(fn, 2000); };
  // this script comes after the page has loaded (app/base.html's later scripts): idle from here on
  later(function () { fetch(wait.getAttribute("hx-get"), { credentials: "same-origin" }).catch(function () {}); });
}());
