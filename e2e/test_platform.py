"""The built site as a browser gets it: loading, the engine worker, offline, sub-paths.

Every test runs against dist/ served on 127.0.0.1 under the site's Content-Security-Policy;
the ``page`` fixture fails a test on any console error, uncaught error or foreign request.
"""

from __future__ import annotations

import io
import json
import urllib.parse
import urllib.request
import zipfile

import pytest
from pagehelpers import (
    HUMAN,
    IDLE,
    MENU,
    SIDE_ACTIONS,
    app_url,
    bot_seat,
    import_match,
    own_page,
    play_out,
    record_near_the_end,
    side_action_ids,
)

import engine

COLD_START = True
SHARED_PAGE = True
"""A first visit in every test: the service worker, micropip, requests made (see conftest's
``page``). The tests of the site at its root share one first visit (``first_visit``), and
the last of them takes it offline; the others have a first visit of their own (``own_page``)."""


def wait_for_service_worker(page) -> dict:
    """Wait until the service worker is active (its precache is complete); its details."""
    return page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        const names = await caches.keys();
        return {scope: registration.scope, script: registration.active.scriptURL, caches: names};
    }""")


def build_info(site: str) -> dict:
    with urllib.request.urlopen(site + "build-info.json", timeout=10) as response:
        return json.load(response)


def record_requests(page) -> list[str]:
    seen: list[str] = []
    page.context.on("request", lambda request: seen.append(request.url))
    return seen


def record_runtime_responses(page) -> list[dict[str, str]]:
    """The context's responses for the runtime's WebAssembly (the engine worker's, the
    service worker's): what was asked (``if-none-match``) and answered (``content-length``,
    which this server sends with a body only: a 304 has none). Chromium reports a
    revalidated response as the cached 200 it stands for, so its headers tell the 304."""
    seen: list[dict[str, str]] = []

    def note(response) -> None:
        if response.url.endswith("/pyodide/pyodide.asm.wasm"):
            asked = response.request.all_headers()
            answered = response.all_headers()
            seen.append(
                {
                    "if-none-match": asked.get("if-none-match", ""),
                    "etag": answered.get("etag", ""),
                    "content-length": answered.get("content-length", ""),
                }
            )

    page.context.on("response", note)
    return seen


def record_failures(page) -> list[str]:
    failed: list[str] = []
    page.context.on(
        "response",
        lambda response: (
            failed.append(f"{response.status} {response.url}") if response.status >= 400 else None
        ),
    )
    page.context.on(
        "requestfailed", lambda request: failed.append(f"failed {request.url}: {request.failure}")
    )
    return failed


@pytest.fixture
def first_visit(page, site, open_app) -> dict:
    """The module's shared first visit to the site, made by the first test that asks for it:
    the app opened in a fresh browser context and its service worker installed, with every
    request the context made (the service worker's too), every failed one, and the responses
    for the runtime's WebAssembly (``record_runtime_responses``)."""
    if not hasattr(page, "first_visit"):
        requests = record_requests(page)
        runtime = record_runtime_responses(page)
        failures = record_failures(page)
        open_app(page, site)
        worker = wait_for_service_worker(page)
        page.first_visit = {
            "requests": requests,
            "runtime": runtime,
            "failures": failures,
            "worker": worker,
        }
    return page.first_visit


def test_page_loads_and_shows_every_game(page, first_visit):
    shown = page.locator(MENU).evaluate_all("nodes => nodes.map(n => n.dataset.game)")
    assert set(shown) == set(engine.GAMES), "the menu should list exactly the engine's games"
    assert not page.locator("[data-testid=loading]").is_visible()
    assert first_visit["failures"] == []


def test_engine_is_installed_from_the_wheel_with_our_micropip(site, first_visit):
    info = build_info(site)
    paths = {urllib.parse.urlsplit(url).path for url in first_visit["requests"]}
    assert f"/wheels/{info['engine_wheel']}" in paths
    assert f"/wheels/{info['micropip_wheel']}" in paths
    assert "/build-info.json" in paths
    assert "/pyodide/pyodide.asm.wasm" in paths
    pyodide_files = {p.rsplit("/", 1)[-1] for p in paths if p.startswith("/pyodide/")}
    assert pyodide_files <= {
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    }


def test_service_worker_caches_this_build(site, first_visit):
    worker = first_visit["worker"]
    assert worker["scope"] == site
    assert worker["script"] == site + "sw.js"
    assert f"parlour-{build_info(site)['build_id']}" in worker["caches"]


def test_the_precache_does_not_download_the_runtime_again(site, first_visit):
    """The service worker's precache asks the server about each file the HTTP cache holds
    (cache: "no-cache"): what the first visit has just downloaded, such as the runtime's
    WebAssembly that the engine worker fetched, comes back without a body (304) instead of
    being sent a second time."""
    fetched, precached = first_visit["runtime"]
    assert fetched["if-none-match"] == "" and int(fetched["content-length"]) > 1_000_000
    assert precached["if-none-match"] == fetched["etag"] != ""
    assert precached["content-length"] == "", "the precache was sent the runtime again"


def test_no_request_leaves_the_machine(site, first_visit):
    origin = site.rstrip("/")
    foreign = [
        url
        for url in first_visit["requests"]
        if urllib.parse.urlsplit(url).scheme in ("http", "https", "ws", "wss")
        and not url.startswith(origin + "/")
    ]
    assert foreign == []


def test_the_page_can_be_installed(page, site, first_visit):
    """A linked web app manifest with our own icons, PNG ones of 192 and 512 pixels."""
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest_url = urllib.parse.urljoin(site, href)
    with urllib.request.urlopen(manifest_url, timeout=10) as response:
        assert response.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(response)
    assert manifest["name"] and manifest["short_name"] and manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    sizes = set()
    for icon in manifest["icons"]:
        url = urllib.parse.urljoin(manifest_url, icon["src"])
        assert url.startswith(site), "icons are our own files"
        with urllib.request.urlopen(url, timeout=10) as response:
            data = response.read()
            assert response.headers["Content-Type"] == icon["type"]
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert icon["sizes"] == f"{width}x{height}"
            sizes.add((width, icon.get("purpose", "any")))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    # The service worker caches them, so an installed page works offline.
    precached = page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const names = await caches.keys();
        const cache = await caches.open(names.find((n) => n.startsWith("parlour-")));
        return (await cache.keys()).map((r) => r.url);
    }""")
    assert manifest_url in precached and site + "icons/icon-512.png" in precached


def test_offline_reload_shows_the_menu_again(page, site, first_visit):
    """The shared first visit's last test: it takes the page offline and reloads it."""
    page.context.set_offline(True)
    try:
        page.reload()
        page.locator(MENU).first.wait_for(state="visible")
        # Query strings and fragments are served from the cached index.html as well.
        page.goto(app_url(site, "?speed=0&offline=1#menu"))
        page.locator(MENU).first.wait_for(state="visible")
    finally:
        page.context.set_offline(False)


