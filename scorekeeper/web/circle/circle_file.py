"""A circle as a file: its name, every evening (each a table's export, with its lines marked paid), the season's own
paid lines and its pot, its season's cups (each a cup's export, web/cup/cup_file.py) and the rule they add up by.
Reading it back checks every part as the forms do, and stores all of it or nothing."""
from __future__ import annotations

from flask_babel import gettext as _

from ... import store
from ...engine import season
from ...engine.season_cup import MOST_PLACES, SEASON_RULES
from ...engine.settle import BANK, COINS
from .. import bounds
from ..cup.cup_file import cup_json, parse_cup
from ..seating_check import name_problem, tidy
from ..l10n import isolated
from ..table_file import BadImport, parse, read_day, read_when, small_number, table_json

FORMAT = "scorekeeper.circle"
MAX_EVENINGS = 1000  # a weekly table for twenty years
MAX_NAME = 80
MAX_CUPS = 200  # a monthly cup for sixteen years


def circle_json(circle) -> dict:
    """Describe a circle and everything it holds (its tables' totals for reading; re-derived on import)."""
    rule = store.season_rule(circle.id)
    evenings = []
    for table in store.circle_tables(circle.id):
        data = table_json(table, store.list_hands(table.id))
        data["paid"] = [_paid(p) for p in store.paid_for_table(table.id)]
        evenings.append(data)
    return {"format": FORMAT, "format_version": 1, "name": circle.name, "created_at": circle.created_at.isoformat(),
            "watch": {"money": circle.watch_money, "ranking": circle.watch_ranking},
            "pot_per_lost_hand": circle.pot_per_lost_hand, "evenings": evenings,
            # the rule as it changed (issue 36): each evening keeps the one in force on its day
            "pot_rules": [[first.isoformat() if first else None, amount]
                          for first, amount in store.pot_rule_of(circle.id)],
            "paid": [_paid(p) for p in store.paid_in_circle(circle.id) if p.table_id is None],
            "pot": [{"amount": e.amount, "currency": e.currency, "who": e.who, "note": e.note,
                     "at": e.created_at.isoformat()} for e in store.pot_entries_of(circle.id)],
            # its season of cups (issue 38 item 9), each as the cup's own file, and how they add up
            "cups": [cup_json(c) for c in store.circle_cups(circle.id)],
            "cup_rule": {"rule": rule.rule, "n": rule.n, "places": list(rule.places)}}


def _paid(p) -> dict:
    return {"payer": p.payer, "payee": p.payee, "amount": p.amount, "currency": p.currency,
            "at": p.created_at.isoformat()}


