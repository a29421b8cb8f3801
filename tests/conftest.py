"""Fixtures shared by every test folder."""

pytest_plugins = ["storage.testing", "storage.pg_testing"]
