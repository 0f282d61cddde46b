"""The set-up screen shows what the arena measured of each level (the ladder table, shipped
in js/catalog.js), and nothing where no logged run exists.

The tests share one page (``SHARED_PAGE``): the engine starts once for the module.
"""

from __future__ import annotations

from pagehelpers import MENU

from engine import bots
from engine.bots import arena as ladder

SHARED_PAGE = True


def test_setup_shows_a_levels_measured_figure_and_none_without_one(page, site, open_app):
    figures = ladder.figures(ladder.read_table())
    crisps = {f["level"]: f for f in figures if f["game"] == "crisps" and f["players"] == 2}
    hard = crisps["hard"]
    unmeasured = [level for level in bots.LEVELS if level not in crisps]
    assert unmeasured

    open_app(page, site)
    page.click(f"{MENU}[data-game=crisps]")
    page.locator("[data-testid=setup]").wait_for(state="visible")
    shown = page.locator("[data-testid=ladder] li[data-level=hard]")
    assert shown.count() == 1
    text = shown.inner_text()
    assert f"Hard: wins {round(hard['win_rate'] * 100)}% against Normal" in text
    assert f"({hard['matches']} matches, 95% interval {round(hard['ci'][0] * 100)}%" in text
    for level in unmeasured:
        assert page.locator(f"[data-testid=ladder] li[data-level={level}]").count() == 0

    # Roundup at three players: no logged run, so no figures at all.
    assert not [f for f in figures if f["game"] == "roundup" and f["players"] == 3]
    page.click("[data-testid=back]")
    page.click(f"{MENU}[data-game=roundup]")
    page.select_option("[data-testid=players]", "3")
    page.locator("[data-testid=setup]").wait_for(state="visible")
    assert page.locator("[data-testid=ladder]").count() == 0
