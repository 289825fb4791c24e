"""The layers read top-down (DESIGN.md): transport (``api``, ``web``) over the table, the
table over storage, rules and fan-out, and nothing reaches back up. Checked from the
source, so a new import that breaks the shape fails here rather than in a review."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"

# What each part of the app may import of the others (besides itself). Notifications
# subscribe to the table's events; the table imports none of its listeners.
ALLOWED: dict[str, set[str]] = {
    "games": set(),
    "settings": set(),
    "logs": set(),
    "wire": set(),
    "background": set(),
    "reach": set(),  # this machine's own addresses, for links that reach friends
    "collector": set(),  # how the process's garbage collector runs (app/collector.py)
    "store": {"settings"},
    "hub": {"settings", "store"},
    "table": {"games", "store", "hub", "settings"},
    "notify": {"background", "table", "games", "store", "hub", "settings", "logs"},
    # Bots subscribe to the table's events like notifications, and remind through them.
    "bots": {"background", "table", "notify", "games", "store", "hub", "settings"},
    "api": {"table", "notify", "bots", "games", "store", "hub", "settings", "wire", "logs"},
    "web": {"api", "table", "notify", "bots", "games", "store", "settings", "wire", "reach"},
    "main": {"api", "web", "table", "notify", "bots", "games", "store", "hub", "settings", "logs", "wire",
             "collector"},
    "cli": {"table", "store", "hub", "settings"},
    "__main__": {"api", "main", "settings", "store", "cli", "reach"},
}


def part_of(path: Path) -> str:
    rel = path.relative_to(APP)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def runtime_imports(tree: ast.AST) -> list[tuple[str, list[str], int]]:
    """(module, names, line) of every import that runs, skipping ``if TYPE_CHECKING:`` blocks."""
    found = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(("." * node.level + node.module, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            found.append(("." * node.level, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, [], node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def absolute(module: str, path: Path) -> str:
    if not module.startswith("."):
        return module
    level = len(module) - len(module.lstrip("."))
    package = list(path.relative_to(APP.parent).with_suffix("").parts[:-1])
    base = package[: len(package) - (level - 1)]
    rest = module.lstrip(".")
    return ".".join(base + ([rest] if rest else []))


def app_imports() -> list[tuple[Path, str, str, list[str], int]]:
    out = []
    for path in sorted(APP.rglob("*.py")):
        for module, names, line in runtime_imports(ast.parse(path.read_text(), str(path))):
            target = absolute(module, path)
            if target == "app" or target.startswith("app."):
                parts = target.split(".")
                if len(parts) == 1:  # from app import x
                    for name in names:
                        out.append((path, part_of(path), name, [], line))
                else:
                    out.append((path, part_of(path), parts[1], names, line))
    return out


def test_no_part_of_the_app_imports_a_layer_above_it():
    wrong = [f"{path.relative_to(APP.parent)}:{line} imports app.{target}"
             for path, part, target, _, line in app_imports()
             if target != part and target not in ALLOWED.get(part, set())]
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_another_modules_private_names():
    wrong = [f"{path.relative_to(APP.parent)}:{line} imports {name} from app.{target}"
             for path, _, target, names, line in app_imports()
             for name in names if name.startswith("_") and not name.startswith("__")]
    assert not wrong, "\n".join(wrong)


def test_the_allowed_imports_have_no_circle():
    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
                   for nxt in ALLOWED.get(start, ()))

    circles = [part for part in ALLOWED if reaches(part, part, {part})]
    assert not circles, circles
