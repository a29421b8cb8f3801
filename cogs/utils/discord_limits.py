"""Discord's limits on what a bot sends, in one place for every cog.

Discord refuses a message that breaks one of these, and the user then sees "The application did
not respond": so every piece of text that can grow (a name, a list, an error quoting user input)
is clipped to the limit named here. The figures are Discord's (developer docs, "Embed Limits",
"Message Resource", "Application Commands"); the tests check replies against their own copy in
tests/discord_rules.py, which is deliberately independent of this one.
"""

from __future__ import annotations

EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_MAX_FIELDS = 25
EMBED_TOTAL_MAX = 6000
CONTENT_MAX = 2000
"""A message's content."""
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
MAX_CHOICES = 25
"""Autocomplete answers and fixed choices."""
BUTTON_LABEL_MAX = 80
MODAL_TEXT_MAX = 4000
"""A modal's text input."""
