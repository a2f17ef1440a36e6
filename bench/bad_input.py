"""Bad-input benchmark: the cases of tests/test_bad_input.py through the test client, timed in the server.

Prints how many cases ran, how many were answered with a 500, and the slowest cases with their server
time (the median of 3 runs, measured around the app's WSGI call, so the test client's own work is not
counted). Nothing is asserted: the tests check the answers, this reports how long the worst one holds
a worker. Quick: one app, one table per game, every case three times (well under 30 s).
"""
from __future__ import annotations

import io
import json
import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app
from tests import test_bad_input as T

RUNS = 3


class Timed:
    """WSGI middleware: record how long the app took for the last request."""

    def __init__(self, app):
        self.app, self.last = app, 0.0

    def __call__(self, environ, start_response):
        start = time.perf_counter()
        try:
            return list(self.app(environ, start_response))  # the body is made inside the timing
        finally:
            self.last = time.perf_counter() - start


def cases(app, client) -> list[tuple[str, dict]]:
    """Return (label, request) for every bad-input case: client.open keyword arguments."""
    out = []

    def add(label, path, method="POST", **kw):
        out.append((label, dict(path=path, method=method, **kw)))

    urls = {g: T.open_table(client, g) for g in T.GAMES}
    goods = {g: T.hand_post(app, g, urls[g]) for g in T.GAMES}
    for g, name, value in T.HAND_NUMBER_CASES:
        add(f"hand form {g} {name}={value[:20]!r}", urls[g] + "/hands", data={**goods[g], name: value})
    for g, name, value in T.PICK_CASES:
        add(f"hand form {g} {name}={value[:20]!r}", urls[g] + "/hands", data={**goods[g], name: value})
    troccas = urls["troccas"]
    client.post(troccas + "/hands", data=goods["troccas"])
    for version in [str(10**30), "9" * 5000, "-1", "٣", "abc"]:
        add(f"edit version={version[:20]!r}", troccas + "/hands/1", data={**goods["troccas"], "version": version})
    for token in ["u" * 5000, "nul\x00", "ü"]:
        add(f"undo token={token[:20]!r}", troccas + "/undo", data={"token": token})
        add(f"delete token={token[:20]!r}", troccas + "/hands/1/delete", data={"token": token})
    for number in ["١", "１", "99999999999999999999", "9" * 1900]:
        add(f"hand address {number[:20]!r}", f"{troccas}/hands/{number}", method="GET")
    for value in T.BAD_NUMBERS + ["sNaN", "1e3"]:
        add(f"table form stake={value[:20]!r}", "/tables/new/troccas", data=T.table_post("troccas", stake=value))
        add(f"table form rule={value[:20]!r}", "/tables/new/french_tarot",
            data=T.table_post("french_tarot", rule_poignee_bonus=f"{value}, 30, 40"))
    for name in T.NAMES + ["B" * 41]:
        add(f"table form name={name!r}", "/tables/new/troccas", data=T.table_post("troccas", **{"players-1": name}))
    for key in ["players-" + "9" * 5000, "players-²"]:
        add(f"table form field {key[:20]!r}", "/tables/new/troccas", data=T.table_post("troccas", **{key: "M"}))
    good = client.get(troccas + "/export.json").get_json()
    french = T.exported(app, client)
    for path in [("stake",), ("version",), ("hands", 0, "number"), ("hands", 0, "hand", "points")]:
        for value in T.JSON_NUMBERS:
            raw = _with_raw(french, value, *path)
            add(f"import {'.'.join(map(str, path))}={value[:20]}", "/tables/import",
                data={"file": (raw, "t.json")}, content_type="multipart/form-data")
    for name in T.NAMES:
        bad = {**good, "players": [good["players"][0], name, *good["players"][2:]], "hands": []}
        add(f"import name={name!r}", "/tables/import", data={"file": (json.dumps(bad).encode(), "t.json")},
            content_type="multipart/form-data")
    many = {**good, "hands": [{**good["hands"][0], "number": i} for i in range(1, 2002)]}
    add("import 2001 hands", "/tables/import", data={"file": (json.dumps(many).encode(), "t.json")},
        content_type="multipart/form-data")
    add("import 100000-deep JSON", "/tables/import", content_type="multipart/form-data",
        data={"file": (b"[" * 100_000 + b"]" * 100_000, "t.json")})
    for path in [("hand", "points"), ("stake",), ("rules", "poignee_bonus")]:
        for raw in T.OUT_OF_RANGE + T.NOT_NUMBERS:
            add(f"API score {'.'.join(path)}={raw[:20]}", "/api/v1/score", data=T.with_raw(T.FT, raw, *path),
                content_type="application/json")
    for raw in T.STRINGS:
        add(f"API score hand.points={raw}", "/api/v1/score", data=T.with_raw(T.FT, raw, "hand", "points"),
            content_type="application/json")
    for content_type in ["text/plain", "", "application/x-www-form-urlencoded"]:
        add(f"API count as {content_type or 'no type'}", "/api/v1/count", content_type=content_type or None,
            data=json.dumps({"game": "troccas", "cards": ["SW-K"]}))
    add("API deeply nested", "/api/v1/score", data='{"game": ' + "[" * 100_000 + "]" * 100_000 + "}",
        content_type="application/json")
    add("API count 1001 cards", "/api/v1/count", content_type="application/json",
        data='{"game": "troccas", "cards": [' + '"T1",' * 1000 + '"T1"]}')
    for value in T.BAD_NUMBERS:
        add(f"count classes kings={value[:20]!r}", "/count/troccas/classes", data={"kings": value})
    for op in ["edit:" + "9" * 5000, "edit:٣"]:
        add(f"count groups op={op[:20]!r}", "/count/scarto/groups", data={"group": ["T1 T2 T3"], "op": op})
    add("long address", "/count/troccas?x=" + "y" * 3000, method="GET")
    # the heaviest bodies a form or the API may send (MAX_FORM_SIZE, 256 KB), and past it
    add("count page, 32000 tapped cards (250 KB form)", "/count/troccas",
        data="&".join(["card=ZZ"] * 32_000), content_type="application/x-www-form-urlencoded")
    add("API count, 40000 card codes (250 KB)", "/api/v1/count", content_type="application/json",
        data=json.dumps({"game": "troccas", "cards": ["ZZ"] * 40_000}))
    add("count page, 200000 tapped cards (1.6 MB form: 413)", "/count/troccas",
        data="&".join(["card=ZZ"] * 200_000), content_type="application/x-www-form-urlencoded")
    return out


