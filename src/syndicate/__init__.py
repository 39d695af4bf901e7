"""Syndicate: the card room that casino nights run on.

The package is layered in one direction: the physical things of the table
(:mod:`syndicate.cards`, :mod:`syndicate.money`, :mod:`syndicate.shoe`), then the pure
game engines (:mod:`syndicate.blackjack`, :mod:`syndicate.poker`), then the card room.
"""

__version__ = "0.1.0"
