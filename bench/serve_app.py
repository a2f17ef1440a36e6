"""Serve one app for the serving benchmark: `python -m bench.serve_app bare|scorekeeper waitress|gunicorn PORT`,
through scorekeeper.serve.run, the one setup of both servers that `make run` and `serve` use."""
import sys

from scorekeeper.serve import Settings, run


def main(kind: str, server: str, port: str) -> int:
    if kind == "bare":
        from bench.bare import make_app
    else:
        from scorekeeper import create_app as make_app
    return run(make_app, Settings("127.0.0.1", int(port), 2, server))


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