CRISPS_SEATS = [HUMAN, bot_seat("normal")]


def finish_a_crisps_match(page) -> None:
    """From the menu: start Crisps, make a move, then open a saved match in its last round
    from a file and click side-panel actions until the match is over."""
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)
    ids = side_action_ids(page)
    page.click(f"{SIDE_ACTIONS}[data-action='{next((a for a in ids if a != 'pass'), ids[0])}']")
    page.wait_for_selector(IDLE)
    page.click("[data-testid=menu-button]")
    import_match(page, record_near_the_end("crisps", 2, {}, steps_left=20), CRISPS_SEATS)
    play_out(page, lambda ids: next((a for a in ids if a != "pass"), ids[0]), max_moves=500)
    page.locator("[data-testid=match-over]").wait_for()


@own_page
def test_site_works_under_a_sub_path_online_then_offline(page, site_subpath, open_app):
    """Served under /parlour/ only, online and then (after a reload with no network) from the
    service worker's cache: the engine plays a match to its end each time, every URL is
    relative to the page and nothing fails."""
    requests = record_requests(page)
    failures = record_failures(page)
    open_app(page, site_subpath)
    worker = wait_for_service_worker(page)
    assert worker["scope"] == site_subpath
    finish_a_crisps_match(page)
    page.context.set_offline(True)
    try:
        page.reload()
        page.locator(MENU).first.wait_for(state="visible")
        finish_a_crisps_match(page)
    finally:
        page.context.set_offline(False)
    outside = [
        url
        for url in requests
        if not urllib.parse.urlsplit(url).path.startswith("/parlour/")
        and urllib.parse.urlsplit(url).scheme in ("http", "https")
    ]
    assert outside == [], "every URL must be relative to the page"
    assert failures == []


