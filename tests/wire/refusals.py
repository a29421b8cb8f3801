"""`refused(message)`: pytest.raises for the rules core's one error, matching the whole message.

A RulesError's text is the reply a user reads (stderr of the CLI, an ephemeral Discord message),
so the tests pin it word for word: `match=` alone searches, and would pass a message with words
added around it.
"""

from __future__ import annotations

import re

import pytest

from wire.errors import RulesError


def refused(message: str) -> pytest.RaisesExc[RulesError]:
    return pytest.raises(RulesError, match=f"^{re.escape(message)}$")
