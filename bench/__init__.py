"""Benchmarks run by `make bench`: each module prints its figures; none asserts a timing."""

# Debian's Chromium under Playwright, as the tests start it (tests/conftest.py): no sandbox as root, and no
# background connections, which this machine's closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
