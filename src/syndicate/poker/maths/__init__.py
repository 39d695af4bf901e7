"""The mathematics of five-card draw: the batch evaluator (numba) and the draw odds."""
