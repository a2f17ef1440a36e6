"""The JSON API, version 1 (docs/api.md): thin views over the pure engine."""
from __future__ import annotations

from fractions import Fraction

from flask import Blueprint, jsonify, request
from flask_babel import get_locale, gettext

from ..engine.cards import parse_pile
from ..engine.errors import BadRequest, ScoreError
from ..engine.games import all_games, count_pile, get_game, resolve_rules
from ..engine.text import line
from . import bounds
from .l10n import say

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def number(x):
    """Return a JSON number: an int, or a float for an exact half (French Tarot)."""
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else float(x)
    return x


@bp.after_request
def language(response):
    """Say which language the sentences are in: Accept-Language (or ?lang=) chooses it (docs/api.md)."""
    response.headers["Content-Language"] = str(get_locale() or "en")
    response.vary.add("Accept-Language")
    return response


@bp.errorhandler(ScoreError)
def score_error(e: ScoreError):
    body = {"code": e.code, "message": say(e)}  # the code stays; the sentence is in the reader's language
    if e.cards:
        body["cards"] = e.cards
    return jsonify({"error": body}), 404 if e.code == "unknown_game" else 400


def game_json(game, full: bool = False) -> dict:
    """Describe a game as docs/api.md says."""
    out = {
        "id": game.id,
        "name": gettext(game.name),
        "players": {"min": game.min_players, "max": game.max_players},
        "deck_size": len(game.deck),
        "deck_total": game.total,
        "rules": {name: opt.default for name, opt in game.options.items()},
        "rule_meanings": {name: gettext(opt.meaning) for name, opt in game.options.items()},
    }
    if full:
        values = game.values(resolve_rules(game, None))
        out["deck"] = list(game.deck)
        out["values"] = {c: number(values[c]) for c in game.deck}
    return out


def json_body(*required: str, optional: tuple = ()) -> dict:
    """Return the request's JSON object, checking required and unknown fields.

    The body is read whatever its Content-Type says (a script's text/plain or none at all), with every
    number bounded before anything counts with it (web/bounds.py).
    """
    raw = request.get_data(cache=True)
    data = None
    if raw.strip():
        try:
            data = bounds.loads(raw)
        except bounds.BadNumber as e:
            raise BadRequest(e.line) from None
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested deeper than the parser goes
            if request.is_json:
                raise BadRequest(line("The request body is not valid JSON; send a JSON object such as {{\"game\": \"troccas\", \"cards\": [\"SW-K\"]}}.")) from None
            if request.mimetype:
                raise BadRequest(line("This API reads JSON: send a JSON object such as {{\"game\": \"troccas\", \"cards\": [\"SW-K\"]}} with the header “Content-Type: application/json” (this request said “{kind}”).",
                                      kind=request.mimetype[:40])) from None
            raise BadRequest(line("This API reads JSON: send a JSON object such as {{\"game\": \"troccas\", \"cards\": [\"SW-K\"]}} with the header “Content-Type: application/json”.")) from None
    if not isinstance(data, dict):
        raise BadRequest(line("The request body must be a JSON object."))
    missing = [f for f in required if f not in data]
    if missing:
        raise BadRequest(line("The request lacks the field “{field}”.", field=missing[0]))
    unknown = [f for f in data if f not in required and f not in optional]
    if unknown:
        raise BadRequest(line("The request has an unknown field “{field}”.", field=unknown[0]))
    return data


def request_game(data: dict):
    """Return the game named in the request and its rules with overrides."""
    if not isinstance(data["game"], str):
        raise BadRequest(line("“game” must be a game id such as “troggu”."))
    game = get_game(data["game"])
    rules = data.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise BadRequest(line("“rules” must be an object of house-rule options."))
    return game, resolve_rules(game, rules)


@bp.get("/ping")
def ping():
    """Answer at once: the bare endpoint the benchmark compares the API with."""
    return jsonify({"ok": True})


@bp.get("/games")
def games():
    """The games the API scores, with their house rules and entry: the catalogue a client builds its forms from."""
    return jsonify({"games": [game_json(g) for g in all_games().values()]})


@bp.get("/games/<game_id>")
def game(game_id):
    """One game's description: its players, house rules, entry fields and deck."""
    return jsonify(game_json(get_game(game_id), full=True))


@bp.post("/count")
def count():
    """Count a pile of captured cards by the game's scheme: the points, the working, what can't be."""
    data = json_body("game", "cards", optional=("rules",))
    game, rules = request_game(data)
    if not isinstance(data["cards"], list):
        raise BadRequest(line("“cards” must be a list of card codes."))
    cards = parse_pile(data["cards"], game.deck_of(rules), game.name)  # a house rule may add a card (§10's ace)
    result = count_pile(game, cards, rules)
    return jsonify(count_json(game, result))


def count_json(game, result) -> dict:
    """Describe a counted pile as docs/api.md says."""
    out = {
        "game": game.id,
        "cards": result.cards,
        "points": number(result.points),
        "groups": None,
        "rest": None,
        "working": say(result.working),
        "warnings": [say(w) for w in result.warnings],
    }
    if result.groups:
        g = result.groups
        out["groups"] = {"size": g.size, "full": g.full, "leftover": g.leftover}
    if result.rest is not None:
        out["rest"] = {"cards": result.rest.cards, "points": number(result.rest.points)}
    if result.blatt is not None:  # counted to the Blatt (docs/rules.md §11): thirds beside the whole points
        out.update(blatt=result.blatt, thirds=result.thirds)
        if result.rest is not None:
            out["rest"].update(blatt=result.rest.blatt, thirds=result.rest.thirds)
    if result.oudlers is not None:
        out["oudlers"] = result.oudlers
    return out


# POST /api/v1/score (docs/api.md): score one hand and settle it at the stake.

def json_number(value):
    """Return `value` with every Fraction turned into a JSON number, through dicts and lists."""
    if isinstance(value, dict):
        return {k: json_number(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_number(v) for v in value]
    return number(value)


@bp.post("/score")
def score():
    """Score one hand and settle it at the stake (docs/api.md, POST /api/v1/score)."""
    data = json_body("game", "players", "hand", optional=("rules", "stake"))
    if data.get("rules") is not None and not isinstance(data["rules"], dict):
        raise BadRequest(line("“rules” must be an object of house-rule options."))
    game, rules = request_game(data)
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise BadRequest(line("“players” must be a list of names in seating order."))
    stake = data.get("stake", game.default_stake)
    if type(stake) is not int or stake < 0:
        raise BadRequest(line("“stake” must be a whole number, 0 or more: the money per unit."))
    if not isinstance(data["hand"], dict):
        raise BadRequest(line("“hand” must be an object with the hand's facts."))
    result = game.score(players, data["hand"], rules)
    return jsonify({
        "game": game.id,
        "points": json_number(result.points),
        "scores": dict(result.scores),
        "payouts": {p: s * stake for p, s in result.money_units.items()},
        "explanation": [say(x) for x in result.explanation],
        "warnings": [say(x) for x in result.warnings],
    })
