"""The browser tests' budget for searches (web/js/app/test-budget.js) never reaches the
product: without the budget a test's init script sets, every request goes to the engine as
it was asked (a hint or an analysis at the bridge's default budget), and nothing in the page
sets it; with it, only a search that asked for no budget gets one."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.node_script import run_script

WEB = Path(__file__).resolve().parent.parent / "web"
HOOK = WEB / "js" / "app" / "test-budget.js"

SCRIPT = """
import { withTestBudget } from %s;
const out = [];
for (const [method, params, budget] of JSON.parse(process.argv[1])) {
  const sent = budget === "unset"
    ? withTestBudget(method, params)
    : withTestBudget(method, params, budget);
  out.push({ sent, same: sent === params });
}
console.log(JSON.stringify(out));
"""


def sent(cases: list[list]) -> list[dict]:
    return run_script(HOOK, SCRIPT, json.dumps(cases))


def test_without_a_test_budget_every_request_is_sent_as_asked() -> None:
    cases = [
        ["hint", {}, "unset"],
        ["analyse", {"step": 3}, "unset"],
        ["analyse", {}, None],
        ["hint", {}, 0],
        ["hint", {}, 2.5],
        ["hint", {}, "40"],
    ]
    for case, out in zip(cases, sent(cases), strict=True):
        assert out == {"sent": case[1], "same": True}, case


def test_a_test_budget_reaches_only_the_searches_that_asked_for_none() -> None:
    cases = [
        ["hint", {}, 60],
        ["analyse", {"step": 3, "record": {"game": "crisps"}}, 60],
        ["analyse", {"iterations": 650}, 60],
        ["bot_move", {"save": True}, 60],
        ["act", {"action": "pass"}, 60],
    ]
    out = sent(cases)
    assert out[0] == {"sent": {"iterations": 60}, "same": False}
    assert out[1] == {
        "sent": {"step": 3, "record": {"game": "crisps"}, "iterations": 60},
        "same": False,
    }
    for case, got in zip(cases[2:], out[2:], strict=True):
        assert got == {"sent": case[1], "same": True}, case


def test_nothing_in_the_page_sets_the_test_budget() -> None:
    setters = [
        path.relative_to(WEB).as_posix()
        for path in sorted(WEB.rglob("*"))
        if path.suffix in (".js", ".mjs", ".html")
        and re.search(r"__parlourTestBudget\s*=(?!=)", path.read_text(encoding="utf-8"))
    ]
    assert setters == []
    readers = [
        path.relative_to(WEB).as_posix()
        for path in sorted(WEB.rglob("*.js"))
        if "__parlourTestBudget" in path.read_text(encoding="utf-8")
    ]
    assert readers == ["js/app/test-budget.js"]
