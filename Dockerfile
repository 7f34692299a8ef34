# The bot as a small container: the same Python (3.11) and install command as CI, PostgreSQL driver
# included, running as a non-root user. Build: docker build -t referee .  (or docker compose up)
# With SQLite:      docker run -d --env-file .env -v referee-data:/data referee
# With PostgreSQL:  see compose.yaml (DATABASE_URL=postgresql+asyncpg://…).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # The SQLite file lives on the volume; set DATABASE_URL to use PostgreSQL instead.
    DATABASE_URL=sqlite+aiosqlite:////data/referee.sqlite3

RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin referee \
    && mkdir -p /app /data \
    && chown referee:referee /data

WORKDIR /app
COPY pyproject.toml README.md alembic.ini bot.py ./
COPY rules rules
COPY db db
COPY cogs cogs
COPY migrations migrations
COPY locales locales
RUN pip install ".[postgres]"

USER referee
VOLUME /data

# Settings valid, database reachable, schema at head (the bot migrates when it starts).
HEALTHCHECK --interval=60s --timeout=20s --start-period=60s --retries=3 CMD ["python", "bot.py", "--check"]
# SIGTERM is how Docker stops a container; give the bot time to finish in-flight commits.
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
