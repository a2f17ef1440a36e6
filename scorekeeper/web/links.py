"""Links other phones can open: this machine's address on the local network, full URLs, QR codes."""
from __future__ import annotations

import hashlib
import os
import socket

import segno
from flask import current_app, request, url_for

LOOPBACK = ("127.", "localhost", "[::1]", "::1")


def lan_address() -> str | None:
    """Return this machine's LAN address, found without sending anything, or None."""
    for probe in ("192.168.255.255", "10.255.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))  # a UDP connect only picks the route: no packet leaves
            except OSError:
                continue
            address = s.getsockname()[0]
        if not address.startswith(("127.", "0.")):
            return address
    return None


def lan_base() -> str | None:
    """Return http://LAN-ADDRESS:PORT/ when the server listens on every interface, else None."""
    host = current_app.config.get("SERVE_HOST", os.environ.get("HOST"))
    if host != "0.0.0.0":
        return None
    address = lan_address()
    if address is None:
        return None
    port = current_app.config.get("SERVE_PORT", os.environ.get("PORT", "5000"))
    return f"http://{address}:{port}/"


def external(endpoint: str, **values) -> str:
    """Return a full URL phones can open: the LAN address when this page was opened on localhost."""
    path = url_for(endpoint, **values)
    if request.host.startswith(LOOPBACK):
        base = lan_base()
        if base:
            return base.rstrip("/") + path
    return request.host_url.rstrip("/") + path


def table_ref(table) -> str:
    """A table's public name on this phone's list: the same whichever link opened it (the creator's, a scorer's, a
    watcher's), and no key: a hash of its id, from which the id can't be got back. A circle's list of evenings
    carries it, so this phone's list follows a rename made there."""
    return hashlib.sha256(b"table-ref:" + table.id.encode()).hexdigest()[:16]


def qr(url: str) -> str:
    """Return a QR code of the URL as an SVG data: URI (the page's CSP allows data: images)."""
    return segno.make(url, error="m").svg_data_uri(border=2, omitsize=True, dark="#000", light="#fff")

