"""The baseline of every ratio in `make bench`: a bare Flask app, one route answering "ok" (no database, no templates,
no extensions), served by exactly the same server setup as the app (scorekeeper.serve.run):
`python -m bench.bare [--server gunicorn|waitress]`, HOST, PORT and WORKERS from the environment (bench/server.py)."""
import sys

from flask import Flask


def make_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def ok():
        return "ok"

    return app


def main(argv: list[str]) -> int:
    from scorekeeper.serve import run, settings
    return run(make_app, settings(argv=argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
