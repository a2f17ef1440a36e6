// The service worker (served as /sw.js, so its scope is every page; scorekeeper/web/pwa.py fills BUILD).
// - The app's files (content-hashed URLs) are kept at install; a new version installs beside the old one,
//   takes over at once and deletes the old files: no phone stays on an old CSS or script.
// - Every page this phone opens is kept (its tables, the counting pages, the rules): the network first,
//   and without one (or after 10 s of nothing) the kept copy, marked <html data-saved-at="..."> so the page
//   says it may be out of date. A table the phone removes from its list is forgotten (static/kept_pages.js).
// - Saving offline is the outbox's queue (static/outbox.js), in the page: it works without this worker too (plain
//   http).
"use strict";
var BUILD = {};
var STATIC = "sk-static-" + BUILD.version, PAGES = "sk-pages", KEEP = "sk-kept", WAIT = 10000;
// the posts the outbox keeps (web/assets.py QUEUED): the table's key, what follows it, a hand's number, "/delete"
var CHANGE = new RegExp(BUILD.queued);
// the counting aid's cards, the offline scripts' texts: kept like files, but in a cache a new version doesn't delete (a
// table's kept page still finds them offline after an update), one copy per address without its digest
var KEPT = /^\/(count\/[^/]+\/aid|offline-words\.js)$/;
// A page kept by an earlier version names static/offline.js, which became these scripts: it gets them, in its place.
// A kept page is kept anew each time it is opened online, so this can go once phones have opened theirs since.
// The outbox last: it starts at once, when every other listens.
var RETIRED = { "/static/offline.js": ["outbox_list.js", "kept_pages.js", "offline_edit.js", "outbox.js"] };

// At install: the files every page needs (BUILD.core), and this version of each file the worker before it kept (an
// update leaves a phone the scripts of the pages it opened, for opening them offline); the rest as pages say they
// use them (the "files" message below).
self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(STATIC).then(function (c) {
    return keptBefore().then(function (names) {
      return c.addAll(BUILD.assets.filter(function (u) { return BUILD.core.indexOf(u) >= 0 || names.indexOf(bare(u)) >= 0; }));
    });
  })
    .then(function () {
      return caches.open(PAGES).then(function (c) {
        return fetch(BUILD.offline, { credentials: "same-origin" }).then(function (r) { return keep(c, BUILD.offline, r); });
      });
    })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("sk-static-") === 0 && n !== STATIC; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request, url = new URL(req.url);
  if (url.origin !== self.location.origin) { return; }
  var change = url.pathname.match(CHANGE);
  if (req.method === "POST" && req.mode === "navigate" && change) {
    e.respondWith(handoff(req, url, change[1]));
    return;
  }
  if (req.method !== "GET") { return; }
  if (RETIRED[url.pathname]) {
    e.respondWith(retired(RETIRED[url.pathname]));
  } else if (req.mode === "navigate" && change && change[3] && !change[4]) {  // a hand's edit page
    e.respondWith(editPage(req, change[1]));
  } else if (req.mode === "navigate") {
    e.respondWith(page(e, req));
  } else if (url.pathname.indexOf("/static/") === 0 || KEPT.test(url.pathname)) {
    e.respondWith(asset(req));
  }
});

// A file: the kept copy; else the network (kept if hashed); offline, any version kept under that name. The aid's
// cards and the texts (KEPT) are kept apart, one version of each address, and offline only that address's.
function asset(req) {
  var url = new URL(req.url), apart = KEPT.test(url.pathname);
  return caches.match(req, { ignoreVary: true }).then(function (hit) {
    return hit || fetch(req).then(function (res) {
      // kept only if the server says it is the file's current version (immutable): a ?v= of an older
      // digest is answered with today's file, no-cache, and must not be kept under the old name
      if (res.ok && url.searchParams.has("v") && /immutable/.test(res.headers.get("Cache-Control") || "")) {
        var copy = res.clone();
        caches.open(apart ? KEEP : STATIC).then(function (c) {
          var old = apart ? others(c, req.url) : Promise.resolve([]);
          return old.then(function (rs) { return Promise.all(rs.map(function (r) { return c.delete(r); })); })
            .then(function () { return c.put(req, copy); });
        });
      }
      return res;
    }).catch(function (err) {
      var found = apart
        ? caches.open(KEEP).then(function (c) { return others(c, req.url).then(function (rs) { return rs[0] && c.match(rs[0]); }); })
        : caches.match(req, { ignoreSearch: true, ignoreVary: true });
      return found.then(function (old) {
        if (old) { return old; }
        throw err;
      });
    });
  });
}

