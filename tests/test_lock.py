"""The lock (requirements/*.txt, made by `make lock`) and pyproject.toml's ranges must agree.

`make run`, `make test` and CI install exactly the lock, so a range in pyproject.toml that the lock's pin no
longer satisfies (or a dependency added to one and not the other) means the tests ran against something a user
of the package may never get. This fails naming the package.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^ ;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
PYTHONS = ("3.11", "3.12", "3.13")
PLATFORMS = ("linux", "darwin", "win32")


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def direct(extra: str | None) -> list[Requirement]:
    project = pyproject()
    requirements = [Requirement(r) for r in project["dependencies"]]
    if extra:
        requirements += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return requirements


def pins(name: str) -> list[tuple[str, Version, Marker | None]]:
    """Every pinned line of a lock file: (canonical name, version, marker or None)."""
    found = []
    for line in (ROOT / "requirements" / name).read_text(encoding="utf-8").splitlines():
        m = PIN.match(line)
        if m:
            found.append((canonicalize_name(m[1]), Version(m[3]), Marker(m[4]) if m[4] else None))
    return found


def environments():
    """The places the lock must install on: every supported Python on Linux, macOS and Windows (CPython)."""
    for python in PYTHONS:
        for platform in PLATFORMS:
            yield {"python_version": python, "python_full_version": python + ".0", "sys_platform": platform,
                   "platform_system": {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}[platform],
                   "os_name": "nt" if platform == "win32" else "posix", "implementation_name": "cpython",
                   "platform_python_implementation": "CPython", "extra": ""}


LOCKS = [("run.txt", None), ("test.txt", "test")]


@pytest.mark.parametrize("lock, extra", LOCKS)
def test_every_direct_dependency_is_pinned_within_its_range(lock, extra):
    locked = pins(lock)
    for env in environments():
        chosen = {name: version for name, version, marker in locked if marker is None or marker.evaluate(env)}
        for req in direct(extra):
            if req.marker and not req.marker.evaluate(env):
                continue
            name = canonicalize_name(req.name)
            assert name in chosen, (f"{name} is in pyproject.toml but not in requirements/{lock} for Python "
                                    f"{env['python_version']} on {env['sys_platform']}: run make lock")
            assert req.specifier.contains(chosen[name], prereleases=True), (
                f"requirements/{lock} pins {name}=={chosen[name]}, outside pyproject.toml's {req.specifier}: "
                f"run make lock")


@pytest.mark.parametrize("lock, extra", LOCKS)
def test_the_lock_asks_for_nothing_pyproject_dropped(lock, extra):
    # uv writes "# via scorekeeper (pyproject.toml)" under each direct dependency
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    wanted = {canonicalize_name(r.name) for r in direct(extra)}
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    direct_in_lock = {canonicalize_name(PIN.match(b.splitlines()[0])[1]) for b in blocks
                      if PIN.match(b.splitlines()[0]) and "scorekeeper (pyproject.toml)" in b}
    assert direct_in_lock == wanted, (f"requirements/{lock} and pyproject.toml disagree on "
                                      f"{sorted(direct_in_lock ^ wanted)}: run make lock")


def test_every_pin_has_hashes_and_running_is_a_subset_of_testing():
    # pip install --require-hashes refuses a line without one; the test lock must install the same versions
    for lock, _ in LOCKS:
        text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
        for block in re.split(r"\n(?=[A-Za-z0-9])", text):
            if PIN.match(block.splitlines()[0]):
                assert "--hash=sha256:" in block, f"requirements/{lock}: {block.splitlines()[0]} has no hash"
    run = {(n, v, str(m)) for n, v, m in pins("run.txt")}
    test = {(n, v, str(m)) for n, v, m in pins("test.txt")}
    assert run <= test, f"running and testing lock different versions: {sorted(run - test)}"


def test_babel_is_held_where_the_tests_expect_its_locale_data():
    # tests/test_i18n.py asserts CLDR's exact characters (Swiss German thousands as ’); Babel 2.19 (CLDR 48)
    # changed them, so requirements/constraints.txt holds it back until that change is taken deliberately
    babel = [v for n, v, _ in pins("run.txt") if n == "babel"]
    assert babel and all(v < Version("2.19") for v in babel), babel
