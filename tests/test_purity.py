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


def imported_modules(path: Path) -> list[str]:
    """Return the absolute names of the scorekeeper modules a file imports (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out += [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return [m for m in out if m.startswith("scorekeeper")]


# The arrows go one way: web → store → engine, and web → engine (STYLE.md).
MAY_NOT = {"engine": ("scorekeeper.store", "scorekeeper.web", "scorekeeper.create_app"),
           "store": ("scorekeeper.web",)}


@pytest.mark.parametrize("package", sorted(MAY_NOT))
def test_imports_point_one_way(package):
    wrong = [f"{path.relative_to(ROOT)} imports {m}"
             for path in sorted((ROOT / package).rglob("*.py")) for m in imported_modules(path)
             if m.startswith(MAY_NOT[package])]
    assert not wrong, wrong


def test_every_package_says_what_lives_there_and_what_it_may_import():
    for package in ("engine", "store", "web"):
        doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text())) or ""
        assert "import" in doc and len(doc.splitlines()) >= 2, package


def module_imports(path: Path) -> set[str]:
    """The scorekeeper modules a file imports, at its top or inside a function (an import moved into a function
    to dodge a cycle is still one), names resolved to modules that exist: `from . import board` is
    scorekeeper.web.board, `from .l10n import say` scorekeeper.web.l10n, `from . import Game` the package."""
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1] if path.name != "__init__.py"
                       else path.relative_to(ROOT.parent).parts[:-1])
    modules = {".".join(p.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in ROOT.rglob("*.py")}
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                out.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in modules}


def name(path: Path) -> str:
    """The module a file is: scorekeeper/web/table/tables.py is scorekeeper.web.table.tables."""
    return ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")


def test_no_import_cycle_anywhere():
    """No module reaches itself through its imports (a cycle within a layer is what the direction test can't see;
    the engine's games and web's pwa/precompressed had one, tied by imports inside functions).
    The same graph as ../shared/tools/shape_check.py draws, from the modules' own text."""
    graph = {}
    for path in ROOT.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        # a module's own parent packages are not edges: they always run before it (the app factory's package
        # imports the blueprints inside create_app; a blueprint reading LANGUAGES from it is no cycle)
        graph[name] = {m for m in module_imports(path) if m != name and not name.startswith(m + ".")}
    cycles = []

    def visit(node, stack, seen):
        for nxt in sorted(graph.get(node, ())):
            if nxt in stack:
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in seen:
                seen.add(nxt)
                visit(nxt, stack + [nxt], seen)

    for start in sorted(graph):
        visit(start, [start], {start})
    assert not cycles, cycles[:5]


def test_no_module_imports_a_view_module():
    """A view module (one with a Blueprint's routes) is imported by the app factory alone: what two areas share
    (access, the scoreboard's protocol, links, the deck's tiles) lives in a module without views (REVIEW.md §5)."""
    web = sorted((ROOT / "web").rglob("*.py"))
    views = {name(p) for p in web if "Blueprint(" in p.read_text()}
    assert {"scorekeeper.web.table.tables", "scorekeeper.web.table.live", "scorekeeper.web.circle.circles"} <= views
    wrong = [f"{p.relative_to(ROOT)} imports {m}" for p in [*web, *sorted((ROOT / "store").rglob("*.py"))]
             for m in module_imports(p) if m in views and m != name(p)]
    assert not wrong, wrong


def imports_by_place(path: Path) -> tuple[set[str], list[tuple[int, str]]]:
    """The scorekeeper modules a file imports at its top (module level, an `if` there included), and the import
    statements inside a function [(line, the modules it names)]."""
    tree = ast.parse(path.read_text())
    inside = set()
    for f in ast.walk(tree):
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside |= {(n.lineno, n.col_offset) for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
    top, late = set(), []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            single = ast.Module(body=[node], type_ignores=[])
            found = module_imports_of(path, single)
            if (node.lineno, node.col_offset) in inside:
                if found:
                    late.append((node.lineno, found))
            else:
                top |= found
    return top, late


def module_imports_of(path: Path, tree) -> set[str]:
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1] if path.name != "__init__.py"
                       else path.relative_to(ROOT.parent).parts[:-1])
    modules = {name(p) for p in ROOT.rglob("*.py")}
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                out.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m in modules}


def test_a_function_imports_the_projects_modules_only_to_avoid_a_cycle():
    """An import of the project's own module inside a function hides an arrow from the reader (and from the
    cycle test's first glance): it is allowed only where the same import at the top would close a cycle (the app
    factory imports the blueprints in one statement, some of which read LANGUAGES from its package). Anything else
    goes at the top."""
    top, late = {}, {}
    for path in ROOT.rglob("*.py"):
        top[name(path)], late[name(path)] = imports_by_place(path)

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo += top.get(here, ())
        return False

    wrong = [f"{module} line {line} imports {sorted(others)} inside a function, with no cycle to avoid"
             for module, found in sorted(late.items()) for line, others in found
             if not any(other != module and reaches(other, module) for other in others)]
    assert not wrong, wrong
