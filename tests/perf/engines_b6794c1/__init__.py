"""The engines as the first wave left them (main at b6794c1), frozen as the yardstick for the
engine speed ratios of `make bench` (tests/perf/engine_ratios.py): the same files, only the
imports of `games.engines.base` made relative. Never edited, never imported by the product."""
