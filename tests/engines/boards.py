"""Renders a game's phone board template with Django's template engine alone, with the context
the game page gives it, so engine tests check boards without the web stack (also under
`-p no:django`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The names the page would give seats 0–6.
PLAYER_NAMES = {number: f"Player{number}" for number in range(7)}
TEMPLATE_DIRS = [str(Path(__file__).resolve().parents[2] / "templates")]


def render_board(slug: str, view: dict[str, Any], *, seat: int | None = None,
                 legal_actions: list | tuple = ()) -> str:
    import django
    from django.apps import apps
    from django.conf import settings

    # Rendering localises numbers, which needs the app registry: pytest-django sets it up in
    # the full suite; a bare engine run sets it up here.
    if not settings.configured:
        settings.configure(STATIC_URL="/static/")
    if not apps.ready:
        django.setup()
    from django.template import Context, Engine

    from games.presentation.texts import view_texts

    engine = Engine(dirs=TEMPLATE_DIRS,
                    libraries={"game_tags": "games.templatetags.game_tags",
                               "i18n": "django.templatetags.i18n",
                               "static": "django.templatetags.static",
                               "drawing_tags": "games.templatetags.drawing_tags",
                               "language_tags": "accounts.templatetags.language_tags"})
    template = engine.get_template(f"games/boards/{slug}.html")
    # As the game page does: the view's texts read in the active language, players named.
    view = view_texts(slug, view, names=PLAYER_NAMES)
    return template.render(Context({"view": view, "seat": seat, "game": None,
                                    "legal_actions": list(legal_actions),
                                    "seat_names": PLAYER_NAMES}))


def played_until(engine, state: dict, done, *, choose=None, limit: int = 3000) -> dict:
    """`state` moved on by the bots (or `choose(state, seat, legal)` where it answers an
    action) and the system steps until `done(state)`, or `limit` steps: a board some way in."""
    for _ in range(limit):
        if done(state) or engine.is_over(state):
            break
        if engine.ready_to_resolve(state):
            state = engine.resolve(state)
            continue
        seat = engine.active_seats(state)[0]
        action = choose(state, seat, engine.legal_actions(state, seat)) if choose else None
        state = engine.apply(state, seat, action or engine.bot_action(state, seat))
    return state
