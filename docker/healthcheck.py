"""The container's HEALTHCHECK (Dockerfile): exit 0 if the app answers GET /healthz with 200, else 1.

Python's urllib, because the slim image has no curl or wget. It asks 127.0.0.1 on PORT (the entrypoint's default
8000), or the address given as its one argument, and ignores any HTTP_PROXY in the container's environment (a
proxy would answer for the app). /healthz, not /readyz: a database that is down for a moment should not get the
app's container restarted; /readyz is for a proxy choosing where to send requests.
"""
from __future__ import annotations

import os
import sys
import urllib.request

TIMEOUT = 5  # seconds; the Dockerfile's HEALTHCHECK --timeout is the same


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else f"http://127.0.0.1:{os.environ.get('PORT') or 8000}/healthz"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=TIMEOUT) as answer:
            if answer.status == 200:
                return 0
            print(f"unhealthy: {url} answered {answer.status}", file=sys.stderr)
    except (OSError, ValueError) as e:  # refused, timed out, an HTTP error status, a malformed address
        print(f"unhealthy: {url}: {e}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
