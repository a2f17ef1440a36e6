"""An idle scoreboard poll behind the TLS proxy of docs/deploy.md (nginx, HTTP/2): bytes each way.

Over HTTP/1.1 every poll carries the browser's whole request head (user agent, client hints, languages,
referer: ~600 bytes, bench/save.py). Over HTTP/2 the headers are HPACK-compressed against the ones the
connection already sent, so a poll repeats them by index. The client is the `h2` library sending the
headers a phone's Chromium sends; the figures are HTTP/2 frame bytes (TLS adds ~30 bytes a record).
Needs nginx and openssl (apt-get install nginx-light openssl); skipped without them.
"""
from __future__ import annotations

import re
import shutil
import socket
import ssl
import statistics
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

import h2.config
import h2.connection
import h2.events

from scorekeeper import create_app, store

from . import server

NGINX = """worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{}}
http {{
  access_log off;
  client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp}; uwsgi_temp_path {tmp};
  scgi_temp_path {tmp};
  server {{
    listen {port} ssl http2;
    ssl_certificate {tmp}/cert.pem;
    ssl_certificate_key {tmp}/key.pem;
    location / {{
      proxy_pass http://127.0.0.1:{app_port};
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
    }}
  }}
}}
"""
UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/131.0.0.0 Mobile Safari/537.36")


class Client:
    """One HTTP/2 connection over TLS that counts the frame bytes it sends and receives per request."""

    def __init__(self, port: int):
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
        self.sock = context.wrap_socket(socket.create_connection(("127.0.0.1", port)), server_hostname="localhost")
        assert self.sock.selected_alpn_protocol() == "h2"
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        self.conn.initiate_connection()
        self.sock.sendall(self.conn.data_to_send())

    def get(self, path: str, headers: list, body: bytes = b"") -> tuple[int, dict, int, int]:
        """GET path (or POST `body`); return (status, response headers, bytes sent, bytes received)."""
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", "POST" if body else "GET"), (":authority", "localhost"),
                                        (":scheme", "https"), (":path", path), *headers], end_stream=not body)
        if body:
            self.conn.send_data(stream, body, end_stream=True)
        out = self.conn.data_to_send()
        self.sock.sendall(out)
        self.body = b""
        got, status, head, done = 0, 0, {}, False
        while not done:
            data = self.sock.recv(65536)
            got += len(data)
            for event in self.conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    head = {k.decode(): v.decode() for k, v in event.headers}
                    status = int(head[":status"])
                elif isinstance(event, h2.events.DataReceived):
                    self.body += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    done = True
            pending = self.conn.data_to_send()
            if pending:
                self.sock.sendall(pending)
        return status, head, len(out), got


def main() -> None:
    if not (shutil.which("nginx") and shutil.which("openssl")):
        print("http2: nginx or openssl not installed (apt-get install nginx-light openssl); skipped")
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-h2-"))
    url = f"sqlite:///{tmp / 'h2.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
        viewer = store.share_links(table)[store.VIEWER]
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(tmp / "key.pem"),
                    "-out", str(tmp / "cert.pem"), "-days", "2", "-subj", "/CN=localhost"], check=True,
                   capture_output=True)
    app_port, port = server.free_port(), server.free_port()
    (tmp / "nginx.conf").write_text(NGINX.format(tmp=tmp, port=port, app_port=app_port))
    proc = server.start(tmp, url, "bench", app_port)
    subprocess.run(["nginx", "-c", str(tmp / "nginx.conf")], check=True)
    try:
        for _ in range(50):  # nginx forks its worker: wait until it answers
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        client = Client(port)
        chrome = [("sec-ch-ua", '"Chromium";v="131", "Not_A Brand";v="24"'), ("sec-ch-ua-mobile", "?1"),
                  ("sec-ch-ua-platform", '"Android"'), ("user-agent", UA), ("accept", "*/*"),
                  ("sec-fetch-site", "same-origin"), ("sec-fetch-mode", "cors"), ("sec-fetch-dest", "empty"),
                  ("referer", f"https://localhost/v/{viewer}"), ("accept-encoding", "gzip, deflate, br, zstd"),
                  ("accept-language", "de-CH,de;q=0.9,en;q=0.8")]
        status, head, page_up, page_down = client.get(f"/v/{viewer}", [*chrome[:4], ("accept", "text/html")])
        assert status == 200, status
        status, head, _up, _down = client.get(f"/t/{viewer}/board", [*chrome, ("hx-request", "true")])
        tag = head["etag"]
        ups, downs = [], []
        for _ in range(20):  # what every 2 s costs while nothing changes
            status, _head, up, down = client.get(f"/t/{viewer}/board", [*chrome, ("hx-request", "true"),
                                                                         ("if-none-match", tag)])
            assert status == 304, status
            ups.append(up), downs.append(down)
        print(f"an idle poll over HTTP/2 behind nginx (docs/deploy.md): {statistics.median(ups):.0f} B up"
              f" (goal <= 500; HTTP/1.1: bench/save.py), {statistics.median(downs):.0f} B down, HTTP/2 frames")
        # the scorer saves hands as its page does (htmx, X-Board), on the same kind of connection
        status, head, _up, _down = client.get(f"/t/{table}", [*chrome[:4], ("accept", "text/html"),
                                                              ("accept-encoding", "identity")])
        page = client.body.decode()
        cookie = head.get("set-cookie", "").split(";", 1)[0]
        csrf = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
        setup = re.search(r'name="setup" type="hidden" value="([^"]*)"', page).group(1)
        shown = '"' + re.search(r"""id="live"[^>]*data-etag='"([^"]+)"'""", page).group(1) + '"'
        ups, downs = [], []
        for i in range(7):
            body = urllib.parse.urlencode({"csrf_token": csrf, "token": f"h2save{i}x{time.monotonic_ns()}",
                                           "setup": setup, "partner": "Cla", "side": "first",
                                           "points": str(30 + i), "action": "save"}).encode()
            status, head, up, down = client.get(f"/t/{table}/hands", [
                *chrome, ("content-type", "application/x-www-form-urlencoded; charset=UTF-8"),
                ("origin", "https://localhost"), ("hx-request", "true"), ("hx-target", "hand-form"),
                ("hx-trigger", "hand-form"), ("hx-current-url", f"https://localhost/t/{table}"),
                ("x-csrftoken", csrf), ("x-board", shown), ("cookie", cookie)], body)
            assert status == 200 and "x-next-hand" in head, (status, client.body[:300])
            shown = head["etag"].split(":")[0].rstrip('"') + '"'
            ups.append(up), downs.append(down)
        print(f"a Save over HTTP/2 behind nginx (Troccas, a new table): {statistics.median(ups):.0f} B up,"
              f" {statistics.median(downs):.0f} B down (goal <= 2048 each), HTTP/2 frames")
    finally:
        subprocess.run(["nginx", "-c", str(tmp / "nginx.conf"), "-s", "stop"], capture_output=True)
        server.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
