"""The baseline of the serving benchmark: a bare Flask app, one route answering "ok" (no database, no templates,
no extensions), served by exactly the same server setup as the app (scorekeeper.serve.run)."""
from flask import Flask


def make_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def ok():
        return "ok"

    return app
