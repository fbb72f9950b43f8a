#!/usr/bin/env python3
"""r-syntax.py -- Python that does not parse: said with its place."""
import ensemble

ensemble.init(
ensemble.finalize()
