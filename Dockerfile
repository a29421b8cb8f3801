# The WIRE bot in a container: `docker compose up -d` (see README.md, "Running in Docker").
# The token is never part of the image: it comes from the environment at run time (env_file).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

# An unprivileged user for the bot; it owns only the data folder.
RUN groupadd --system --gid 10001 wire \
    && useradd --system --uid 10001 --gid wire --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin wire

# DejaVu Sans draws the charts' words in every language (/stats, /odds): Pillow's own font has
# ASCII letters only, and without it wire/chart.py spells "für" as "fuer".
RUN apt-get update \
    && apt-get install --yes --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# The same requirements, installed the same way as `make run` does (Makefile: .venv/.runtime).
COPY requirements.txt ./
RUN python -m venv /app/.venv \
    && /app/.venv/bin/pip install --quiet --disable-pip-version-check --no-cache-dir \
       -r requirements.txt

# The code only: no .env, no database, no tests (and .dockerignore keeps them out of the context).
COPY bot.py ./
COPY cogs/ ./cogs/
COPY wire/ ./wire/
COPY storage/ ./storage/
COPY --chown=wire:wire data/example-campaign.json ./data/example-campaign.json
RUN /app/.venv/bin/python -m compileall -q bot.py cogs wire storage \
    && chown wire:wire /app/data

# The database lives on a volume, owned by the bot's user (a new named volume copies the owner).
ENV WIRE_DATABASE=/app/data/wire.db \
    PATH=/app/.venv/bin:$PATH
VOLUME /app/data

USER wire

# Healthy when the bot process is running and its database answers a read-only quick check.
# No network: it does not ask Discord anything. The process is found by its argument list in
# /proc (there is no pgrep in the slim image); this check's own arguments never equal "bot.py".
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD ["/app/.venv/bin/python", "-c", "import os, pathlib, sqlite3, sys; \
running = any(b'bot.py' in p.read_bytes().split(b'\\0') \
for p in pathlib.Path('/proc').glob('[0-9]*/cmdline')); \
db = pathlib.Path(os.environ.get('WIRE_DATABASE', 'data/wire.db')).absolute(); \
ok = sqlite3.connect(db.as_uri() + '?mode=ro', uri=True, timeout=5) \
.execute('PRAGMA quick_check').fetchone()[0] == 'ok'; \
sys.exit(0 if running and ok else 1)"]

CMD [".venv/bin/python", "bot.py"]
