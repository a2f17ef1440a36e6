"""Health checks for the proxy or orchestrator in front (docs/deploy.md): plain text, no cookies, no limits.

/healthz: the process answers (touches nothing). /readyz: the database answers and its schema is at the newest
migration, else 503 with the reason. gunicorn's access log leaves both out (scorekeeper/serve.py).
"""
from __future__ import annotations

from flask import Blueprint, current_app

from ..store.db import unready

bp = Blueprint("health", __name__)

PLAIN = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


@bp.get("/healthz")
def healthz():
    """Liveness: the process answers."""
    return "ok\n", 200, PLAIN


@bp.get("/readyz")
def readyz():
    """Readiness: the database answers and is at the latest migration."""
    reason = unready(current_app)
    if reason:
        return f"not ready: {reason}\n", 503, {**PLAIN, "Retry-After": "5"}
    return "ready\n", 200, PLAIN
