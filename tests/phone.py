"""A phone talking to a real server over HTTP: its cookie and the last form's CSRF token (tests that run
gunicorn or waitress, where the test client can't go)."""
from __future__ import annotations

import http.client
import re
import urllib.parse


class Phone:
    """One phone's session with one server: its cookie and the form's CSRF token."""

    def __init__(self, port: int):
        self.port, self.cookie, self.csrf = port, "", ""

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = {"Cookie": self.cookie, **(headers or {})}
        data = None
        if body is not None:
            data = urllib.parse.urlencode({"csrf_token": self.csrf, **body}, doseq=True)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, data, sent)
        resp = conn.getresponse()
        text = resp.read().decode()
        if resp.getheader("Set-Cookie"):
            self.cookie = resp.getheader("Set-Cookie").split(";")[0]
        found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text)
        if found:
            self.csrf = found.group(1)
        return resp, text
