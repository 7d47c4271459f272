"""What every settings module reads first: the environment (and a .env file beside manage.py),
the folder the service keeps its own files in, whether it runs in development, and Redis."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.bool("DJANGO_DEBUG", default=True)
#: Redis, for the cache, the Celery broker and live events; empty: the embedded defaults.
REDIS_URL = env.str("REDIS_URL", default="")
