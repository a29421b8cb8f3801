"""Fixtures shared by every test folder."""

pytest_plugins = ["storage.testing"]
