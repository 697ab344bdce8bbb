"""Calibration on the user's cluster: the bundle's microbenchmark results (templates/calibrate.py)
fitted to a GPU preset (`fit`, `preset`), and measured steps beside the estimate (`measured`)."""
