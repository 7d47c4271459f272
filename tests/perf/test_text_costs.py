"""What the log's texts cost: rendering a stored key+params text in Persian against rendering it
in English (side by side, same texts), and the bytes a log entry keeps as English sentences
against as compact keys. Skipped unless pytest runs with --benchmark-enable (`make bench`)."""

from __future__ import annotations

import json
import time

import pytest

from games.engines.registry import get_engine
from games.engines.texts import render
from games.presentation.texts import number_format, translations_for
from tests.engines.test_texts import random_texts
from tests.perf.cost_table import record
from tests.perf.engine_play import BENCHMARKS_ONLY

pytestmark = BENCHMARKS_ONLY


def _compact(message) -> int:
    return len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())


@pytest.mark.parametrize("slug", ["stone_age", "seven_wonders", "caverna"])
def test_render_cost_and_log_bytes(benchmark, slug):
    catalog = get_engine(slug).text_catalog
    pairs = list(random_texts(slug))
    persian, digits = translations_for(slug, "fa"), number_format("fa")

    def english_all():
        for message, _ in pairs:
            render(catalog, message)

    def persian_all():
        for message, _ in pairs:
            render(catalog, message, persian, number=digits)

    timings = {}
    for name, run in (("en", english_all), ("fa", persian_all)) * 3:
        start = time.perf_counter()
        run()
        timings[name] = min(timings.get(name, 1e9), time.perf_counter() - start)
    benchmark(persian_all)
    per_text = timings["fa"] / len(pairs) * 1e6
    record(f"{slug} text render fa", per_text, "µs/text",
           note=f"{timings['fa'] / timings['en']:.2f}× English, {len(pairs)} texts")
    english_bytes = sum(len(sentence.encode()) for _, sentence in pairs) / len(pairs)
    key_bytes = sum(_compact(message) for message, _ in pairs) / len(pairs)
    record(f"{slug} log text bytes", key_bytes, "B/text",
           note=f"English sentence {english_bytes:.0f} B/text")
