// Light or dark: the phone's setting (prefers-color-scheme), unless this phone chose with the switch in the header,
// which it remembers. Loaded in <head>, before the page is drawn, so a dark page never flashes white; and so it says
// that scripts run (<html data-scripted>).
(function () {
  "use strict";
  var KEY = "scorekeeper.theme", root = document.documentElement, chosen = null;
  // Scripts run here: what only works with them (.scripted, app.css) is there from the first paint, not drawn in later
  // under the player's thumb.
  root.dataset.scripted = "";
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
