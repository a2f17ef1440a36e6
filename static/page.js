// What every page needs of its scripts, whatever it shows: htmx's state changes carry the CSRF token, and the
// scripts that matter once the page is in use come after it has loaded (app/base.html's <template id="later">).

// Every time a page shows is in the phone's own time zone: the server writes <time datetime data-local> in the app's
// (web/l10n.py when), and the phone writes it again in its own, in the page's language. Again after every swap.
function localTimes(root) {
  var lang = document.documentElement.lang, format;
  try { format = new Intl.DateTimeFormat(lang, { dateStyle: "short", timeStyle: "short" }); } catch (e) { return; }
  (root || document).querySelectorAll("time[data-local]").forEach(function (t) {
    var at = new Date(t.getAttribute("datetime"));
    if (!isNaN(at)) { t.textContent = format.format(at); }
  });
}
localTimes();
document.addEventListener("htmx:afterSettle", function () { localTimes(); });

// htmx's state changes carry the CSRF token in a header (every form also posts it); a GET, such as the
// scoreboard's poll every 2 s, carries nothing: the token's 100 bytes a poll add up on a metered phone.
document.addEventListener("htmx:configRequest", function (e) {
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (meta && e.detail.verb !== "get") { e.detail.headers["X-CSRFToken"] = meta.content; }
});

// A form that came in an answer htmx swapped into the page has no tokens of its own (web/templating.py page_csrf,
// web/table_form.py form_token): the page's CSRF token is written into it when it is sent, and a fresh idempotency
// token, kept in the form (a second tap, a resend post the same one), before the offline queue takes it.
document.addEventListener("submit", function (e) {
  var meta = document.querySelector('meta[name="csrf-token"]');
  var field = e.target.querySelector("input[name=csrf_token]"), once = e.target.querySelector("input[name=token]");
  if (meta && field && !field.value) { field.value = meta.content; }
  if (once && !once.value) {
    var b = new Uint8Array(16), s = "";
    crypto.getRandomValues(b);
    b.forEach(function (x) { s += String.fromCharCode(x); });
    once.value = btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
}, true);

// What matters once the page is in use (the outbox and its list, the worker's registration, the hand form, sharing,
// the screen kept on: app/base.html's <template id="later">, a page's own among them) comes after
// the page has loaded, fetched at once and run in its order: on a weak signal, what the page needs first comes
// first. <html data-later="coming">, then "ran" once the last has run (or could not come).
document.documentElement.dataset.later = "coming";
window.addEventListener("load", function () {
  setTimeout(function () {  // after the load event, not within it
    var later = document.getElementById("later"), last = null;
    (later ? later.content.querySelectorAll("script[src]") : []).forEach(function (s) {
      last = document.createElement("script");
      last.src = s.getAttribute("src");
      last.async = false;  // in order
      document.head.appendChild(last);
    });
    var ran = function () { document.documentElement.dataset.later = "ran"; };
    if (last) { last.onload = last.onerror = ran; } else { ran(); }
  }, 0);
});
