"""The parts of Fakecord, the end-to-end Discord stand-in; ``tests/e2e/standin.py`` composes them.

Import the stand-in from ``tests.e2e.standin``, not from here: this package only splits the
work by job (records, payloads, validation, faults, HTTP, REST routes, gateway) so that each
part can be read on its own.
"""
