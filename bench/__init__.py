"""Benchmarks: run one with `python -m bench.<name>` (not part of the test suite)."""