# ----- js/engine-client.js and worker.js, through a harness page -------------------------


def run_harness(page, base: str) -> dict:
    page.goto(base + "__harness__/client.html")
    page.locator("body[data-done]").wait_for(state="attached")
    return json.loads(page.locator("#out").text_content())


@own_page
def test_engine_client_answers_requests(page, serve_with):
    base = serve_with({})
    out = run_harness(page, base)
    assert "failure" not in out, out.get("failure")
    stages = [p["stage"] for p in out["progress"]]
    assert stages[0] == "runtime" and stages[-1] == "ready" and "engine" in stages
    fractions = [p["fraction"] for p in out["progress"]]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] == 1
    assert all(isinstance(p["message"], str) and p["message"] for p in out["progress"])
    assert out["info"] == {
        "build_id": build_info(base)["build_id"],
        "pyodide_version": build_info(base)["pyodide_version"],
    }
    assert [g["id"] for g in out["games"]["games"]] == list(engine.GAMES)
    assert out["start"]["game"] == "crisps"
    assert out["illegal"]["error"]["code"] == "illegal_action"
    assert out["unknown"]["error"]["code"] == "unknown_method"
    assert out["notJson"]["error"]["code"] == "bad_request"
    assert out["together"] == [
        sorted(out["start"]),
        ["legal", "reason"],
        ["practice", "record", "seats"],
        ["games", "levels"],
    ]
    assert out["afterTerminate"] == "The game engine was stopped"
    assert out["crashCallbackOnTerminate"] is None


def expect_problems(page, *fragments: str) -> None:
    """Remove the errors a test provoked on purpose; fail if one did not happen."""
    problems = page.problems
    for fragment in fragments:
        found = False
        for bucket in (problems.console_errors, problems.page_errors, problems.failed_responses):
            hits = [m for m in bucket if fragment in m]
            for hit in hits:
                bucket.remove(hit)
            found = found or bool(hits)
        assert found, f"expected a problem mentioning {fragment!r}: {problems.all()}"


@own_page
def test_a_missing_engine_wheel_fails_start_up_readably(page, serve_with, dist):
    info = json.loads((dist / "build-info.json").read_text())
    base = serve_with(
        {
            "build-info.json": json.dumps(
                {
                    "build_id": "x",
                    "engine_wheel": "missing-0-py3-none-any.whl",
                    "micropip_wheel": info["micropip_wheel"],
                    "pyodide_version": "314.0.7",
                }
            )
        }
    )
    out = run_harness(page, base)
    assert out["failure"] == (
        "The game engine could not start: could not download the engine (HTTP 404)"
    )
    expect_problems(page, "missing-0-py3-none-any.whl", "Parlour engine failed to load")


@own_page
def test_a_broken_engine_fails_start_up_readably(page, serve_with, dist):
    # A wheel whose engine cannot be imported: the Python error's last line is shown.
    # (The real wheel's metadata, so that micropip installs it.)
    info = json.loads((dist / "build-info.json").read_text())
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(dist / "wheels" / info["engine_wheel"]) as real,
        zipfile.ZipFile(buffer, "w") as wheel,
    ):
        for name in real.namelist():
            if ".dist-info/" in name:
                wheel.writestr(name, real.read(name))
        wheel.writestr("engine/__init__.py", "raise RuntimeError('the engine is broken')\n")
        wheel.writestr("engine/bridge/__init__.py", "")
    base = serve_with({f"wheels/{info['engine_wheel']}": buffer.getvalue()})
    out = run_harness(page, base)
    assert out["failure"] == ("The game engine could not start: RuntimeError: the engine is broken")
    expect_problems(page, "Parlour engine failed to load")


@own_page
def test_a_worker_that_dies_rejects_start_up(page, serve_with):
    base = serve_with({"worker.js": "throw new Error('worker exploded');\n"})
    out = run_harness(page, base)
    assert out["failure"].startswith("The game engine stopped:")
    assert "worker exploded" in out["failure"]
