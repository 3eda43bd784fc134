"""Benchmarks. Run them all with ``python -m bench`` (or one: ``python -m bench movegen``)."""
