"""Syndicate: the card room that casino nights run on.

The package is layered in one direction: the physical things of the table
(:mod:`syndicate.core.cards`, :mod:`syndicate.core.money`, :mod:`syndicate.core.shoe`), then the pure
game engines (:mod:`syndicate.blackjack`, :mod:`syndicate.poker`), then the card room.
"""

__version__ = "0.1.0"
