"""Settings of the Celery workers and beat: the broker (Redis, or the filesystem under DATA_DIR),
queues, time limits, the search bot's budget and the beat's schedule. Imported by
config/settings.py."""

from datetime import timedelta

from celery.schedules import crontab

from config.environment import DATA_DIR, REDIS_URL, env

# ---- Celery ------------------------------------------------------------------------------------
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "socket_connect_timeout": 2}
else:
    _broker_dir = DATA_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    # kombu's filesystem transport, writing each message whole (config/filesystem_broker.py).
    CELERY_BROKER_URL = "atomicfs://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # Seconds between looks into the queue folder when it is empty (kombu's default is 1):
        # a worker picks up a move's follow-up within about this long.
        "polling_interval": env.float("FILESYSTEM_BROKER_POLL_SECONDS", default=0.05),
    }
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
#: Sending email has its own queue and worker, so a slow or hung mail server never delays
#: game work (resolutions, bot moves, deadlines) on the default queue.
CELERY_MAIL_QUEUE = env.str("CELERY_MAIL_QUEUE", default="mail")
CELERY_TASK_ROUTES = {"notifications.tasks.*": {"queue": CELERY_MAIL_QUEUE}}
#: Every task is stopped after these many seconds (soft: an exception the task may handle;
#: hard: the worker process is replaced). Mail tasks set tighter limits of their own.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
#: Queuing a task gives up quickly when the broker is down (the beat safety nets recover).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.2, "interval_max": 0.5}
CELERY_TASK_IGNORE_RESULT = True
# With no results kept, one (disabled) result backend serves every thread: otherwise Celery
# makes one per thread, and under the ASGI server each request has a thread of its own.
CELERY_RESULT_BACKEND_THREAD_SAFE = True
#: The search bot (bot seats at level "search", the default): play-outs per decision (unset:
#: each engine's measured budget, its search adapter's `rollouts`; set: that count for every
#: engine), and the wall seconds a decision's search may take: with the task's pickup, reading
#: and commit a reply shows within about 1.5 s (tests/perf/bot_latency.py). Only the longest
#: decisions, or a busy machine, reach it.
BOT_SEARCH_ROLLOUTS = env.int("BOT_SEARCH_ROLLOUTS", default=None)
BOT_SEARCH_MAX_SECONDS = env.float("BOT_SEARCH_MAX_SECONDS", default=1.0)
#: The hard bot (level "hard"): play-outs per decision (unset: each engine's, its adapter's
#: `hard_rollouts`, over `hard_width` candidates), and the wall seconds a decision may think (so
#: at most as many CPU seconds: the search is single-threaded).
BOT_HARD_ROLLOUTS = env.int("BOT_HARD_ROLLOUTS", default=None)
BOT_HARD_MAX_SECONDS = env.float("BOT_HARD_MAX_SECONDS", default=2.0)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
#: Beat: (entry name, task, how often). Most are safety nets: their work is normally enqueued
#: on commit, and these find what was lost (broker down at commit) or is waiting for a retry.
_MINUTE = timedelta(minutes=1)
CELERY_BEAT_SCHEDULE = {name: {"task": task, "schedule": schedule} for name, task, schedule in [
    ("resolve-pending-games", "games.tasks.resolve_pending_games", _MINUTE),
    # Fans the due games out to the workers; every 30 s so a seat is timed out well within a
    # minute of its deadline even when a big sweep takes its batches' few seconds.
    ("sweep-deadlines", "games.tasks.sweep_deadlines",
     timedelta(seconds=env.int("DEADLINE_SWEEP_SECONDS", default=30))),
    ("play-pending-bot-moves", "games.tasks.play_pending_bot_moves", _MINUTE),
    ("deliver-pending-notifications", "notifications.tasks.deliver_pending_notifications",
     _MINUTE),
    ("send-digests", "notifications.tasks.send_digests", timedelta(minutes=10)),
    ("nightly-idempotency-cleanup", "games.tasks.purge_idempotency_records",
     crontab(hour=4, minute=17)),
    ("nightly-notification-pruning", "notifications.tasks.prune_delivered_notifications",
     crontab(hour=4, minute=37)),
    ("apply-pending-ratings", "games.tasks.apply_pending_ratings", _MINUTE),
    # Play by email: answers whose delivery task was lost or is waiting for a retry.
    ("deliver-pending-email-replies", "notifications.tasks.deliver_pending_email_replies",
     _MINUTE),
    ("deliver-pending-webhooks", "notifications.tasks.deliver_pending_webhooks", _MINUTE),
    ("deliver-pending-pushes", "notifications.tasks.deliver_pending_pushes", _MINUTE),
    ("send-push-digests", "notifications.tasks.send_push_digests", timedelta(minutes=5)),
]}
#: Days a delivered notification (email and push done) stays in the in-app list before the
#: nightly task deletes it; the action log keeps the game's story for good.
NOTIFICATION_RETENTION_DAYS = env.int("NOTIFICATION_RETENTION_DAYS", default=30)
