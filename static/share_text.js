// "Share": a short text for the group chat (who pays whom, or the hand just saved, the totals, the watch link),
// written by the server in the page's language on the button (data-share-text; a table page's watch link is on
// #table's data-share-link, and its words for "copied" on data-copied, so a Save's answer needn't carry them);
// the phone's share sheet where there is one, else the clipboard, else the text itself to copy by hand. Buttons come with the page or with a Save's answer, shown
// wherever scripts run (.scripted); a tap finds this script, which comes once the page is in use.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-share-text]");
    if (!button) { return; }
    var link = button.closest("[data-share-link]");
    var text = button.dataset.shareText + (link ? "\n" + link.dataset.shareLink : "");
    var said = button.nextElementSibling;
    var done = function (words) { if (said) { said.textContent = words; said.hidden = false; } };
    if (navigator.share) {
      navigator.share({ text: text }).catch(function () { /* closed without sharing: nothing to say */ });
    } else if (navigator.clipboard && window.isSecureContext) {
      var copied = button.closest("[data-copied]");  // the button's own words, or its page's (a table's #table)
      navigator.clipboard.writeText(text).then(function () { done(copied ? copied.dataset.copied : text); },
                                               function () { done(text); });
    } else {
      done(text);  // no share sheet, no clipboard (plain http): the text itself, to copy by hand
    }
  });
}());
