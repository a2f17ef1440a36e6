// A round's clock (templates/cup/_clock.html, web/round_clock.py): each [data-clock] counts down each second from
// the server's end (data-ends) less the server's now when the page was made (data-now), so a phone whose own clock
// is wrong still shows the server's time left; its end is written again in the phone's own time zone. No poll of
// its own: a board swapped in by the page's poll brings a new element, measured again. At zero it says the time is
// up (data-up-said); the director closes the round.
(function () {
  var lang = document.documentElement.lang, clock = null;
  try { clock = new Intl.DateTimeFormat(lang, { timeStyle: "short" }); } catch (e) { clock = null; }
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var ends = Date.parse(el.dataset.ends), now = Date.parse(el.dataset.now);
      var shown = el.querySelector("[data-clock-left]"), end = el.querySelector("time[data-clock-end]");
      if (isNaN(ends) || isNaN(now) || !shown) { return; }
      if (el.skew === undefined) {  // a new element (the page's, or a poll's): measured once
        el.skew = now - Date.now();  // the server's clock less this phone's
        if (end && clock) { end.textContent = clock.format(new Date(ends)); }
      }
      var left = Math.ceil((ends - (Date.now() + el.skew)) / 1000), text;
      if (left <= 0) {
        el.classList.add("up");
        text = el.dataset.upSaid;
      } else {
        var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
        text = el.dataset.leftSaid.replace("{time}", (h ? h + ":" + two(m) : m) + ":" + two(s));
      }
      if (shown.textContent !== text) { shown.textContent = text; }
    });
  }
  tick();
  setInterval(tick, 1000);
}());
