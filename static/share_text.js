// "Share": a short text for the group chat (who pays whom, the totals, the watch link), written by the server in
// the page's language on the button (data-text); the phone's share sheet where there is one, else the clipboard.
(function () {
  "use strict";
  document.querySelectorAll("button[data-share-text]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = button.dataset.shareText, said = button.nextElementSibling;
      var done = function (words) { if (said) { said.textContent = words; said.hidden = false; } };
      if (navigator.share) {
        navigator.share({ text: text }).catch(function () { /* closed without sharing: nothing to say */ });
      } else if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { done(button.dataset.copied); },
                                                 function () { done(text); });
      } else {
        done(text);  // no share sheet, no clipboard (plain http): the text itself, to copy by hand
      }
    });
  });
}());
