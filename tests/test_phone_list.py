"""A phone's list taken to another phone by a QR code (issue 36): the phone seals the list (AES-GCM, static/
phone_list.js) and the server keeps what it can't read for a day, so the code holds an address and a key, not the
list, and stays scannable whatever the list holds."""
from __future__ import annotations

import base64
import secrets
from datetime import timedelta

from sqlalchemy import update

from scorekeeper import store


def sealed(n: int = 4000) -> str:
    """What a phone posts: base64url of 12 bytes of IV and the ciphertext (random bytes stand in for it)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(n)).decode().rstrip("=")


def test_a_sealed_list_is_kept_a_day_for_the_phone_that_scans_it(app, client):
    body = sealed()  # 4,000 bytes: a season's list of 30 tables and 20 circles is about this, sealed
    r = client.post("/lists", data={"sealed": body})
    assert r.status_code == 201
    list_id = r.get_json()["id"]
    # the code's link: the take page, the id and a 16-byte key in base64url (22 characters) in the #fragment
    link = f"https://scorekeeper.example.ch/take#k={list_id}.{'A' * 22}"
    assert len(link) <= 300  # what a phone's camera reads at arm's length (issue 36: at most ~300)
    got = client.get(f"/lists/{list_id}")
    assert got.status_code == 200 and got.get_data(as_text=True) == body and got.headers["Cache-Control"] == "no-store"
    with app.app_context():  # a day later it is gone
        with store.writing() as conn:
            conn.execute(update(store.schema.lists).values(created_at=store.db.now() - timedelta(days=1, seconds=1)))
    assert client.get(f"/lists/{list_id}").status_code == 404
    assert client.get("/lists/no-such-list-here").status_code == 404


def test_only_what_a_phone_seals_is_kept(client):
    for body in ("", "short", "not base64: <script>", sealed(49_200)):  # the last is over 64 KB of base64
        assert client.post("/lists", data={"sealed": body}).status_code == 400, body[:20]


def test_keeping_a_list_needs_no_session_and_is_rate_limited(csrf_app):
    """The home page makes no session, so it has no token to send: the post is exempt, as its QR code is; like
    opening a table it is limited per address (RATELIMIT_LISTS)."""
    csrf_app.config["RATELIMIT_LISTS"] = "2 per hour"
    client = csrf_app.test_client()
    assert [client.post("/lists", data={"sealed": sealed(64)}).status_code for _ in range(3)] == [201, 201, 429]
