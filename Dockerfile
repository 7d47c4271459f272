# syntax=docker/dockerfile:1
# Production image: build wheels in one stage, run as a non-root user with gunicorn (uvicorn
# workers, ASGI) in the next.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY config config
COPY games games
COPY accounts accounts
COPY notifications notifications
RUN pip wheel --wheel-dir /wheels .

FROM python:3.11-slim-bookworm AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DJANGO_DEBUG=false DATA_DIR=/var/lib/turnpost STATIC_ROOT=/app/staticfiles
RUN groupadd --system turnpost && useradd --system --gid turnpost --home /app turnpost \
    && mkdir -p /var/lib/turnpost && chown turnpost:turnpost /var/lib/turnpost
COPY --from=build /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels
WORKDIR /app
COPY --chown=turnpost:turnpost manage.py ./
COPY --chown=turnpost:turnpost config config
COPY --chown=turnpost:turnpost games games
COPY --chown=turnpost:turnpost accounts accounts
COPY --chown=turnpost:turnpost notifications notifications
COPY --chown=turnpost:turnpost templates templates
COPY --chown=turnpost:turnpost static static
COPY --chown=turnpost:turnpost locale locale
RUN python -m config.catalogs --force
# collectstatic needs settings, and production settings need a long key: a throwaway one.
RUN DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(64))')" \
    python manage.py collectstatic --noinput \
    && chown -R turnpost:turnpost /app/staticfiles
USER turnpost
EXPOSE 8000
# Only the reverse proxy may say a request came over https: set FORWARDED_ALLOW_IPS to its
# address (and NUM_PROXIES to how many proxies append to X-Forwarded-For).
ENV FORWARDED_ALLOW_IPS=127.0.0.1 NUM_PROXIES=0
CMD ["gunicorn", "-c", "config/gunicorn.py"]
