"""Setting a simulated user's Discord language, which simcord 3.2.1 cannot do itself.

simcord builds every interaction with `"locale": "en-US"` and `"guild_locale": "en-US"`;
`ClientLanguages` wraps its payload builder (`simcord.interactions.base_payload`, which its
actors call through the module) and gives the interactions of chosen users another locale, as a
German client sends `"de"`, and the server another preferred locale (`server`), as a Community
server set to German sends `"guild_locale": "de"`.
"""

from __future__ import annotations

from typing import Any

import pytest
from simcord import interactions as sc_interactions


class ClientLanguages:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_user: dict[int, str] = {}
        self.server: str | None = None
        original = sc_interactions.base_payload

        def base_payload(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = original(*args, **kwargs)
            locale = self.by_user.get(int(kwargs["user_id"]))
            if locale is not None:
                payload["locale"] = locale
            if self.server is not None and "guild_id" in payload:
                payload["guild_locale"] = self.server
            return record, payload

        monkeypatch.setattr(sc_interactions, "base_payload", base_payload)

    def set(self, member: Any, locale: str) -> None:
        """From now on `member`'s client speaks `locale` ("de", "en-US")."""
        self.by_user[member.id] = locale