// The scripts that replaced a retired one, as one script. Such a page's #net has no data-queued (the posts the
// outbox keeps) yet: it is given this version's.
function retired(names) {
  return Promise.all(names.map(function (name) {
    var url = BUILD.assets.filter(function (u) { return u.split("?")[0] === "/static/" + name; })[0];
    return asset(new Request(url)).then(function (r) { return r.text(); });
  })).then(function (scripts) {
    var queued = "(function () { var net = document.getElementById(\"net\");\n" +
      "  if (net && !net.dataset.queued) { net.dataset.queued = " + JSON.stringify(BUILD.queued) + "; } })();\n";
    return new Response(queued + scripts.join("\n"), { headers: { "Content-Type": "text/javascript" } });
  });
}

// A page: the network first; offline (or after WAIT ms of nothing), the kept copy, marked as such. A page
// kept with its tag (a table's) is asked for with it: unchanged since, the server answers 304, and the kept
// copy is the page (about 1 KB on the wire instead of 7).
function page(e, req) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(req, { ignoreVary: true }).then(function (kept) {
      var tag = kept && kept.headers.get("X-Page-Tag");
      var ask = tag ? fetch(new Request(req.url, {
        headers: { "If-None-Match": tag, "Accept": req.headers.get("Accept") || "text/html" },
        credentials: "same-origin", redirect: "manual", cache: "no-store" })) : fetch(req);
      var net = ask.then(function (res) {
        if (res.status === 304) { return renewed(kept); }
        var done = res.status === 404 || res.status === 410 ? forget(cache, req.url)  // the table is gone: forget it
          : keep(cache, req, res.clone());
        try { e.waitUntil(done); } catch (err) { /* the kept copy already answered: done goes on */ }
        return res;
      });
      if (!kept) {
        return net.catch(function () {
          return cache.match(BUILD.offline).then(function (off) { return off ? marked(off) : Response.error(); });
        });
      }
      return within(net, WAIT).catch(function () { return marked(kept); });
    });
  });
}

// A hand's edit page: never kept (a copy would show the hand as it was then). From the network; without one (or
// after WAIT ms of nothing), the table's kept page, which opens the hand in its own form from what that page knows
// (static/offline_edit.js, data-edit-hand), else the offline page.
function editPage(req, key) {
  return within(fetch(req), WAIT).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match("/t/" + key, { ignoreVary: true }).then(function (kept) {
        if (kept) { return marked(kept, ' data-edit-hand=""'); }
        return cache.match(BUILD.offline).then(function (off) { return off ? marked(off) : Response.error(); });
      });
    });
  });
}

// The addresses without their ?v= of the app's files kept by earlier versions of the worker.
function keptBefore() {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("sk-static-") === 0 && n !== STATIC; }).map(function (n) {
      return caches.open(n).then(function (c) { return c.keys(); }).then(function (rs) { return rs.map(function (r) { return bare(r.url); }); });
    }));
  }).then(function (lists) { return [].concat.apply([], lists); });
}

function bare(u) { var x = new URL(u, self.location.origin); x.searchParams.delete("v"); return x.pathname; }

// A page says which of the app's files it uses (static/kept_pages.js): kept, for opening it offline (most come from
// the browser's cache, which the page just filled).
self.addEventListener("message", function (e) {
  var files = e.data && e.data.files;
  if (!Array.isArray(files)) { return; }
  var known = files.map(function (u) { return new URL(u, self.location.origin).pathname + new URL(u, self.location.origin).search; })
    .filter(function (u) { return BUILD.assets.indexOf(u) >= 0; });
  e.waitUntil(caches.open(STATIC).then(function (c) {
    return Promise.all(known.map(function (u) {
      return c.match(u).then(function (hit) { return hit || c.add(u).catch(function () { /* offline: next time */ }); });
    }));
  }));
});

