// Light or dark: the phone's setting (prefers-color-scheme), unless this phone chose with the switch in the header,
// which it remembers. Loaded in <head>, before the page is drawn, so a dark page never flashes white; and so it says
// what this phone can do (<html data-scripted data-wake-lock>).
(function () {
  "use strict";
  var KEY = "scorekeeper.theme", root = document.documentElement, chosen = null;
  // What this phone can do, said before the first paint: what only works with scripts (.scripted, app.css), and the
  // screen's switch where the screen can be kept on (static/wake.js), are there from the start, not drawn in later
  // under the player's thumb.
  root.dataset.scripted = "";
  if (navigator.wakeLock && window.isSecureContext) { root.dataset.wakeLock = ""; }
  try { chosen = localStorage.getItem(KEY); } catch (e) { /* private mode: the phone's setting */ }
  if (chosen === "dark" || chosen === "light") { root.dataset.theme = chosen; }
  var phone = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function dark() { return root.dataset.theme ? root.dataset.theme === "dark" : !!(phone && phone.matches); }
  function paint() {
    document.querySelectorAll("meta[name=theme-color]").forEach(function (m) {
      if (root.dataset.theme) {  // chosen here: the bar follows the choice, whatever the phone's setting
        m.removeAttribute("media");
        m.content = dark() ? m.dataset.dark : m.dataset.light;
      }
    });
    var button = document.getElementById("theme");
    if (button) { button.setAttribute("aria-pressed", dark() ? "true" : "false"); }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme");
    if (!button) { return; }
    button.hidden = false;
    paint();
    button.addEventListener("click", function () {
      root.dataset.theme = dark() ? "light" : "dark";
      try { localStorage.setItem(KEY, root.dataset.theme); } catch (e) { /* private mode: this page only */ }
      paint();
    });
    if (phone && phone.addEventListener) { phone.addEventListener("change", paint); }
  });
}());
