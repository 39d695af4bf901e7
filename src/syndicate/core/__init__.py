"""The table's physical things, below every game: cards, chips in integer cents, shoes and their
commitments, the fairness checks of a shuffle, errors that name a rule."""
