"""Rate limits per client address (Flask-Limiter): opening tables, imports and the JSON API.

Saving, fixing and undoing hands is never limited: a table's own scorers work at the table's pace.
The limits are settings (RATELIMIT_TABLES, RATELIMIT_IMPORTS, RATELIMIT_CIRCLES, RATELIMIT_CIRCLE_IMPORTS,
RATELIMIT_CUPS, RATELIMIT_API in Flask-Limiter's syntax, "200 per hour"), counted in memory per process unless RATELIMIT_STORAGE_URI names a shared store such
as redis://host:6379 (docs/deploy.md). A breach is a 429 that web/site.py answers in the player's
language, as JSON under /api/ and as the error page elsewhere.
"""
from __future__ import annotations

import math
import time

from flask import Blueprint, Flask, current_app, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# endpoint -> the setting that limits its POSTs (opening a table, importing one; starting a circle, importing one;
# keeping a phone's list for its QR code; starting a cup night)
LIMITED_POSTS = {"setup.new_table": "RATELIMIT_TABLES", "exports.import_table": "RATELIMIT_IMPORTS",
                 "circles.new_circle": "RATELIMIT_CIRCLES", "circles.import_circle": "RATELIMIT_CIRCLE_IMPORTS",
                 "home.keep_list": "RATELIMIT_LISTS", "cups.new_cup": "RATELIMIT_CUPS"}


def install(app: Flask, api: Blueprint, exempt: Blueprint) -> Limiter:
    """Attach a limiter of its own to this app (each app counts alone) and limit the endpoints above: the `api`
    blueprint shares one limit, and `exempt` (the health checks) has none."""

    # ProxyFix (PROXY_FIX) has already put the client's own address in remote_addr behind a proxy
    limiter = Limiter(get_remote_address, app=app, storage_uri=app.config["RATELIMIT_STORAGE_URI"],
                      key_prefix="scorekeeper")
    # one count for the whole API (a blueprint's plain limit counts each endpoint apart)
    limiter.shared_limit(lambda: current_app.config["RATELIMIT_API"], scope="api")(api)
    limiter.exempt(exempt)  # a proxy asks every few seconds, even when every request is limited
    for endpoint, setting in LIMITED_POSTS.items():
        view = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(lambda setting=setting: current_app.config[setting],
                                                     methods=["POST"])(view)

    if not (app.config.get("RATELIMIT_DEFAULT") or app.config.get("RATELIMIT_APPLICATION")):
        @limiter.request_filter
        def unlimited() -> bool:
            # what none of the limits above names (saving hands, pages, polls) skips the limiter's look-up of
            # its limits on every request; unless a deployer set a limit for every request
            return request.blueprint != api.name and request.endpoint not in LIMITED_POSTS

    app.extensions["scorekeeper.limiter"] = limiter
    return limiter


def retry_after() -> int | None:
    """Return the seconds until the limit this request broke lets the client in again, if known."""
    limiter = current_app.extensions.get("scorekeeper.limiter")
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return None
    return min(max(1, math.ceil(current.reset_at - time.time())), current.limit.get_expiry())


def in_words(limit) -> str:
    """Say a Flask-Limiter limit ("10 per 1 minute") in the reader's language: "10 per minute"."""
    item = getattr(limit, "limit", None)
    if item is None:
        return ""
    n, seconds = item.amount, item.get_expiry()
    for size, one, many in ((86400, _("%(n)s per day"), _("%(n)s in %(m)s days")),
                            (3600, _("%(n)s per hour"), _("%(n)s in %(m)s hours")),
                            (60, _("%(n)s per minute"), _("%(n)s in %(m)s minutes"))):
        if seconds % size == 0:
            m = seconds // size
            return (one if m == 1 else many) % {"n": n, "m": m}
    return (_("%(n)s per second") if seconds == 1 else _("%(n)s in %(m)s seconds")) % {"n": n, "m": seconds}
