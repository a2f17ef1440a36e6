"""Scorekeeper: a scorekeeper for the old European tarot games."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, g

from . import store
from .paths import resource

LANGUAGES = ("en", "de", "fr", "it", "rm")  # shipped translations (scorekeeper/translations)


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app: defaults, then instance config and environment, then tests."""
    # INSTANCE_PATH: where the database, secret key and config.py live (a container's volume); Flask's default
    # is instance/ in a checkout, <venv>/var/scorekeeper-instance for an installed package.
    app = Flask(__name__, instance_relative_config=True, instance_path=_instance_path(),
                template_folder=str(resource("templates")), static_folder=str(resource("static")))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
        WTF_CSRF_TIME_LIMIT=None,  # a table's evening is long; the token lives as long as the cookie
        SESSION_COOKIE_SAMESITE="Lax",
        # The session cookie is also Secure on every HTTPS request (web/site.py), so plain-HTTP localhost works.
        SESSION_COOKIE_SECURE=False,
        # Over HTTPS a POST needs a same-origin Referer too (Flask-WTF's default, kept: web/site.py's
        # Referrer-Policy sends it to this site only).
        WTF_CSRF_SSL_STRICT=True,
        # How many reverse proxies in front to trust for X-Forwarded-For/-Proto/-Host (env PROXY_FIX=1 for
        # one). 0 trusts none: without a proxy anyone can send those headers.
        PROXY_FIX=0,
        COMPRESS_MIMETYPES=["text/html", "text/css", "application/json", "application/javascript",
                            "text/javascript", "image/svg+xml", "text/csv"],
        COMPRESS_ALGORITHM=["br", "gzip"],
        # Pages and fragments, compressed per answer: brotli 5 (a table page of 20 hands: 6.4 KB at 4, 5.8 KB
        # at 5, for 0.2 ms more; 6 to 9 gain little more, 11 takes 70 ms). Scripts and styles are compressed
        # once, at 11 (web/precompressed.py).
        COMPRESS_BR_LEVEL=5,
        BABEL_DEFAULT_LOCALE="en",
        # the time a line was marked paid, said as the tables' clocks say it: the games are played in Central
        # Europe (docs/deploy.md: set it in the environment for another place)
        BABEL_DEFAULT_TIMEZONE="Europe/Zurich",
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24 * 365,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a whole evening exported as JSON is a few KB; 2 MB is plenty
        MAX_HANDS=2000,  # hands one table keeps (a long evening is 60): more is refused, at the form and on import
        MAX_FORM_SIZE=256 * 1024,  # a form's or an API request's body (an import's upload may be 2 MB): 413
        MAX_URL=2048,  # characters of a request's path and query: a longer address is a 414
        # Rate limits per client address (Flask-Limiter's syntax, docs/deploy.md). Saving hands is never limited.
        RATELIMIT_STORAGE_URI="memory://",  # per process; redis://host:6379 shares them between workers
        RATELIMIT_TABLES="200 per hour",  # opening a table (POST)
        RATELIMIT_IMPORTS="200 per hour",  # importing a table (POST)
        RATELIMIT_CIRCLES="200 per hour",  # starting a circle (POST), as opening a table
        # importing a circle (POST): its file may hold 1,000 evenings, each a table (5 imports made 5,000 tables)
        RATELIMIT_CIRCLE_IMPORTS="10 per hour",
        RATELIMIT_CUPS="20 per hour",  # starting a cup night (POST): each seats its players at a round of tables
        RATELIMIT_LISTS="60 per hour",  # keeping a phone's encrypted list for its QR code (POST /lists)
        RATELIMIT_API="1200 per minute",  # the JSON API, every endpoint together
    )
    app.config.from_pyfile("config.py", silent=True)
    for key in ("SECRET_KEY", "DATABASE_URL", "PROXY_FIX", "RATELIMIT_STORAGE_URI", "RATELIMIT_TABLES",
                "RATELIMIT_IMPORTS", "RATELIMIT_CIRCLES", "RATELIMIT_CIRCLE_IMPORTS", "RATELIMIT_CUPS", "RATELIMIT_LISTS", "RATELIMIT_API",
                "RATELIMIT_ENABLED", "MAX_HANDS", "MAX_URL", "MAX_CONTENT_LENGTH", "MAX_FORM_SIZE",
                "BABEL_DEFAULT_TIMEZONE"):
        if os.environ.get(key):
            app.config[key] = os.environ[key]
    if test_config:
        app.config.update(test_config)
    _typed(app.config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))

    from flask_babel import Babel
    from flask_compress import Compress
    from flask_wtf.csrf import CSRFProtect

    Babel(app, locale_selector=_locale)
    Compress(app)
    csrf = CSRFProtect(app)

    @app.before_request
    def csrf_token_as_checked():
        # A post's token was just checked against this session (CSRFProtect's hook runs first): the forms in
        # its answer carry that same token, not a new signature of the session's secret.
        # Only while tokens never expire (WTF_CSRF_TIME_LIMIT): else an old one would be handed on.
        if g.get("csrf_valid") and app.config["WTF_CSRF_TIME_LIMIT"] is None:
            setattr(g, app.config["WTF_CSRF_FIELD_NAME"], csrf._get_csrf_token())

    from .web import access, api, health, home, limits, precompressed, pwa, rules, site, templating
    from .web.circle import circles
    from .web.cup import cups
    from .web.count import counting
    from .web.table import exports, live, settle, setup, share, tables
    store.init_app(app)
    # What changes nothing needs no token: the JSON API (its writes are a table's key alone, API.md), the counting
    # pages (they count what they are sent) and the home page's QR code (of what it is sent). So those pages make no
    # session, and answer the same to everyone: a 304 when asked again (web/site.py tagged_by_content). A list kept
    # for a QR code changes nobody's data either (an encrypted blob of no one's, gone in a day; rate-limited).
    for pure in (api.bp, counting.bp, home.list_qr, home.keep_list):
        csrf.exempt(pure)
    access.install(app)
    for blueprint in (api.bp, home.bp, counting.bp, rules.bp, tables.bp, setup.bp, settle.bp, exports.bp,
                      live.bp, share.bp, pwa.bp, health.bp, circles.bp, cups.bp):
        app.register_blueprint(blueprint)
    templating.install(app)
    site.install(app)
    precompressed.install(app)
    limits.install(app, api=api.bp, exempt=health.bp)
    return app


