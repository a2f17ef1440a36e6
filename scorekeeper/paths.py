"""Where the app's files are: beside the package in a git checkout, inside it in an installed wheel."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def resource(name: str) -> Path:
    """Return the folder `name` (templates, static, migrations): the repository keeps them at its top level,
    beside scorekeeper/; the wheel's build puts them inside the package (pyproject.toml's package-dir)."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name
