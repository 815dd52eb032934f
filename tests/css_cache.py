"""Every Pilot test starts an app, and every app parses the same CSS again: about 20 sources
(each widget class's DEFAULT_CSS and attn-tui's own): tests/tui/test_workbench.py took
10.3 s of CPU, 9.6 s with this cache. Textual caches parsed rules per Stylesheet, so per app.

What a source parses to depends only on its text, where it was read from, its scope and
ordering, and the theme's variables; Textual reads a RuleSet and never changes it once parsed.
So the suite keeps one cache for every app a test process starts, keyed on all of those.
tests/tui/test_textual_compat.py checks that the method replaced still takes what it did.
"""

from __future__ import annotations

from typing import Any

from textual.css.stylesheet import Stylesheet

TEXTUALS_PARSE_RULES = Stylesheet._parse_rules
_RULES: dict[tuple, list] = {}


def _variables_key(sheet: Stylesheet) -> tuple:
    # Stylesheet.set_variables assigns a new dict, so the one the key was made from tells
    # whether the key still holds
    variables = sheet._variables
    kept = sheet.__dict__.get("_suite_variables_key")
    if kept is None or kept[0] is not variables:
        kept = (variables, tuple(sorted(variables.items())))
        sheet.__dict__["_suite_variables_key"] = kept
    return kept[1]


def _parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                 tie_breaker: int = 0, scope: str = "") -> list:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self))
    rules = _RULES.get(key)
    if rules is None:  # a source that raises is not kept: the next app raises it again
        rules = TEXTUALS_PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _RULES[key] = rules
    return rules


def share_parsed_css() -> None:
    Stylesheet._parse_rules = _parse_rules
