"""Dependencies point one way: engine -> (solver | stats | cli | web).

The engine never imports the layers above it, and those layers do not import each
other, except that the CLI starts the web app and runs the solver and statistics, the
statistics drive the solver, the web app asks the solver for hints, and the CLI draws
progress lines (``progress``).
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "src" / "intrigue"
ENGINE = {"errors", "cards", "notation", "variants", "deals", "position", "game", "codec"}
ALLOWED_UPWARD = {
    "solver": set(),
    "stats": {"solver"},
    "progress": set(),
    "web": {"solver"},
    "cli": {"solver", "stats", "progress", "web"},
}


def layer(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    return rel.parts[0] if rel.parts[0] not in ("__init__", "__main__") else "api"


def imported_layers(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("intrigue."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("intrigue.")}
    return found


def test_layers_import_only_downwards():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = layer(path)
        if here == "api":
            continue
        for other in imported_layers(path) - ENGINE - {here}:
            allowed = set() if here in ENGINE else ALLOWED_UPWARD.get(here, set())
            if other not in allowed:
                problems.append(f"{path.relative_to(PACKAGE)} imports intrigue.{other}")
    assert problems == []


def test_modules_stay_small():
    big = [
        f"{p.relative_to(PACKAGE)}: {n} lines"
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 800
    ]
    assert big == []
