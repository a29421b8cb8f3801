"""Setting a simulated user's Discord language, which simcord 3.2.1 cannot do itself.

simcord builds every interaction with `"locale": "en-US"`; `ClientLanguages` wraps its payload
builder (`simcord.interactions.base_payload`, which its actors call through the module) and
gives the interactions of chosen users another locale, as a German client sends `"de"`.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord import interactions as sc_interactions


class ClientLanguages:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_user: dict[int, str] = {}
        original = sc_interactions.base_payload

        def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = original(*args, **kwargs)
            locale = self.by_user.get(int(kwargs["user_id"]))
            if locale is not None:
                payload["locale"] = locale
            return record, payload

        monkeypatch.setattr(sc_interactions, "base_payload", base_payload)

    def set(self, member: Any, locale: str) -> None:
        """From now on `member`'s client speaks `locale` ("de", "en-US")."""
        self.by_user[member.id] = locale
