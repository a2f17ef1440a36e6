"""Opening a table through its form, as a phone does: the one helper every test that needs a table uses."""
from __future__ import annotations

# a Troccas table of four, 5 Rappen a point, the house rule most Grisons tables play (docs/rules.md §1)
TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}


def open_table(client, game: str = "troccas", data: dict | None = None, lang: str | None = None, **kw) -> str:
    """Open a table of `game` with the form's `data` (TROCCAS by default) and return its address (the scorer's
    page the form redirects to); `lang` asks the form in that language; `kw` go to the client's post."""
    query = f"?lang={lang}" if lang else ""
    r = client.post(f"/tables/new/{game}{query}", data=TROCCAS if data is None else data, **kw)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]
