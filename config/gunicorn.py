"""gunicorn settings for the production image (`gunicorn -c config/gunicorn.py`).

gunicorn believes X-Forwarded-Proto (and so serves the request as https) only from the
addresses in FORWARDED_ALLOW_IPS: the reverse proxy in front, 127.0.0.1 unless set. Django
takes the scheme from gunicorn (no SECURE_PROXY_SSL_HEADER), so a client that reaches gunicorn
directly cannot claim https, and the client address for rate limits is REMOTE_ADDR or, behind
NUM_PROXIES proxies, what they appended to X-Forwarded-For (see config/settings.py).

GUNICORN_WORKER_CLASS picks the server: `uvicorn` (the default) serves everything, event
streams included, under ASGI; `gthread` serves the WSGI application with GUNICORN_THREADS
threads a worker, for processes that get every path but the event streams from the proxy
(Django's ASGI handler costs about 1.5 ms more CPU a request: docs/scaling.md).
"""

import os

WORKER_CLASSES = {
    # ASGI under uvicorn workers: the event streams stay open for hours, each costing a
    # coroutine, not a thread; ordinary views run in threads as under WSGI.
    "uvicorn": ("uvicorn_worker.UvicornWorker", "config.asgi:application"),
    # WSGI in threads: cheaper a request, but an open event stream would hold a thread.
    "gthread": ("gthread", "config.wsgi:application"),
}
_kind = os.environ.get("GUNICORN_WORKER_CLASS", "uvicorn")
if _kind not in WORKER_CLASSES:
    raise SystemExit(f"GUNICORN_WORKER_CLASS must be one of {', '.join(WORKER_CLASSES)}, "
                     f"not {_kind!r}")
worker_class, wsgi_app = WORKER_CLASSES[_kind]
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# Open streams are closed at a restart; clients reconnect with Last-Event-ID.
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "10"))
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
accesslog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
