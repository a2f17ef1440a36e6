// This phone's copies of pages, for use offline (the service worker, static/sw.js, keeps every page opened): the
// worker registered; a table page's copy following what the page shows; a table's copies forgotten when its link
// was turned off or this phone removed it from its list (static/tables.js says so: "scorekeeper:tables").
(function () {
  "use strict";
  var PAGES = "sk-pages";
  // plain http on a LAN: no worker (the outbox works without); a failed registration: online only
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { updateViaCache: "none" }).catch(function () { /* online only */ });
    // the worker keeps the app's files this page uses (its scripts, those it runs after loading, its styles), to
    // open it offline: a phone keeps the scripts of the pages it opens, not every script of the app (static/sw.js)
    navigator.serviceWorker.ready.then(function (registration) {
      var later = document.getElementById("later"), files = [];
      [document, later && later.content].forEach(function (root) {
        if (!root) { return; }
        root.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) {
          files.push(el.getAttribute("src") || el.getAttribute("href"));
        });
      });
      if (registration.active) { registration.active.postMessage({ files: files }); }
    }).catch(function () { /* online only */ });
  }
  // This phone's list of tables and its copies of their pages live in the browser's storage, which a browser may
  // clear when it runs short (Safari after a week unused): once a hand is saved here, ask it to keep them (once a
  // page; not while the page opens, where asking held up the hand form's first requests over HTTPS in Chromium).
  // Chrome decides by itself and says nothing; Firefox asks the player once.
  var keepAsked = false;
  function askToKeep() {
    if (keepAsked || !navigator.storage || !navigator.storage.persist) { return; }
    keepAsked = true;
    navigator.storage.persisted().then(function (kept) {
      if (!kept) { return navigator.storage.persist(); }
    }).catch(function () { /* kept as long as the browser keeps it */ });
  }

  // The phone's copy of this table page follows what the page shows: once a poll or a Save brought a new version and
  // the page has been still for a few seconds (a burst of saves is one copy), or when the page is left, the copy is
  // made again: the copy the worker keeps (static/sw.js), with the regions the answers swap (web/scoreboard.py
  // REGIONS, #table's data-regions) as this page shows them now, without a request. Only where that can't be (no
  // copy yet, or a copy whose hand form was made for another setup of the table) the worker fetches the page. Opened
  // again without the network (an edit offline among them), it shows the evening as this phone last saw it.
  var keptTag = null, pageTag = null, keepTimer = null, keepWanted = false;
  function keepPage(xhr) {
    var tag = xhr && xhr.status === 200 && xhr.getResponseHeader("ETag");
    if (!tag || tag === keptTag) { return; }
    keptTag = tag;
    pageTag = xhr.getResponseHeader("X-Page-Tag");  // a Save's answer names the page it leaves; a poll's doesn't
    keepWanted = true;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(keepNow, 3000);
  }
  function keepNow() {
    var worker = navigator.serviceWorker, path = location.pathname;
    clearTimeout(keepTimer);
    if (!keepWanted || !worker || !worker.controller || !/^\/t\/[^/]+$/.test(path)) { return; }
    keepWanted = false;
    copyKept(path, pageTag).catch(function () { worker.controller.postMessage({ keep: path }); });
  }
  function copyKept(path, tag) {
    var key = new URL(path, location.href).href, table = document.getElementById("table");
    return caches.open(PAGES).then(function (cache) {
      return cache.match(key, { ignoreVary: true }).then(function (kept) {
        if (!kept || !table) { throw new Error("no copy"); }
        return kept.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html"), copyTable = doc.getElementById("table");
          var setup = function (d) { var s = d.querySelector("#hand-form [name=setup]"); return s && s.value; };
          if (!copyTable || !setup(document) || setup(document) !== setup(doc)) { throw new Error("another setup"); }
          (table.dataset.regions || "").split(" ").forEach(function (id) {
            var now = id && document.getElementById(id), old = id && doc.getElementById(id);
            if (!now || !old) { return; }
            var copy = doc.importNode(now, true);
            [copy].concat([].slice.call(copy.querySelectorAll("[class*=htmx-]"))).forEach(function (el) {
              el.classList.forEach(function (c) { if (c.indexOf("htmx-") === 0) { el.classList.remove(c); } });
            });  // a request or a swap under way is this page's moment, not the copy's
            old.replaceWith(copy);
          });
          copyTable.setAttribute("data-hands", table.getAttribute("data-hands") || "");
          var headers = new Headers(kept.headers);
          if (tag) { headers.set("X-Page-Tag", tag); } else { headers.delete("X-Page-Tag"); }  // untagged: asked in full
          headers.set("X-Saved-At", String(Date.now()));
          return cache.put(key, new Response("<!doctype html>\n" + doc.documentElement.outerHTML,
                                             { status: 200, statusText: "OK", headers: headers }));
        });
      });
    });
  }
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") { keepNow(); } });

  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr, asked = ((e.detail.pathInfo || {}).requestPath || "").split("?")[0];
    // a poll (its element may be gone by now: a whole board's answer brings a new one) or a Save
    if (/^\/t\/[^/]+\/board$/.test(asked) || (e.detail.elt && e.detail.elt.id === "hand-form")) { keepPage(xhr); }
    if (e.detail.elt && e.detail.elt.id === "hand-form" && e.detail.successful) { askToKeep(); }
    var table = location.pathname.match(/^\/[tv]\/([^/]+)/);
    if (xhr && xhr.status === 286 && table) {  // the link was turned off: its pages go
      forget(function (key) { return key === table[1]; });
    }
  });
  // This phone removed a table from its list: its kept pages go too (the worker does the same on a 404 or 410).
  document.addEventListener("scorekeeper:tables", function (e) {
    var mine = e.detail.ids;
    forget(function (key) { return mine.indexOf(key) < 0; });
  });
  document.dispatchEvent(new CustomEvent("scorekeeper:tables-asked"));  // the home page's list, drawn before this came

  // Every page kept under a table's address (/t/<key>..., /v/<key>...) whose key is `gone`.
  function forget(gone) {
    if (!window.caches) { return Promise.resolve(); }
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (requests) {
        return Promise.all(requests.map(function (r) {
          var m = new URL(r.url).pathname.match(/^\/[tv]\/([^/]+)/);
          return m && gone(m[1]) ? cache.delete(r) : null;
        }));
      });
    });
  }
})();
