// The screen stays on while a table's page is open and visible (the Screen Wake Lock API): the phone lies on the
// table between hands and should not lock. Taken again when the page is shown again, released when it is hidden;
// the switch (#wake) turns it off, and the phone remembers. Where the browser has no wake lock (plain http on the
// LAN, an old browser) the switch is not shown (static/theme.js says, before the first paint) and nothing happens.
(function () {
  "use strict";
  var KEY = "scorekeeper.wake", button = document.getElementById("wake");
  if (!button || !navigator.wakeLock || !window.isSecureContext) { return; }
  var lock = null;
  function wanted() { try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; } }
  function take() {
    if (!wanted() || document.visibilityState !== "visible" || lock) { return; }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {  // refused (battery saver): say so on the switch, and ask again when shown again
      button.textContent = button.dataset.refused;
    });
  }
  function paint() {
    button.setAttribute("aria-pressed", wanted() ? "true" : "false");
    button.textContent = wanted() ? button.dataset.on : button.dataset.off;
  }
  paint();
  take();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { take(); } else if (lock) { lock.release(); }
  });
  button.addEventListener("click", function () {
    try { localStorage.setItem(KEY, wanted() ? "off" : "on"); } catch (e) { /* private mode */ }
    paint();
    if (wanted()) { take(); } else if (lock) { lock.release(); }
  });
}());
