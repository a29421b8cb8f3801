# The WIRE bot in a container: `docker compose up -d` (docs/hosting.md, "Running in Docker").
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
    && /app/.venv/bin/pip install --quiet --disable-pip-version-check --require-hashes \
       --no-cache-dir \
       -r requirements.txt

# The code only: no .env, no database, no tests (and .dockerignore keeps them out of the context).
COPY bot.py healthcheck.py ./
COPY cogs/ ./cogs/
COPY wire/ ./wire/
COPY storage/ ./storage/
COPY --chown=wire:wire data/example-campaign.json ./data/example-campaign.json
RUN /app/.venv/bin/python -m compileall -q bot.py healthcheck.py cogs wire storage \
    && chown wire:wire /app/data

# The database lives on a volume, owned by the bot's user (a new named volume copies the owner).
ENV WIRE_DATABASE=/app/data/wire.db \
    PATH=/app/.venv/bin:$PATH
VOLUME /app/data

USER wire

# Healthy when the bot is connected to Discord (its heartbeat file, written every 20 s while
# the gateway is up, is under 90 s old) and the database answers a one-page read (SQLite's
# header, or SELECT 1 on PostgreSQL): healthcheck.py. No integrity scan of the whole file every
# minute, and no request to Discord.
ENV WIRE_HEARTBEAT=/tmp/wire-heartbeat
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["/app/.venv/bin/python", "/app/healthcheck.py"]

CMD [".venv/bin/python", "bot.py"]
