"""/healthz and /readyz: what a proxy or orchestrator asks every few seconds (docs/deploy.md)."""
from __future__ import annotations

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.store.db import MIGRATIONS, make_engine


def revisions() -> list[str]:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return [s.revision for s in reversed(list(ScriptDirectory.from_config(cfg).walk_revisions()))]


def test_healthz_answers_without_touching_anything_or_setting_cookies(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.text == "ok\n"
    assert "Set-Cookie" not in answer.headers
    assert answer.headers["Cache-Control"] == "no-store"


def test_readyz_is_ready_at_the_newest_migration(client):
    answer = client.get("/readyz")
    assert answer.status_code == 200 and answer.text == "ready\n"
    assert "Set-Cookie" not in answer.headers


def test_readyz_names_the_migrations_when_the_database_is_one_behind(app, client):
    older, newest = revisions()[-2:]
    with app.extensions["store"].begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": older})
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.text == f"not ready: the database is at migration {older}, the newest is {newest}\n"
    assert answer.headers["Retry-After"] == "5"


def test_readyz_says_the_database_does_not_answer(app, client):
    # nothing listens on port 1: the connection is refused, as when PostgreSQL is stopped
    app.extensions["store"] = make_engine("postgresql+psycopg://app:secret@127.0.0.1:1/gone")
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.text.startswith("not ready: the database does not answer: ")
    assert "secret" not in answer.text
    assert client.get("/healthz").status_code == 200  # the process itself still answers


def test_health_checks_are_never_rate_limited(tmp_path):
    # a limit on every request (docs/deploy.md's RATELIMIT_DEFAULT) would turn a busy proxy's checks into 429s
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite'}",
                      "RATELIMIT_DEFAULT": "2 per minute"})
    client = app.test_client()
    assert [client.get("/healthz").status_code for _ in range(5)] == [200] * 5
    assert [client.get("/readyz").status_code for _ in range(5)] == [200] * 5
    assert [client.get("/rules").status_code for _ in range(3)][-1] == 429  # the limit itself works
