"""Database URLs in messages and logs.

Its own module, below the package, so that storage.postgres can use it without importing the
package that opens it (storage/__init__.py imports storage.postgres when a URL asks for it).
"""

from __future__ import annotations

import re


def redacted(database: str) -> str:
    """A database setting without the password a URL may hold, for messages and logs."""
    return re.sub(r"(://[^:/@]*:).*@", r"\1***@", database)
