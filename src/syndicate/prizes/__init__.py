"""The prizes of a charity night, pure: how chips turn into raffle tickets (:mod:`.tickets`) and
the draw that anyone can check from its published proof (:mod:`.draw`, docs/prize-draw.md).
Like the engines, it imports only the foundation: no I/O, no clock, and randomness only as an
argument."""
