"""A table as a file: the JSON a table is exported as (with its totals and numbers, for reading), and reading such a
file back, checked as opening a table is (the views are web/table/exports.py's; a circle's file holds its tables' too)."""
from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timezone

from flask import current_app
from flask_babel import format_number
from flask_babel import gettext as _

from .. import store
from ..engine import evening
from ..engine.errors import ScoreError
from ..engine.evening import Setup
from ..engine.games import all_games, as_stored, resolve_rules
from ..engine.seating import next_dealer
from ..engine.settle import COINS
from ..engine.text import line
from . import bounds, said
from .house_rules import option_title
from .l10n import say
from .parse import evening_day, today
from .seating_check import check_seating, tidy

FORMAT = "scorekeeper.table"


def table_json(table, hands) -> dict:
    """Describe a table and its hands; totals are included for reading, re-derived on import."""
    b = evening.build(Setup.of(table), hands, range(0))  # the totals and numbers; no sentences
    return {
        "format": FORMAT, "format_version": 1,
        "game": table.game, "players": list(table.players), "rules": table.rules, "stake": table.stake,
        "currency": table.currency, "first_dealer": table.first_dealer, "version": table.version,
        "created_at": table.created_at.isoformat(), "played_on": table.day.isoformat(),
        "hands": [{"number": h.number, "version": h.version, "created_at": h.created_at.isoformat(),
                   "updated_at": h.updated_at.isoformat(), "dealer": h.dealer, "setup": h.setup, "hand": h.facts}
                  for h in hands],
        "totals": {"units": b.units, "money": b.money},
        "numbers": numbers_json(evening.numbers(b)),  # for reading; re-derived, never imported
    }


def numbers_json(n: evening.Numbers) -> dict:
    """The evening in numbers for the JSON export."""
    return {"players": [{"name": p.name, "hands": p.hands, "declared": p.declared, "won": p.won, "best": p.best,
                         "worst": p.worst, "biggest_payout": p.biggest} for p in n.players],
            "contracts": [{"contract": say(c), "taken": t, "made": m} for c, t, m in n.contracts]}


class BadImport(ValueError):
    pass


def read_when(text) -> datetime:
    """Read a date of the file, in UTC; years 1900 to 9998 only (PostgreSQL can't hand year 0 back)."""
    try:
        if not isinstance(text, str):
            # a number, a list, an object: not a date (text[:40] on an object is a KeyError from Python 3.12 on,
            # where slices can be dict keys; before, a TypeError)
            raise TypeError(text)
        when = datetime.fromisoformat(text[:40])
        if not 1900 <= when.year <= 9998:
            raise ValueError(when)
        return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)
    except (TypeError, ValueError, OverflowError):
        raise BadImport(_("A date in the file can't be read.")) from None


def small_number(n) -> bool:
    # counted up by every later change, so kept far below an SQL INTEGER's 2**31
    return type(n) is int and 0 <= n <= bounds.MAX_NUMBER


