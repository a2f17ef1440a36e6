"""The pure core imports no Flask, WTForms or database code (STYLE.md)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "scorekeeper"
PURE = sorted((ROOT / "engine").rglob("*.py"))
FORBIDDEN = ("flask", "flask_wtf", "flask_babel", "wtforms", "sqlalchemy", "alembic", "psycopg", "sqlite3", "werkzeug", "jinja2")


@pytest.mark.parametrize("path", PURE, ids=lambda p: p.name)
def test_core_is_pure(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
