"""Driving a Blackjack round at a real-cards table: the dealer's shoe keeps the count.

The round takes the cards the dealer enters (:meth:`Round.deal_card`) and asks its shoe, an
:class:`~syndicate.core.shoe.EnteredShoe`, whether it can hold each; what is done to the shoe
itself is done here.
"""

from __future__ import annotations

from ..core.shoe import EnteredShoe
from . import records as rec
from .round import Round


def shuffle_discards(rd: Round, shoe: EnteredShoe) -> rec.Shuffled:
    """The shoe ran low during the round and the dealer shuffled the discard tray back into it,
    as a real dealer does: every card dealt from the shoe goes back to the count but the cards
    of this round, which are on the table. Logged as a ``shuffle`` note."""
    rd.verify_shuffle_discards()
    on_table = [r.card for r in rd.log if r.type == "card"]
    record = rec.Shuffled(shoe.reshuffle(on_table), len(on_table))
    rd.apply(record)
    return record