NUMBERS = ("PROXY_FIX", "MAX_HANDS", "MAX_URL", "MAX_CONTENT_LENGTH", "MAX_FORM_SIZE")
FLAGS = ("RATELIMIT_ENABLED",)


def _typed(config) -> None:
    """Read the settings the environment gives as text, once, so every module finds a number or a flag. A
    number that isn't one stops the start (a typo in PROXY_FIX must not silently trust nothing, or everything)."""
    for key in NUMBERS:
        value = str(config.get(key, 0)).strip()
        if not value.isdigit():
            raise ValueError(f"{key} must be a whole number (0, 1, ...), not {value!r}")
        config[key] = int(value)
    for key in FLAGS:
        value = config.get(key, True)
        if isinstance(value, str):
            value = value.strip().lower() not in ("", "0", "false", "no", "off")
        config[key] = bool(value)


def _instance_path() -> str | None:
    path = os.environ.get("INSTANCE_PATH")
    return os.path.abspath(path) if path else None


def _instance_secret(instance: Path) -> str:
    """Read the secret key from the instance folder, making one on first run."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48))
        path.chmod(0o600)
    return path.read_text().strip()


def _locale() -> str:
    """Choose the language: ?lang=, then the lang cookie, then the browser's preference (web/l10n.py)."""
    from .web import l10n
    return l10n.choose()
