"""The pages' modules (docs/architecture.md, "The pages"): each game is one module of
``static/js/games/``, looked up by the table's game, so no other module names a game; and every
module stays small."""

from __future__ import annotations

import re
from pathlib import Path

import syndicate.web

JS = Path(syndicate.web.__file__).parent / "static" / "js"
GAMES = JS / "games"
#: A comparison with a game's id ("blackjack", "poker" for five-card draw, "draw"), or of a game.
NAMES_A_GAME = re.compile(r"""[!=]==?\s*["'](?:blackjack|poker|draw)["']|["'](?:blackjack|poker|draw)["']\s*[!=]==?|\bgame\s*[!=]==?""")
MOST_LINES = 400


def modules() -> list[Path]:
    found = sorted(JS.rglob("*.js"))
    assert found, JS
    return found


def test_no_page_module_outside_the_games_names_a_game() -> None:
    found = [f"{path.relative_to(JS)}:{n}: {line.strip()}"
             for path in modules() if GAMES not in path.parents
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if NAMES_A_GAME.search(line)]
    assert not found, "compare a table's game only in js/games/ (look it up there):\n" + "\n".join(found)


def test_the_rule_finds_a_game_named() -> None:
    for line in ('if (t.game === "poker") x();', "const bj = game.value === 'blackjack';", 'a === "draw"',
                 '"blackjack" !== kind', "if (game !== other) {"):
        assert NAMES_A_GAME.search(line), line
    for line in ('h("option", { value: g.id }, g.title)', "const game = gameOf(t.game);"):
        assert not NAMES_A_GAME.search(line), line


def test_every_page_module_is_under_400_lines() -> None:
    long = {str(p.relative_to(JS)): n for p in modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"a module over {MOST_LINES} lines is usually two: {long}"
