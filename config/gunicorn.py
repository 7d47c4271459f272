"""gunicorn settings for the production image (`gunicorn -c config/gunicorn.py`).

gunicorn believes X-Forwarded-Proto (and so serves the request as https) only from the
addresses in FORWARDED_ALLOW_IPS: the reverse proxy in front, 127.0.0.1 unless set. Django
takes the scheme from gunicorn (no SECURE_PROXY_SSL_HEADER), so a client that reaches gunicorn
directly cannot claim https, and the client address for rate limits is REMOTE_ADDR or, behind
NUM_PROXIES proxies, what they appended to X-Forwarded-For (see config/settings.py).
"""

import os

# ASGI under uvicorn workers: the event streams stay open for hours, each costing a coroutine,
# not a thread; ordinary views run in threads as under WSGI.
wsgi_app = "config.asgi:application"
worker_class = "uvicorn_worker.UvicornWorker"
# Open streams are closed at a restart; clients reconnect with Last-Event-ID.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "10"))
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