def _with_raw(body, raw, *path) -> bytes:
    marker = "__value__"
    data = json.loads(json.dumps(body))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = marker
    return json.dumps(data).replace(f'"{marker}"', raw).encode()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # PROPAGATE_EXCEPTIONS off: an exception is answered with a 500, as on a server, and counted
        app = create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "RATELIMIT_ENABLED": False, "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bad.sqlite'}"})
        timed = Timed(app.wsgi_app)
        app.wsgi_app = timed
        client = app.test_client()
        started = time.perf_counter()
        times, errors = {}, []
        todo = cases(app, client)
        for label, request in todo:
            runs = []
            for _ in range(RUNS):
                kw = dict(request)
                if "data" in kw and isinstance(kw["data"], dict) and "file" in kw["data"]:
                    raw, name = kw["data"]["file"]
                    kw["data"] = {"file": (io.BytesIO(raw if isinstance(raw, bytes) else raw.encode()), name)}
                response = client.open(**kw)
                runs.append(timed.last)
                if response.status_code >= 500 and (label, response.status_code) not in errors:
                    errors.append((label, response.status_code))
            times[label] = statistics.median(runs)
        slowest = sorted(times.items(), key=lambda kv: kv[1], reverse=True)
        print(f"bad input: {len(todo)} cases x {RUNS} runs in {time.perf_counter() - started:.1f} s, "
              f"{len(errors)} answered with a 500")
        for label, status in errors[:10]:
            print(f"  500: {label} ({status})")
        print(f"slowest case: {slowest[0][0]}: {slowest[0][1] * 1000:.1f} ms server time (median of {RUNS})")
        for label, seconds in slowest[1:5]:
            print(f"  then {label}: {seconds * 1000:.1f} ms")
        for label in ("API score hand.points=1e-999999999", "import hands.0.hand.points=1e-999999999",
                      "API score stake=9e999999", "table form stake='9e999999'"):
            if label in times:
                print(f"  {label}: {times[label] * 1000:.1f} ms")
        print(f"median case: {statistics.median(times.values()) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
