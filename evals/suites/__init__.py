"""Eval suites: one module per suite, each exporting ``SUITE``."""
