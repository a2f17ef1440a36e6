// This phone's list of tables and circles (kept in localStorage by tables.js) taken to another phone, kept in a
// file, and restored: no account, no copy on the server. The link carries the list in its #fragment, which a
// browser never sends to a server; whoever has it can open those tables, as with the tables' own links.
(function () {
  "use strict";
  var TABLES = "scorekeeper.tables", CIRCLES = "scorekeeper.circles", NOTED = "scorekeeper.safariNoted";
  var SAID = "scorekeeper.restored";
  var PATH = /^\/[tvc]\/[A-Za-z0-9_-]{1,64}(\/settle)?$/;  // a table's, a watch page's or a circle's own address

  function read(key) {
    try { var v = JSON.parse(localStorage.getItem(key)); return Array.isArray(v) ? v : []; } catch (e) { return []; }
  }
  function write(key, list, most) {
    try { localStorage.setItem(key, JSON.stringify(list.slice(0, most))); return true; } catch (e) { return false; }
  }
  function text(v, most) { return typeof v === "string" && v.length <= most ? v : null; }

  // What may come in: only this site's addresses, only short text (names go through textContent when shown)
  function table(t) {
    if (!t || typeof t !== "object" || !PATH.test(t.href || "") || !text(t.id, 64) || !text(t.game, 40)) { return null; }
    var players = Array.isArray(t.players) ? t.players.filter(function (p) { return text(p, 40); }).slice(0, 12) : [];
    return { id: t.id, game: t.game, href: t.href, players: players, at: +t.at || 0, hands: +t.hands || 0,
             role: t.role === "watcher" ? "watcher" : "scorer", started: text(t.started, 40) || "",
             settle: PATH.test(t.settle || "") ? t.settle : "", finished: !!t.finished };
  }
  function circle(c) {
    if (!c || typeof c !== "object" || !PATH.test(c.href || "") || !text(c.name, 80)) { return null; }
    return { key: text(c.key, 64) || "", name: c.name, href: c.href, role: c.role === "watcher" ? "watcher" : "scorer" };
  }

  // Add a list to this phone's: a table already here keeps its newest copy; returns how many were new
  function merge(list) {
    var tables = read(TABLES), circles = read(CIRCLES), added = 0;
    (list.tables || []).map(table).filter(Boolean).forEach(function (t) {
      var here = tables.filter(function (x) { return x.id === t.id; })[0];
      if (!here) { tables.push(t); added += 1; } else if (t.at > (here.at || 0)) { tables[tables.indexOf(here)] = t; }
    });
    (list.circles || []).map(circle).filter(Boolean).forEach(function (c) {
      if (!circles.some(function (x) { return x.href === c.href; })) { circles.push(c); added += 1; }
    });
    tables.sort(function (a, b) { return (b.at || 0) - (a.at || 0); });
    write(TABLES, tables, 30);
    write(CIRCLES, circles, 20);
    return added;
  }

  function encode(list) {  // UTF-8, then base64url: names with accents survive the address bar
    return btoa(unescape(encodeURIComponent(JSON.stringify(list)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decode(s) {
    try { return JSON.parse(decodeURIComponent(escape(atob(s.replace(/-/g, "+").replace(/_/g, "/"))))); } catch (e) { return null; }
  }
  // A list sealed for a QR code: encrypted here (AES-GCM, a fresh key), kept a day by the server, which never sees
  // the key: it travels in the link's #fragment, which no browser sends. The code then holds an address and a key
  // (about 90 characters) whatever the list holds. Needs WebCrypto (HTTPS, or this computer's own address).
  function bytes64(b) {
    var s = "";
    for (var i = 0; i < b.length; i++) { s += String.fromCharCode(b[i]); }
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function unbytes64(s) {
    var raw = atob(s.replace(/-/g, "+").replace(/_/g, "/")), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }
  function sealable() { return !!(window.crypto && window.crypto.subtle && window.TextEncoder); }
  function seal(list, url) {  // -> Promise of "<id>.<key>"
    var key = crypto.getRandomValues(new Uint8Array(16)), iv = crypto.getRandomValues(new Uint8Array(12));
    return crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt"]).then(function (k) {
      return crypto.subtle.encrypt({ name: "AES-GCM", iv: iv }, k, new TextEncoder().encode(JSON.stringify(list)));
    }).then(function (sealed) {
      var whole = new Uint8Array(12 + sealed.byteLength);
      whole.set(iv, 0);
      whole.set(new Uint8Array(sealed), 12);
      return fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
                          body: "sealed=" + bytes64(whole), credentials: "same-origin" });
    }).then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (kept) { return kept.id + "." + bytes64(key); });
  }
  function unseal(ref, url) {  // "<id>.<key>" -> Promise of the list
    var parts = ref.split(".");
    return fetch(url + "/" + encodeURIComponent(parts[0]), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        var whole = unbytes64(text.trim());
        return crypto.subtle.importKey("raw", unbytes64(parts[1] || ""), "AES-GCM", false, ["decrypt"]).then(function (k) {
          return crypto.subtle.decrypt({ name: "AES-GCM", iv: whole.slice(0, 12) }, k, whole.slice(12));
        });
      }).then(function (plain) { return JSON.parse(new TextDecoder().decode(plain)); });
  }

  function mine() {
    return { format: "scorekeeper.phone", version: 1, tables: read(TABLES), circles: read(CIRCLES) };
  }

  // The home page: the link, its QR code, the file, and Safari's warning (said once)
  var box = document.getElementById("phone-list");
  if (box) {
    var list = mine(), d = box.dataset, said = document.getElementById("phone-list-said");
    var restored = null;
    try { restored = sessionStorage.getItem(SAID); sessionStorage.removeItem(SAID); } catch (e) { /* private mode */ }
    if (restored) { said.textContent = restored; said.hidden = false; }
    var link = d.take + "#" + encode({ tables: list.tables, circles: list.circles });
    document.getElementById("phone-list-link").value = link;
    var qr = document.getElementById("phone-list-qr"), note = document.getElementById("phone-list-qr-note");
    var details = box.querySelector("details");
    details.addEventListener("toggle", function () {
      if (!details.open || qr.src) { return; }
      // the code holds a sealed list's address and key where the phone can seal it, else the whole list
      var coded = sealable() ? seal({ tables: list.tables, circles: list.circles }, d.lists)
        .then(function (ref) { note.textContent = d.aDay; note.hidden = false; return d.take + "#k=" + ref; })
        : (link.length > 2900 ? Promise.reject("long") : Promise.resolve(link));
      // the QR code changes nothing: no token (scorekeeper/__init__.py)
      coded.then(function (url) {
        qr.dataset.link = url;
        return fetch(d.qr, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" },
                             body: "url=" + encodeURIComponent(url), credentials: "same-origin" });
      }).then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (src) { qr.src = src; qr.hidden = false; })
        .catch(function () { note.textContent = d.tooLong; note.hidden = false; });
    });
    var download = document.getElementById("phone-list-download");
    download.href = "data:application/json;charset=utf-8," + encodeURIComponent(JSON.stringify(list, null, 1));
    document.getElementById("phone-list-file").addEventListener("change", function (e) {
      var file = e.target.files && e.target.files[0];
      if (!file) { return; }
      var reader = new FileReader();
      reader.onload = function () {
        var data = null;
        try { data = JSON.parse(reader.result); } catch (err) { data = null; }
        if (!data || data.format !== "scorekeeper.phone") {
          said.textContent = d.badFile;
          said.hidden = false;
          return;
        }
        try { sessionStorage.setItem(SAID, d.restored.replace("{n}", merge(data))); } catch (err) { /* private mode */ }
        location.reload();  // the lists above are drawn from what is kept: drawn again, with the sentence
      };
      reader.readAsText(file);
    });
    var ios = /iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
    var installed = navigator.standalone || (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
    if (ios && !installed && (list.tables.length || list.circles.length) && !localStorage.getItem(NOTED)) {
      document.getElementById("safari-note").hidden = false;  // once: it says how to keep the list, then keeps quiet
      try { localStorage.setItem(NOTED, "1"); } catch (e) { /* private mode */ }
    }
  }

  // The /take page: what the link carries, and keeping it
  var take = document.getElementById("take");
  if (take) {
    var hash = location.hash.slice(1);
    if (hash.indexOf("k=") === 0 && sealable()) {  // a sealed list: fetched, opened with the key in the address
      unseal(hash.slice(2), take.dataset.lists).then(show, function () {
        document.getElementById("take-summary").textContent = take.dataset.expired;
      });
    } else {
      show(hash.indexOf("k=") === 0 ? {} : decode(hash) || {});
    }
  }
  function show(carried) {
    carried = carried || {};
    var tables = (carried.tables || []).map(table).filter(Boolean), circles = (carried.circles || []).map(circle).filter(Boolean);
    var summary = document.getElementById("take-summary"), keep = document.getElementById("take-keep");
    var names = document.getElementById("take-names");
    if (!tables.length && !circles.length) {
      summary.textContent = take.dataset.none;
    } else {
      // a count in the page's words: its form for 0, for 1, or for more (data-tables, templates/app/take.html)
      var counted = function (forms, n) { return JSON.parse(forms)[Math.min(n, 2)].replace("{n}", n); };
      summary.textContent = take.dataset.summary.replace("{tables}", counted(take.dataset.tables, tables.length))
        .replace("{circles}", counted(take.dataset.circles, circles.length));
      circles.forEach(function (c) { var li = document.createElement("li"); li.textContent = c.name; names.appendChild(li); });
      tables.forEach(function (t) {
        var li = document.createElement("li"); li.textContent = take.dataset.row.replace("{game}", t.game).replace("{players}", t.players.join(", ")); names.appendChild(li);
      });
      keep.hidden = false;
      keep.addEventListener("click", function () {
        merge({ tables: tables, circles: circles });
        summary.textContent = take.dataset.done;
        keep.hidden = true;
      });
    }
  }
}());
