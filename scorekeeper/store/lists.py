"""A phone's list of tables and circles on its way to another phone: what the phone encrypted (the key stays in
the link's #fragment, which no browser sends), kept a day under an unguessable id, then gone."""
from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, insert, select

from .db import engine, is_key, now, writing
from .schema import lists

KEPT = timedelta(days=1)


def keep_list(body: str) -> str:
    """Keep an encrypted list for a day; return its id. Lists older than a day go in the same write."""
    list_id = secrets.token_urlsafe(16)
    with writing() as conn:
        conn.execute(delete(lists).where(lists.c.created_at < now() - KEPT))
        conn.execute(insert(lists).values(id=list_id, body=body, created_at=now()))
    return list_id


def kept_list(list_id: str) -> str | None:
    """Return the encrypted list kept under this id, if it is younger than a day."""
    if not is_key(list_id):
        return None
    with engine().connect() as conn:
        return conn.execute(select(lists.c.body).where(lists.c.id == list_id,
                                                       lists.c.created_at >= now() - KEPT)).scalar()
