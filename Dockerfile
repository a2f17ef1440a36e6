# Scorekeeper's image: `python -m scorekeeper serve` (waitress, WORKERS x 2 threads) on port 8000,
# its database brought up to date first (docker/entrypoint.sh). With PostgreSQL: compose.yaml (docs/deploy.md,
# "Container"). Alone, on SQLite in the volume:
#   docker build -t scorekeeper . && docker run -p 127.0.0.1:8000:8000 -v scorekeeper:/var/lib/scorekeeper scorekeeper
#
# The tag names Python's minor version and Debian's release, so a rebuild gets Python 3.12's security fixes but
# never another Debian; for builds that can be repeated bit for bit, add the digest: python:3.12-slim-bookworm@sha256:…
FROM python:3.12-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/app \
    INSTANCE_PATH=/var/lib/scorekeeper \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /app

# Exactly the lock: every package at its pinned version with its hashes, nothing resolved on the day of the
# build (every one has a wheel for CPython 3.12 on Linux: nothing is compiled here).
COPY requirements/run.txt requirements/run.txt
RUN python -m venv /opt/venv \
 && pip install --require-hashes --no-deps -r requirements/run.txt

# The app as a checkout holds it: scorekeeper/paths.py finds templates/, static/ and migrations/ beside the package.
COPY scorekeeper/ scorekeeper/
COPY templates/ templates/
COPY static/ static/
COPY migrations/ migrations/
COPY docker/ docker/
RUN python -m compileall -q scorekeeper migrations

# A system user that owns only the instance folder (database, secret key, config.py); /app stays root's, read-only
# to the app. Docker fills a new named volume from the image's folder, ownership included.
RUN useradd --system --user-group --uid 10001 --home-dir /nonexistent --no-create-home \
        --shell /usr/sbin/nologin scorekeeper \
 && mkdir -p /var/lib/scorekeeper \
 && chown scorekeeper:scorekeeper /var/lib/scorekeeper \
 && chmod 700 /var/lib/scorekeeper
VOLUME ["/var/lib/scorekeeper"]
# By number: Kubernetes' runAsNonRoot can check it without the image's /etc/passwd.
USER 10001:10001

EXPOSE 8000
# Logs: the access log on stdout, errors on stderr (PYTHONUNBUFFERED): `docker logs` shows both.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