def parse_circle(data) -> tuple:
    """Check an exported circle; return (name, created_at, evenings, paid, pot, what its watch link shows: money,
    ranking, the pot's rule and its changes, its cups, their rule) as store.import_circle takes them,
    or raise BadImport with a sentence naming the evening, the cup and the part."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("format_version") != 1:
        raise BadImport(_("This is not a circle exported from Scorekeeper."))
    name = " ".join(data["name"].split()) if isinstance(data.get("name"), str) else ""
    if not name or len(name) > MAX_NAME or any(not ch.isprintable() for ch in name):
        raise BadImport(_("The circle's name in the file is missing or not valid."))
    created_at = read_when(data.get("created_at"))
    found = data.get("evenings")
    if not isinstance(found, list) or len(found) > MAX_EVENINGS:
        raise BadImport(_("The file's evenings are not valid (at most %(n)s).", n=MAX_EVENINGS))
    evenings, everyone = [], set()
    for n, item in enumerate(found, 1):
        try:
            table, hands = parse(item)
            lines = paid_lines(item.get("paid", []))
            people = _people(table, hands)
            _played(people, [name for payer, payee, *_rest in lines for name in (payer, payee)],
                    _("A line marked paid names %(name)s, who didn't play that evening."))
        except BadImport as e:
            raise BadImport(_("Evening %(n)s: %(message)s", n=n, message=str(e))) from None
        evenings.append((table, hands, lines))
        everyone |= people
    watch = data.get("watch", {})
    if not isinstance(watch, dict) or not all(isinstance(watch.get(k, True), bool) for k in ("money", "ranking")):
        raise BadImport(_("This is not a circle exported from Scorekeeper."))
    rule = data.get("pot_per_lost_hand", 0)
    if not small_number(rule):
        raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
    rules = _pot_rules(data.get("pot_rules", [[None, rule]]))
    paid, pot = paid_lines(data.get("paid", [])), pot_lines(data.get("pot", []))
    # money is owed by and to the circle's people: a line or an entry naming someone else would be owed for ever
    # (or to and by the pot: a line of its rule, "Anna pays the pot", issue 36)
    _played(everyone | {season.person(BANK)}, [name for payer, payee, *_rest in paid for name in (payer, payee)],
            _("The season's lines marked paid name %(name)s, who played none of the file's evenings."))
    _played(everyone, [who for _a, _c, who, _n, _w in pot if who is not None],
            _("The pot names %(name)s, who played none of the file's evenings."))
    cups, cup_rule = _cups(data.get("cups", [])), _cup_rule(data.get("cup_rule"))
    return (name, created_at, evenings, paid, pot, watch.get("money", True), watch.get("ranking", True), rule, rules,
            cups, cup_rule)


def _cups(found) -> list[dict]:
    """The season's cups, each read as a cup's own file is (web/cup/cup_file.py), its sentence naming the cup."""
    if not isinstance(found, list) or len(found) > MAX_CUPS:
        raise BadImport(_("The file's cups are not valid (at most %(n)s).", n=MAX_CUPS))
    out = []
    for n, item in enumerate(found, 1):
        try:
            out.append(parse_cup(item))
        except BadImport as e:
            raise BadImport(_("Cup %(n)s: %(message)s", n=n, message=str(e))) from None
    return out


def _cup_rule(found) -> tuple | None:
    """How the season's cups add up, as the circle's form takes it: (rule, the best N, the places' cup points), or
    None (a file made before the season of cups: the sum)."""
    if found is None:
        return None
    rule, n, places = (found.get(k) for k in ("rule", "n", "places")) if isinstance(found, dict) else (None,) * 3
    good = (rule in SEASON_RULES and type(n) is int and 0 <= n <= 99 and (rule != "best" or n >= 1)
            and isinstance(places, list) and 1 <= len(places) <= MOST_PLACES
            and all(type(p) is int and 0 <= p <= 9999 for p in places) and places == sorted(places, reverse=True))
    if not good:
        raise BadImport(_("The file's rule for adding up the cups is not valid."))
    return rule, n, tuple(places)


def _pot_rules(found) -> list[tuple]:
    """The pot's rule as it changed, from the file: [(first day or None, minor units)], the undated one first."""
    if not isinstance(found, list) or not 1 <= len(found) <= MAX_EVENINGS:
        raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
    out = []
    for item in found:
        if not isinstance(item, list) or len(item) != 2 or not small_number(item[1]):
            raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
        out.append((read_day(item[0]), item[1]))
    if sum(first is None for first, _a in out) > 1 or len({first for first, _a in out}) != len(out):
        raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
    return out


def _people(table, hands) -> set[str]:
    """Everyone who played an evening (season.person: one person however spelled): its players now and each
    hand's."""
    seated = {p for h in hands if isinstance(h.setup, dict) for p in h.setup.get("players") or ()
              if isinstance(p, str)}
    return {season.person(p) for p in (*table.players, *seated)}


def _played(people: set[str], names: list[str], message: str) -> None:
    """Refuse the file (BadImport, `message` naming the first stranger) if a name is none of `people`."""
    for name in names:
        if season.person(name) not in people:
            raise BadImport(message % {"name": isolated(name)})


def _name(value) -> str:
    if not isinstance(value, str) or not tidy(value) or name_problem(tidy(value)) or value != tidy(value):
        raise BadImport(_("A name in the file's paid lines or pot is not valid."))
    return value


def _amount(value, low: int) -> int:
    if not small_number(abs(value) if type(value) is int else value) or value < low or value == 0:
        raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
    return value


def _currency(value) -> str:
    if value not in COINS:
        raise BadImport(_("The stake or currency in the file is not valid."))
    return value


def paid_lines(items) -> list[tuple]:
    """Read lines marked paid: (payer, payee, amount above zero, currency, when)."""
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise BadImport(_("A name in the file's paid lines or pot is not valid."))
    return [(_name(i.get("payer")), _name(i.get("payee")), _amount(i.get("amount"), 1), _currency(i.get("currency")),
             read_when(i.get("at"))) for i in items]


def pot_lines(items) -> list[tuple]:
    """Read the pot's entries: (amount, currency, who or None, note, when); the pot never below empty, as its form."""
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise BadImport(_("An amount in the file's paid lines or pot is not valid."))
    out, holds = [], {}
    for i in items:
        note = i.get("note")
        if not isinstance(note, str) or len(note) > 80 or bounds.invisible(note):
            raise BadImport(_("A note in the file's pot is not valid."))
        entry = (_amount(i.get("amount"), -bounds.MAX_NUMBER), _currency(i.get("currency")),
                 None if i.get("who") is None else _name(i.get("who")), note, read_when(i.get("at")))
        holds[entry[1]] = holds.get(entry[1], 0) + entry[0]
        if holds[entry[1]] < 0:
            raise BadImport(_("The file's pot goes below empty: it can't."))
        out.append(entry)
    return out
