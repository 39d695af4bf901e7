"""Draw the pictures in the README from real play (a stacked shoe, so they never change).

    .venv/bin/python docs/make_pictures.py
"""

from pathlib import Path

from rich.console import Console

from syndicate.blackjack.rules import preset
from syndicate.blackjack.session import Session
from syndicate.apps.blackjack_tui import BlackjackTUI
from syndicate.core.shoe import Shoe

OUT = Path(__file__).parent / "img"


def terminal_blackjack() -> None:
    rules = preset("syndicate")
    console = Console(record=True, width=72)
    keys = iter(["10", "p", "?", "d", "s", "q"])
    # You: 8-8 against a 6; two bots; the split hands draw 3 and 10.
    order = "8s 9h Tc 6d 8d 7h 4c Kd 3h Td 9c 5s 2c"
    session = Session(rules, {1: 20_000, 2: 1_000_000, 3: 1_000_000}, lambda r: Shoe.stacked(order))
    tui = BlackjackTUI(rules, bots=2, console=console, input_fn=lambda prompt: console.print(prompt + "…", markup=False, highlight=False) or next(keys),
                       session=session)
    tui.run()
    OUT.mkdir(exist_ok=True)
    (OUT / "terminal-blackjack.svg").write_text(console.export_svg(title="syndicate play blackjack --bots 2"))


if __name__ == "__main__":
    terminal_blackjack()
