"""Forms of the web UI. Options are rendered per engine from each engine's option description."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.templatetags.language_tags import localized_digits
from games.engines.registry import all_engines
from games.presentation.texts import options_in
from games.presentation.titles import engine_name

TIME_PER_MOVE_CHOICES = [
    (3600, _("1 hour")),
    (6 * 3600, _("6 hours")),
    (12 * 3600, _("12 hours")),
    (86400, _("1 day")),
    (2 * 86400, _("2 days")),
    (3 * 86400, _("3 days")),
    (7 * 86400, _("7 days")),
    (14 * 86400, _("14 days")),
]


def option_field_name(engine_slug: str, option_name: str) -> str:
    return f"option__{engine_slug}__{option_name}"


class GameCreateForm(forms.Form):
    engine = forms.ChoiceField(label=_("Game"))
    num_players = forms.IntegerField(label=_("Players"), min_value=1, max_value=7, initial=3)
    time_per_move = forms.TypedChoiceField(
        label=_("Time per move"), choices=TIME_PER_MOVE_CHOICES, coerce=int, initial=86400
    )
    reserve = forms.TypedChoiceField(
        label=_("Reserve (extra time bank)"), coerce=int, initial=0,
        choices=[(0, _("None")), (86400, _("1 day")), (2 * 86400, _("2 days")),
                 (3 * 86400, _("3 days")), (7 * 86400, _("7 days"))],
    )
    max_consecutive_timeouts = forms.IntegerField(
        label=_("A bot takes over after this many timeouts in a row"), min_value=1, max_value=10,
        initial=3,
    )
    allow_spectators = forms.BooleanField(
        label=_("Others may watch"), required=False, initial=True,
        help_text=_("Untick for a private game: only invited players and holders of its invite "
                  "link can see and join it."))
    name = forms.CharField(label=_("Game name (optional)"), max_length=80, required=False)
    rated = forms.BooleanField(
        label=_("Rated"), required=False, initial=True,
        help_text=_("Changes the ratings of its players when it ends, if two or more of them "
                    "are people: a game against bots alone is never rated."))
    start_when_full = forms.BooleanField(
        label=_("Start by itself when every seat is taken"), required=False, initial=False)
    min_reliability = forms.IntegerField(
        label=_("Players must have met at least this % of their deadlines (optional)"),
        required=False, min_value=1, max_value=100)
    min_rating = forms.FloatField(label=_("Minimum rating at this game (optional)"),
                                  required=False, min_value=-100, max_value=100)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        engines = all_engines()
        self.fields["engine"].choices = [
            (engine.slug, gettext("%(game)s (%(low)s–%(high)s players)") % {
                "game": engine_name(engine.slug), "low": localized_digits(engine.min_players),
                "high": localized_digits(engine.max_players)})
            for engine in engines
        ]
        self.option_groups = []
        for engine in engines:
            names = []
            for option in options_in(engine.slug, engine.options):
                name = option_field_name(engine.slug, option["name"])
                self.fields[name] = self._option_field(option)
                names.append(name)
            self.option_groups.append((engine, names))

    @staticmethod
    def _option_field(option: dict) -> forms.Field:
        label, help_text = option.get("label", option["name"]), option.get("help", "")
        if option["kind"] == "bool":
            return forms.BooleanField(
                label=label, help_text=help_text, required=False, initial=option["default"]
            )
        if option["kind"] == "int":
            return forms.IntegerField(
                label=label, help_text=help_text, required=False, initial=option["default"],
                min_value=option.get("min"), max_value=option.get("max"),
            )
        return forms.TypedChoiceField(
            label=label, help_text=help_text, required=False, initial=option["default"],
            choices=[(choice, option.get("choice_labels", {}).get(
                choice, str(choice).replace("_", " ").capitalize()))
                     for choice in option["choices"]],
            coerce=lambda value, choices=option["choices"]: next(
                (choice for choice in choices if str(choice) == str(value)), value
            ),
        )

    def chosen_options(self) -> dict:
        slug = self.cleaned_data["engine"]
        engine = next(engine for engine in all_engines() if engine.slug == slug)
        options = {}
        for option in engine.options:
            value = self.cleaned_data.get(option_field_name(slug, option["name"]))
            if value not in (None, ""):
                options[option["name"]] = value
            elif option["kind"] == "bool":
                options[option["name"]] = False
        return options

    def chosen_terms(self) -> dict:
        """Name, rated, start when full and the join requirements, for game_create."""
        return {name: self.cleaned_data[name] for name in
                ("name", "rated", "start_when_full", "min_reliability", "min_rating")}

    def chosen_reserve(self) -> timedelta:
        return timedelta(seconds=self.cleaned_data["reserve"])

    def chosen_time_per_move(self) -> timedelta:
        return timedelta(seconds=self.cleaned_data["time_per_move"])
