"""What a server's process does once as it starts, so that a new release's first phones don't wait for it (issue 29).

A process's first requests used to pay for work done once: every template compiled (0.4-0.7 s on the first table
page), every script and style sheet minified and compressed at brotli's best (~190 ms for the first page's files),
each language's catalogue and Babel's number formats read (~70 ms for the first page in a language), the release's
digest. `warm` does all of it before the server takes a request (scorekeeper/serve.py: once in each process that
serves). What is kept per process, not per app (the compressed files, Babel's data, the templates' compiled code:
web/templating.py) gunicorn's workers inherit from the master, which warms its app first: theirs then only load the
compiled code into their own app.
"""
from __future__ import annotations

from flask import Flask

from .. import LANGUAGES
from ..engine import examples
from ..engine.games import all_games
from . import l10n, precompressed
from .assets import release, words_url


def warm(app: Flask) -> None:
    """Compile every template, compress every static script and style sheet and the service worker, read each
    language's catalogue and number formats, and score a hand and count the sample piles of each game (what a game
    works out once and keeps, such as French Tarot's table of the piles real cards give, ~70 ms), in `app`, now."""
    for game in all_games().values():
        example = examples.example(game)
        if example is not None:
            examples.engine_result(game, example)
        examples.sample_counts(game)
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    with app.test_request_context("/"):
        precompressed.keep_all()
        release()
        app.view_functions["pwa.service_worker"]()  # /sw.js: minified and compressed per version, like a file
    for language in LANGUAGES:
        for browser in (language, f"{language}-CH"):  # with and without a region (francs are written the Swiss way)
            with app.test_request_context("/", headers={"Accept-Language": browser}):
                l10n.translations()
                l10n.money(123456, "CHF"), l10n.money(123456, "EUR"), l10n.points(1234.5)
                words_url()