// The page asks to keep a table's page as it is now (a poll or a Save brought a new version: static/kept_pages.js).
self.addEventListener("message", function (e) {
  var path = e.data && e.data.keep;
  if (typeof path !== "string" || !/^\/t\/[^/]+$/.test(path)) { return; }
  e.waitUntil(caches.open(PAGES).then(function (cache) {
    return fetch(path, { credentials: "same-origin", headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (res) { return keep(cache, new URL(path, self.location.origin).href, res); })
      .catch(function () { /* no network: the copy kept stays */ });
  }));
});

// A hand's form posted while the phone thought it was online, and the network failed under it: the
// table's kept page answers, carrying the post (data-handoff), which static/outbox.js puts in its queue.
function handoff(req, url, key) {
  var copy = req.clone();
  return fetch(req).catch(function (err) {
    return Promise.all([copy.text(), caches.open(PAGES).then(function (c) { return c.match("/t/" + key, { ignoreVary: true }); })])
      .then(function (got) {
        if (!got[1]) { throw err; }
        return marked(got[1], ' data-handoff="' + attr(got[0]) + '" data-handoff-action="' + attr(url.pathname) + '"');
      });
  });
}

// The requests kept in `cache` for `url` under any digest (the same address but for its ?v=).
function others(cache, url) {
  var bare = function (u) { var x = new URL(u); x.searchParams.delete("v"); return x.href; }, want = bare(url);
  return cache.keys().then(function (requests) {
    return requests.filter(function (r) { return bare(r.url) === want; });
  });
}

// Every page kept under a table's address (/t/<key>..., /v/<key>...), or that one page when it is no table's.
function forget(cache, url) {
  var m = new URL(url).pathname.match(/^\/([tv])\/([^/]+)/);
  if (!m) { return cache.delete(url); }
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (r) {
      var k = new URL(r.url).pathname.match(/^\/([tv])\/([^/]+)/);
      return k && k[2] === m[2] ? cache.delete(r) : null;
    }));
  });
}

function attr(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

// Keep a page: a plain 200 HTML answer, with the time it was kept (headers without the wire's encoding).
function keep(cache, key, res) {
  var type = res.headers.get("Content-Type") || "";
  if (!res.ok || res.redirected || res.type !== "basic" || type.indexOf("text/html") !== 0) {
    return Promise.resolve();
  }
  var headers = new Headers();
  res.headers.forEach(function (v, k) {
    if (["content-encoding", "content-length", "set-cookie", "etag"].indexOf(k) < 0) { headers.set(k, v); }
  });
  if (res.headers.get("ETag")) { headers.set("X-Page-Tag", res.headers.get("ETag")); }  // asked with next time
  headers.set("X-Saved-At", String(Date.now()));
  return res.blob().then(function (body) {
    return cache.put(key, new Response(body, { status: 200, statusText: "OK", headers: headers }));
  });
}

// The kept copy the server says is the page as it is now (304): shown as fresh, its forms' tokens renewed.
function renewed(kept) {
  return kept.text().then(function (html) {
    return new Response(html.replace("<html", '<html data-renewed=""'), { status: 200, statusText: "OK", headers: kept.headers });
  });
}

function marked(kept, more) {
  return kept.text().then(function (html) {
    var at = kept.headers.get("X-Saved-At") || "0";
    return new Response(html.replace("<html", '<html data-saved-at="' + at + '"' + (more || "")),
                        { status: 200, statusText: "OK", headers: kept.headers });
  });
}

function within(promise, ms) {
  return new Promise(function (ok, fail) {
    var timer = setTimeout(fail, ms);
    promise.then(function (r) { clearTimeout(timer); ok(r); }, function (err) { clearTimeout(timer); fail(err); });
  });
}
