"""Several app servers against one PostgreSQL (docs/deploy.md): a hand saved through one shows on the other.

Two gunicorn servers (each 2 workers, as `make run` starts them) share a throwaway PostgreSQL
database; both migrate it at start (one at a time: the advisory lock in store/db.py). A phone saves
a hand through server A while a watcher polls the scoreboard through server B, as a club's load
balancer would send them.
"""
import time

import pytest

from bench import server
from tests.phone import Phone

pytestmark = pytest.mark.postgres


def test_a_hand_saved_through_one_server_shows_on_a_watcher_of_the_other(tmp_path, postgres_server):
    url = postgres_server()
    ports = [server.free_port(), server.free_port()]
    procs = [server.start(tmp_path, url, "two-servers-secret", port) for port in ports]
    try:
        scorer, watcher = Phone(ports[0]), Phone(ports[1])
        scorer.request("GET", "/tables/new/troccas")
        resp, _page = scorer.request("POST", "/tables/new/troccas", {
            "players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
            "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_odd_pile": "warn",
            "rule_all_tricks_take_scart": "y"})
        assert resp.status == 303, _page
        table = resp.getheader("Location")

        resp, _board = watcher.request("GET", f"{table}/board")
        assert resp.status == 200
        tag = resp.getheader("ETag")
        resp, _same = watcher.request("GET", f"{table}/board", headers={"If-None-Match": tag})
        assert resp.status == 304  # nothing changed yet

        scorer.request("GET", table)
        resp, _page = scorer.request("POST", f"{table}/hands", {
            "token": "two-servers-1", "partner": "Cla", "side": "first", "points": "40", "action": "save"})
        assert resp.status == 303

        # Anna & Cla 40 points: 40 − 36 = +4 each (docs/rules.md §1); the watcher polls server B until it changes
        deadline = time.monotonic() + 30
        while True:
            resp, board = watcher.request("GET", f"{table}/board", headers={"If-None-Match": tag})
            if resp.status == 200 or time.monotonic() > deadline:
                break
        assert resp.status == 200
        assert "+4" in board and "Anna &amp; Cla: 40 points" in board
    finally:
        for proc in procs:
            server.stop(proc)
