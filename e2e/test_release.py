"""A new release under an open tab, for real: build A is served and its service worker
installed, then build B (the same sources with every game screen changed, so their hashed
chunks have other names) is published in its place, as a static host replaces a whole site.
The tab opened on A keeps running A, online and offline (game screens it had not loaded
yet, the files of an engine restarted after a crash); its next load runs B, which resumes
the match A saved; and A's files are dropped once no page runs A.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pagehelpers import IDLE, MENU, app_url, click_side_action, read_save, settled_look

import build

COLD_START = True  # a first visit with its service worker; one page per test

CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('parlour-')).sort()"
ENGINE_BUILD = "async () => (await window.__parlourTest.engine()).build_id"
PAGE_BUILD = "async () => (await (await fetch('build-info.json')).json()).build_id"
NEW_RELEASE = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const changed = new Promise((resolve) =>
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  await registration.update();
  await changed;
  return registration.active.scriptURL;
}"""


@pytest.fixture(scope="module")
def release_b(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build B: web/ with a mark added to every game screen, built into a directory of its own."""
    root = tmp_path_factory.mktemp("release")
    source = root / "web"
    shutil.copytree(build.WEB, source)
    for module in (source / "js" / "games").glob("*.js"):
        module.write_text(module.read_text() + '\nexport const RELEASE_MARK = "B";\n')
    build.build(root / "dist", quiet=True, source=source)
    return root / "dist"


def chunks(site: Path) -> set[str]:
    return {p.name for p in (site / "js").glob("*.js")}


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def play_a_move(page) -> None:
    look = settled_look(page)
    assert look is not None and look["ids"], "the person can move"
    click_side_action(page, look["ids"][0], look["folded"])
    page.wait_for_selector(IDLE)


def start_and_move(page, game: str) -> None:
    page.click(f"[data-testid=menu] [data-game={game}]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    play_a_move(page)


def saved_actions(page) -> list[str]:
    return read_save(page)["data"]["record"]["actions"]


def test_a_tab_open_across_a_release_keeps_its_build_and_the_next_load_runs_the_new_one(
    page, dist, release_b, tmp_path, open_app
):
    a_id = json.loads((dist / "build-info.json").read_text())["build_id"]
    b_id = json.loads((release_b / "build-info.json").read_text())["build_id"]
    only_in_a = sorted(chunks(dist) - chunks(release_b))
    assert a_id != b_id and only_in_a, "build B is a different build, with other chunk names"

    served = tmp_path / "served"
    served.symlink_to(dist, target_is_directory=True)
    server, url = build.start_server([("/", served)])
    try:
        open_app(page, url, "?speed=0&test=1")  # test=1: the hook that kills the engine
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        assert page.evaluate(CACHES) == [f"parlour-{a_id}"]

        # Publish B in A's place and let its service worker take over.
        swap = tmp_path / "swap"
        swap.symlink_to(release_b, target_is_directory=True)
        os.replace(swap, served)
        assert status(url + "js/" + only_in_a[0]) == 404, "the host no longer has A's chunks"
        assert page.evaluate(NEW_RELEASE) == url + "sw.js"
        assert page.evaluate(CACHES) == sorted([f"parlour-{a_id}", f"parlour-{b_id}"])

        # The old tab still runs A: a game screen it had not loaded, online then offline.
        assert page.evaluate(PAGE_BUILD) == a_id
        start_and_move(page, "roundup")
        page.context.set_offline(True)
        try:
            page.click("[data-testid=menu-button]")
            start_and_move(page, "spite")
            # An engine restarted there (after a crash) is A's too, from A's cache.
            page.evaluate("() => window.__parlourTest.killWorker()")
            page.get_by_text("your match is exactly where it was").wait_for()
            assert page.evaluate(ENGINE_BUILD) == a_id
            play_a_move(page)
        finally:
            page.context.set_offline(False)
        saved_by_a = saved_actions(page)

        # Its next load runs B, which resumes the match A saved, online and offline.
        page.reload()
        page.locator("html[data-engine=ready]").wait_for(state="attached")
        assert page.evaluate(PAGE_BUILD) == b_id
        page.click("[data-testid=resume]")
        page.wait_for_selector(IDLE)
        assert saved_actions(page) == saved_by_a
        play_a_move(page)
        page.context.set_offline(True)
        try:
            page.goto(app_url(url, "?speed=0&offline=1"))
            page.locator(MENU).first.wait_for()
            page.locator("html[data-engine=ready]").wait_for(state="attached")
            assert page.evaluate(PAGE_BUILD) == b_id
            page.click("[data-testid=resume]")
            page.wait_for_selector(IDLE)
            play_a_move(page)
            # No page runs A any more: its files are dropped (after a page load).
            for _ in range(100):
                if page.evaluate(CACHES) == [f"parlour-{b_id}"]:
                    break
                page.wait_for_timeout(100)
        finally:
            page.context.set_offline(False)
        assert page.evaluate(CACHES) == [f"parlour-{b_id}"]
    finally:
        server.shutdown()
        server.server_close()
