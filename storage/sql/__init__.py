"""The SQL catalogues: every statement the store runs, by name, one catalogue per backend.

The rules layer (storage/rules.py) names a statement ("campaign_by_id") and hands a dict of
named parameters (`:guild_id`); each backend looks the name up in its own catalogue. Most
statements are portable and written once (storage/sql/common.py), built from a few fragments
each dialect writes its own way (how a JSON array is aggregated, what "now" is); the rest are
a dialect's overrides (storage/sql/sqlite.py, storage/sql/postgres.py).

Values look the same on both backends, so one row converter (storage/rows.py) serves both:
JSON as text, times as `rows.utc_text`'s fixed-width UTC text, flags as 0/1 integers.
"""
