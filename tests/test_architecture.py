"""The import rules of docs/architecture.md, read from the source: every ``import`` in
``src/syndicate`` (at module level or inside a function, but not under ``TYPE_CHECKING``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
#: The table's physical things and what the engines share: they import no layer above them.
FOUNDATION = ("syndicate.core",)
ENGINES = ("syndicate.blackjack", "syndicate.poker")
#: The prizes' pure parts (tickets from chips, the draw and its proof): beside the engines.
PRIZES = ("syndicate.prizes",)
#: The commands on top: the command line, the server's start, the terminal games, the load tool.
APPS = ("syndicate.apps",)
ABOVE_ENGINES = ("syndicate.room", "syndicate.store", "syndicate.web", *APPS)


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "syndicate").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The project's modules that ``module`` imports."""
    path = MODULES[module]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            where = ".".join(base + ([node.module] if node.module else []))
            targets = [f"{where}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            if t.startswith("syndicate"):
                found = _resolve(t)
                if found is not None and found != module:
                    out.add(found)
    return out


GRAPH = {m: imports_of(m) for m in MODULES}


def _under(module: str, packages: tuple[str, ...] | set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _breaches(importers: tuple[str, ...] | set[str], forbidden: tuple[str, ...] | set[str]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in GRAPH.items() if _under(m, importers)
                  for t in targets if _under(t, forbidden))


def test_the_graph_is_read() -> None:
    # the reader itself: a few edges that must be there, or every rule below passes vacuously
    assert "syndicate.blackjack.round" in GRAPH["syndicate.blackjack.session"]
    assert "syndicate.room.live.actor" in GRAPH["syndicate.room.live.local"]
    assert "syndicate.room.live.local" in GRAPH["syndicate.web.app"]
    assert "syndicate.core.shoe" in GRAPH["syndicate.blackjack.course"]


def test_the_foundation_imports_nothing_above_it() -> None:
    assert _breaches(FOUNDATION, ABOVE_ENGINES) == []


def test_the_engines_import_nothing_of_the_room_storage_or_web() -> None:
    assert _breaches(ENGINES, ABOVE_ENGINES) == []


def test_the_prizes_import_only_the_foundation() -> None:
    assert _breaches(PRIZES, (*ABOVE_ENGINES, *ENGINES)) == []


def test_nothing_below_the_commands_imports_them() -> None:
    assert _breaches(tuple(m for m in GRAPH if m != "syndicate" and not _under(m, APPS)), APPS) == []


def test_the_packages_hold_every_module() -> None:
    """Every module is in a layer's package: nothing is left at the package root."""
    top = {m for m in MODULES if m.count(".") == 1}
    layers = {p for group in (FOUNDATION, ENGINES, PRIZES, APPS, ABOVE_ENGINES) for p in group}
    assert sorted(top - layers) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_does_not_import_the_other(engine: str) -> None:
    other = next(e for e in ENGINES if e != engine)
    assert _breaches((engine,), (other,)) == []


def test_the_room_imports_nothing_of_the_web_or_of_storage() -> None:
    # storage only through its ports (room/ports.py), which store/ implements
    assert _breaches(("syndicate.room",), ("syndicate.web", "syndicate.store", *APPS)) == []


def test_storage_imports_nothing_of_the_web() -> None:
    assert _breaches(("syndicate.store",), ("syndicate.web", *APPS)) == []


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module's code: every one but the docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if _under(m, ("syndicate.room.live",))))
def test_the_table_actor_knows_no_game(module: str) -> None:
    """The live table (its actor, seats, views, clocks, routing) drives any game through the
    Game protocol (room/game.py): it imports no engine and no game adapter, and no
    ``if game == ...`` names one."""
    assert [t for t in GRAPH[module] if _under(t, ENGINES + ("syndicate.room.games.blackjack",
                                                             "syndicate.room.games.draw"))] == []
    assert [s for s in _code_strings(MODULES[module]) if s in ("blackjack", "poker")] == []


def test_no_import_cycles() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_cycle_check_finds_a_cycle() -> None:
    """The check above on a graph with a cycle: it must not pass vacuously."""
    saved = dict(GRAPH)
    try:
        GRAPH["syndicate.core.cards"] = GRAPH["syndicate.core.cards"] | {"syndicate.core.shoe"}
        with pytest.raises(AssertionError):
            test_no_import_cycles()
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


# -- a game is a plug-in ----------------------------------------------------------------------
#: The games' ids as they are stored and spoken (five-card draw's is "poker").
GAME_IDS = ("blackjack", "poker")
#: Where a game may be named: its own package, the registry beside the adapters (room/games),
#: and the per-game terminal tools with the command line's subcommands that start them.
MAY_NAME_GAMES = (*ENGINES, "syndicate.room.games", "syndicate.apps.cli", "syndicate.apps.maths_cli",
                  "syndicate.apps.blackjack_tui", "syndicate.apps.blackjack_remote",
                  "syndicate.apps.poker_cli", "syndicate.apps.poker_tui", "syndicate.apps.poker_remote")
JS = SRC / "syndicate" / "web" / "static" / "js"
#: A game id as a JavaScript string literal.
JS_GAME_ID = re.compile(r"""(["'`])(?:%s)\1""" % "|".join(GAME_IDS))


def games_named(module: str) -> list[str]:
    """Where ``module`` names a game: an import of a game's package, or a game's id as a string
    in its code (docstrings and comments may speak of a game: they are words, not choices)."""
    return ([f"{module} imports {t}" for t in sorted(GRAPH[module]) if _under(t, ENGINES)]
            + [f"{module} says {s!r}" for s in _code_strings(MODULES[module]) if s in GAME_IDS])


def test_no_game_is_named_outside_its_package_and_the_registry() -> None:
    """The room, the histories, the store, the web and the generic commands ask the registry
    (``room/games``) what a game is; only the places above name one (STYLE.md: adding a game is
    a folder, a registry line and a JS module)."""
    assert [n for m in sorted(MODULES) if not _under(m, MAY_NAME_GAMES) for n in games_named(m)] == []


def test_no_page_names_a_game_outside_its_module() -> None:
    """The pages look a game up by the table's ``game`` (``js/games/index.js``): no other
    script names one."""
    named = [f"{p.relative_to(JS)}: {m.group(0)}" for p in sorted(JS.rglob("*.js")) if JS / "games" not in p.parents
             for m in JS_GAME_ID.finditer(p.read_text(encoding="utf-8"))]
    assert named == []


def test_the_game_rule_finds_a_game_named(tmp_path: Path) -> None:
    """The rule above on a planted module that names a game both ways: it must not pass
    vacuously."""
    planted = tmp_path / "planted.py"
    planted.write_text('from syndicate.poker import draw\n\nif game == "blackjack":\n    pass\n', encoding="utf-8")
    module = "syndicate.room.planted"
    MODULES[module], GRAPH[module] = planted, {"syndicate.poker.draw"}
    try:
        with pytest.raises(AssertionError):
            test_no_game_is_named_outside_its_package_and_the_registry()
        assert games_named(module) == [f"{module} imports syndicate.poker.draw", f"{module} says 'blackjack'"]
    finally:
        del MODULES[module], GRAPH[module]
