"""Tests of the campaign storage (storage/), each on a real SQLite file in tmp_path."""
