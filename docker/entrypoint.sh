#!/bin/sh
# The container's entrypoint (Dockerfile): bring the database up to date, then serve.
#
# HOST and PORT default to 0.0.0.0:8000 (every interface of the container: the port is published by Docker,
# see compose.yaml). `exec` makes the server the container's main process, so `docker stop`'s SIGTERM reaches
# the server, which finishes the requests under way and exits 0.
set -eu

export HOST="${HOST:-0.0.0.0}"
export PORT="${PORT:-8000}"

python -m scorekeeper init-db
exec python -m scorekeeper serve "$@"