def read_day(value) -> date | None:
    """The evening's day as a file writes it (2026-11-27), or None for a file from before evenings had one (its
    day is then the day it was opened); a day that can't be one is refused."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadImport(_("The evening's date in the file is not valid."))
    try:
        return evening_day(value, today())
    except ValueError:
        raise BadImport(_("The evening's date in the file is not valid.")) from None


def parse(data) -> tuple[store.TableInfo, list[store.Hand]]:
    """Check an exported table and return it ready to store; raise BadImport with a sentence.

    The table's players, stake and house rules, and each hand's, are checked as opening a table checks them
    (seating_check), and each hand against the players it was played by: its setup, its dealer, the names in
    its facts. What gets in can be shown, changed and exported again; what can't is refused, naming the hand
    and the field.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("format_version") != 1:
        raise BadImport(_("This is not a table exported from Scorekeeper."))
    game = all_games().get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None:
        raise BadImport(_("The file names a game this app doesn't know."))
    if not isinstance(data.get("rules"), dict):
        raise BadImport(_("This is not a table exported from Scorekeeper."))
    stake, dealer_seat, version = data.get("stake"), data.get("first_dealer"), data.get("version")
    if type(stake) is not int or not isinstance(data.get("currency"), str) or data["currency"] not in COINS:
        raise BadImport(_("The stake or currency in the file is not valid."))
    # a file written before a default changed, without that house rule, was played with the old default
    players, rules = seating(game, data.get("players"), as_stored(game, data["rules"]), stake)
    if type(dealer_seat) is not int or not 0 <= dealer_seat < len(players) or not small_number(version):
        raise BadImport(_("The first dealer or version in the file is not valid."))
    table = store.TableInfo("", game.id, tuple(players), rules, stake, data["currency"], dealer_seat, version,
                            read_when(data.get("created_at")), played_on=read_day(data.get("played_on")))
    # a game played by a fixed number of players has nobody join or leave (table/setup), and a corrected name is
    # corrected in every hand: each hand was played by the table's players, in their seats
    fixed = len(game.players_allowed(resolve_rules(game, rules))) == 1
    hands, numbers = [], set()
    if not isinstance(data.get("hands"), list):
        raise BadImport(_("A hand in the file is not valid."))
    limit = current_app.config["MAX_HANDS"]
    if len(data["hands"]) > limit:
        raise BadImport(_("This file has %(n)s hands; a table keeps at most %(limit)s.",
                          n=format_number(len(data["hands"])), limit=format_number(limit)))
    for item in data["hands"]:
        if not isinstance(item, dict) or not small_number(item.get("number")) or item["number"] in numbers \
                or not small_number(item.get("version")) or not isinstance(item.get("hand"), dict):
            raise BadImport(_("A hand in the file is not valid."))
        number = item["number"]
        numbers.add(number)
        setup = hand_setup(game, item.get("setup"), number)
        under = table if setup is None else replace(table, players=tuple(setup["players"]), stake=setup["stake"],
                                                    rules=setup["rules"])
        if fixed and list(under.players) != list(players):
            stray = next((p for p in under.players if p not in players), None)
            if stray is not None:
                raise BadImport(_("Hand %(n)s: “%(name)s” is not one of the players at that hand (%(players)s).",
                                  n=number, name=stray, players=", ".join(players)))
            raise BadImport(_("Hand %(n)s: its players sit in another order (%(found)s) than the table's "
                              "(%(players)s).", n=number, found=", ".join(under.players), players=", ".join(players)))
        dealer = item.get("dealer")
        if dealer is not None and (not isinstance(dealer, str) or dealer not in under.players):
            raise BadImport(_("Hand %(n)s: the dealer “%(name)s” is not one of the players at that hand "
                              "(%(players)s).", n=number, name=dealer, players=", ".join(under.players)))
        try:
            said.score(under, item["hand"])
            said.summary(under, item["hand"])  # what the hand's row says of it
        except ScoreError as e:
            raise BadImport(_("Hand %(n)s: %(message)s", n=number, message=say(e))) from None
        except evening.DAMAGED:
            raise BadImport(_("Hand %(n)s: %(message)s", n=number, message=say(evening.DAMAGED_FACTS))) from None
        hands.append(store.Hand(0, number, item["hand"], item["version"], read_when(item.get("created_at")),
                                read_when(item.get("updated_at")), dealer, setup))
    # a file from before dealers were stored: each hand's dealer follows the rotation, as it was shown
    dealt, last = [], None
    for h in sorted(hands, key=lambda h: h.number):
        seated = (h.setup or {}).get("players") or players
        last = h.dealer or next_dealer(seated, dealer_seat, last)
        dealt.append(replace(h, dealer=last))
    return table, dealt


def seating(game, players, rules: dict, stake: int, number: int | None = None) -> tuple[list[str], dict]:
    """Check the players, stake and house rules of the file's table (or, with `number`, of that hand) as opening
    a table checks them (seating_check); return (players, rules resolved) or raise BadImport naming the field."""
    def refuse(message: str):
        raise BadImport(message if number is None else _("Hand %(n)s: %(message)s", n=number, message=message))

    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        refuse(_("The players in the file: %(message)s", message=say(line("“players” must be a list of names."))))
    for n, p in enumerate(players, 1):
        if p != tidy(p):  # the forms write names so: a later change of the table would rename it
            refuse(_("Player %(n)s's name in the file, “%(name)s”, has spaces around it or doubled inside: write it "
                     "“%(tidy)s”.", n=n, name=p, tidy=tidy(p)))
    try:
        resolved = resolve_rules(game, rules)
    except ScoreError as e:
        refuse(say(e))
    for key, message in check_seating(players, game, rules, stake).items():
        if key.startswith("name"):
            refuse(_("Player %(n)s's name in the file: %(message)s", n=int(key[4:]) + 1, message=message))
        if key == "players":
            refuse(_("The players in the file: %(message)s", message=message))
        if key == "stake":
            refuse(_("The stake in the file: %(message)s", message=message))
        if key.startswith("rule_"):
            refuse(_("The house rule “%(rule)s” in the file: %(message)s", rule=option_title(key[5:]),
                     message=message))
        refuse(message)
    return list(players), resolved


def hand_setup(game, setup, number) -> dict | None:
    """Check the players, stake and house rules a hand was played with (None in a file from before)."""
    if setup is None:
        return None
    if not isinstance(setup, dict) or not isinstance(setup.get("rules"), dict) or type(setup.get("stake")) is not int:
        raise BadImport(_("Hand %(n)s: the players, stake or house rules it was played with are not valid.",
                          n=number))
    rules = as_stored(game, setup["rules"])
    players, _rules = seating(game, setup.get("players"), rules, setup["stake"], number)
    return {"players": players, "stake": setup["stake"], "rules": rules}




MAX_IMPORT = 2_000_000  # bytes: thousands of hands, or a circle's season


def read_upload(upload, missing: str):
    """Read an uploaded export as JSON, every number bounded before anything counts with it; raise BadImport with
    `missing` when there is no file or it is too big, or a sentence saying what is wrong with it."""
    raw = upload.read(MAX_IMPORT + 1) if upload else b""
    if not raw or len(raw) > MAX_IMPORT:
        raise BadImport(missing)
    try:
        return bounds.loads(raw.decode("utf-8"))
    except bounds.BadNumber as e:
        raise BadImport(say(e.line)) from None
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise BadImport(_("This file is not JSON.")) from None
