"""The home page: open a table, this phone's tables and circles, count a pile; and taking this phone's list to
another phone (a link that carries the list in its #fragment, never sent to the server, with its QR code)."""
from __future__ import annotations

import re

from flask import Blueprint, Response, abort, jsonify, render_template, request

from .. import store
from ..engine.games import all_games
from .links import qr

bp = Blueprint("home", __name__)

MAX_LIST_URL = 2900  # characters: what a QR code of medium correction holds (version 40: 2,331 bytes binary, less
# alphanumeric overhead); a longer list goes as its link or its file


@bp.get("/")
def home():
    """The home page: open a table, count cards, this phone's tables and circles."""
    return render_template("app/home.html", games=all_games().values())


@bp.get("/take")
def take():
    """Another phone's list arrives here, in the address's #fragment (static/phone_list.js reads it on the phone)."""
    return render_template("app/take.html")


SEALED = re.compile(r"[A-Za-z0-9_-]{16,65536}")  # an encrypted list, base64url: at most 48 KB of it


@bp.post("/lists")
def keep_list():
    """Keep a phone's list, encrypted on the phone, for a day, so that its QR code carries an address and a key
    (in its #fragment) instead of the list: scannable at any length. The server can't read what it keeps."""
    body = request.form.get("sealed", "")
    if SEALED.fullmatch(body) is None:
        abort(400)
    return jsonify(id=store.keep_list(body)), 201


@bp.get("/lists/<list_id>")
def kept_list(list_id):
    """An encrypted list kept for a QR code, for the phone that scanned it (a day, then gone: 404)."""
    body = store.kept_list(list_id)
    if body is None:
        abort(404)
    response = Response(body, mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/qr")
def list_qr():
    """The QR code of a link to this site's /take (the list it carries is the phone's own: nothing is stored)."""
    url = request.form.get("url", "")
    if not url.startswith(request.host_url + "take#") or len(url) > MAX_LIST_URL:
        abort(400)
    response = Response(qr(url), mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response
