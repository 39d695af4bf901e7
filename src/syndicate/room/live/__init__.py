"""The live tables: each table's actor and what it is made of (seats, views, clocks, the
writer of its database work), and the routing of a client's socket to its table, in one
process (:mod:`.local`) or across several (:mod:`.cluster`)."""
