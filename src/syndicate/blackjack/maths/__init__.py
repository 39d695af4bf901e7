"""The mathematics of Blackjack: exact expectation by combinatorial analysis, the basic-strategy
chart derived from it, the house's expected result, and the simulator."""
