"""``syndicate verify`` on a prize draw's proof: verified, not yet verifiable while the seed is
secret, NOT verified (exit 1) with the line that does not hold, and a file that is not a proof
refused with its reason."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from typer.testing import CliRunner

from syndicate.apps.cli import app
from syndicate.prizes import draw as d

SEED = hashlib.sha256(b"the cli's seed").digest()
runner = CliRunner()


def _write(tmp_path: Path, *, revealed: bool = True, change=None) -> Path:  # type: ignore[no-untyped-def]
    tickets = d.number({4: 3, 9: 2})
    wins = d.draw(SEED, tickets, 2, "a six") if revealed else ()
    doc = d.proof(name="Wave 1", committed=d.commitment(SEED), tickets=tickets, prizes=["Hamper", "Wine"],
                  witness="a six", one_prize_per_guest=False, seed=SEED if revealed else None, wins=wins)
    if change:
        change(doc)
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_proof_is_verified(tmp_path: Path) -> None:
    out = runner.invoke(app, ["verify", str(_write(tmp_path))])
    assert out.exit_code == 0, out.output
    assert "5 tickets match their digest" in out.output
    assert "prize 1 (Hamper): ticket " in out.output
    assert out.output.rstrip().endswith("verified")


def test_before_the_draw_it_is_not_yet_verifiable(tmp_path: Path) -> None:
    out = runner.invoke(app, ["verify", "--json", str(_write(tmp_path, revealed=False))])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["ok"] and got["pending"]


def test_a_changed_winner_is_not_verified(tmp_path: Path) -> None:
    def change(doc: dict) -> None:
        w = doc["winners"][1]
        w["ticket"] = 5 if w["ticket"] != 5 else 4
    out = runner.invoke(app, ["verify", str(_write(tmp_path, change=change))])
    assert out.exit_code == 1, out.output
    assert "prize 2 (Wine): the proof says ticket" in out.output and "NOT verified" in out.output


def test_a_broken_proof_is_refused_with_its_reason(tmp_path: Path) -> None:
    out = runner.invoke(app, ["verify", str(_write(tmp_path, change=lambda doc: doc.pop("tickets")))])
    assert out.exit_code != 0
    assert "cannot verify" in out.output and "the proof is not whole" in out.output
