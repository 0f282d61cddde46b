"""The page survives: Content-Security-Policy, a dead worker, tampered saves, bogus links,
a first visit without a network.

Every test runs under the site's Content-Security-Policy (a <meta> in index.html and the
same header from the test server); the ``page`` fixture fails a test on any violation.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

from pagehelpers import (
    IDLE,
    MEMORY_IMAGE_KEYS,
    MENU,
    SIDE_ACTIONS,
    app_url,
    cold_start,
    deal_next,
    hand_ids,
    read_save,
    resume_button,
    save_key,
    side_action_ids,
)

import build

# A Crisps deal whose first round outlasts the person's four first moves below.
STILL_PLAYING_SEED = 5


def start_crisps(page) -> None:
    page.click("[data-testid=menu] [data-game=crisps]")
    page.click("[data-testid=start]")
    page.wait_for_selector(IDLE)


def take_a_move(page) -> str:
    page.wait_for_selector(IDLE)
    ids = side_action_ids(page)
    choice = next((a for a in ids if a != "pass"), ids[0])
    page.click(f"{SIDE_ACTIONS}[data-action='{choice}']")
    page.wait_for_selector(IDLE)
    return choice


def table_state(page) -> dict:
    return {
        "hand": hand_ids(page),
        "actions": side_action_ids(page),
        "log": page.locator(".log-list li").evaluate_all("n => n.map(li => li.textContent)"),
        "record": read_save(page)["data"]["record"],
    }


def expect_problems(page, *fragments: str) -> None:
    """Remove the errors a test provoked on purpose; fail if one did not happen."""
    problems = page.problems
    for fragment in fragments:
        found = False
        for bucket in (
            problems.console_errors,
            problems.page_errors,
            problems.failed_responses,
            problems.csp_violations,
        ):
            hits = [m for m in bucket if fragment in m]
            for hit in hits:
                bucket.remove(hit)
            found = found or bool(hits)
        assert found, f"expected a problem mentioning {fragment!r}: {problems.all()}"


# ----- Content-Security-Policy ---------------------------------------------------------------


def meta_policy(page) -> str:
    return page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content")


def test_the_page_carries_its_policy_and_the_server_agrees(page, site, open_app):
    open_app(page, site)
    assert meta_policy(page) == build.CONTENT_SECURITY_POLICY
    with urllib.request.urlopen(site, timeout=10) as response:
        assert response.headers["Content-Security-Policy"] == build.CONTENT_SECURITY_POLICY
    policy = {d.split()[0]: d.split()[1:] for d in meta_policy(page).split("; ")}
    assert policy["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert policy["connect-src"] == ["'self'"] and policy["worker-src"] == ["'self'"]
    assert not any("'unsafe-inline'" in v or "'unsafe-eval'" in v for v in policy.values())
    # No inline script or handler anywhere in the page as served.
    html = urllib.request.urlopen(site, timeout=10).read().decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\son[a-z]+\s*=", html)
    assert "<style" not in html and " style=" not in html


def test_a_violation_fails_the_test(page, site, open_app):
    """The fixture's listener works: an inline script is refused and reported."""
    open_app(page, site)
    ran = page.evaluate("""() => new Promise((resolve) => {
        window.__inlineRan = false;
        const script = document.createElement("script");
        script.textContent = "window.__inlineRan = true";
        document.body.append(script);
        setTimeout(() => resolve(window.__inlineRan), 200);
    })""")
    assert ran is False
    page.wait_for_function("() => true")  # let the binding deliver the report
    expect_problems(page, "script-src")


def test_the_app_works_under_the_policy_from_the_meta_tag_alone(page, dist, open_app):
    """As on a static host that sends no headers: only the <meta> policy applies."""
    server, base = build.start_server([("/", dist)], csp=False)
    try:
        with urllib.request.urlopen(base, timeout=10) as response:
            assert "Content-Security-Policy" not in response.headers
        open_app(page, base, "?speed=0")
        start_crisps(page)
        take_a_move(page)
        page.click("[data-testid=rules]")
        page.locator("[data-testid=rules-page]").wait_for(state="visible")
    finally:
        server.shutdown()
        server.server_close()


# ----- a worker that dies or stops answering -----------------------------------------------


def test_a_worker_killed_mid_match_is_replaced_and_the_match_restored(page, site, open_app):
    open_app(page, site, "?speed=0&test=1")
    start_crisps(page)
    take_a_move(page)
    take_a_move(page)
    before = table_state(page)
    assert before["log"], "two moves should be in the log"
    # The moves' snapshots brought only their new log entries (engine-client.js).
    assert engine_start(page)["logs"]["partial"] >= 2

    page.evaluate("() => window.__parlourTest.killWorker()")
    page.get_by_text("your match is exactly where it was").wait_for(state="visible")
    page.wait_for_selector(IDLE)
    after = table_state(page)
    assert after == before
    take_a_move(page)  # the new engine plays on
    moved = table_state(page)
    assert len(moved["record"]["actions"]) > len(before["record"]["actions"])
    # The new engine held no log of the page's: the restored match came with its whole log,
    # the move after it with the new entries only, and the table reads the whole log still.
    logs = engine_start(page)["logs"]
    assert logs["whole"] >= 1 and logs["partial"] >= 1
    assert moved["log"][: len(before["log"])] == before["log"]
    assert len(moved["log"]) == len(moved["record"]["actions"])


def test_a_worker_killed_on_the_menu_is_replaced(page, site, open_app):
    open_app(page, site, "?speed=0&test=1")
    page.evaluate("() => window.__parlourTest.killWorker()")
    page.locator(MENU).first.wait_for(state="visible")
    assert "restarted" in page.locator("[data-testid=notice]").inner_text()
    start_crisps(page)


def test_a_silent_worker_is_detected_by_the_watchdog(page, serve_with, open_app, dist):
    """A worker that stops answering (here: it hangs in the middle of a request) is
    terminated by the client's watchdog and replaced; the match is restored."""
    worker = (dist / "worker.js").read_text()
    hook = (
        'self.addEventListener("message", (event) => {\n'
        '  if ((event.data || {}).method === "why") { const end = Date.now() + 1e9; '
        "while (Date.now() < end) {} }\n});\n"
    )
    base = serve_with({"worker.js": hook + worker})
    open_app(page, base, "?speed=0&test=1")
    start_crisps(page)
    take_a_move(page)
    before = table_state(page)
    # Ask the hung engine something with a 1.5 s watchdog, through the page's own client.
    message = page.evaluate("() => window.__parlourTest.call('why', {action: 'pass'}, 1500)")
    assert "stopped answering" in message
    page.get_by_text("your match is exactly where it was").wait_for(state="visible")
    page.wait_for_selector(IDLE)
    assert table_state(page) == before


# ----- saved data and links that are not what they should be ------------------------------


def test_a_tampered_save_is_set_aside(page, site, open_app):
    open_app(page, site)
    start_crisps(page)
    take_a_move(page)
    saved = read_save(page, "crisps")
    saved["data"]["record"]["actions"].insert(0, "play:ZZ")  # a move no deck has
    store = "([k, v]) => localStorage.setItem(k, v)"
    page.evaluate(store, [save_key("crisps"), json.dumps(saved)])
    open_app(page, site)
    page.click(resume_button("crisps"))
    notice = page.locator("[data-testid=notice]")
    notice.wait_for(state="visible")
    assert "set aside" in notice.inner_text()
    assert page.evaluate("() => localStorage.getItem('parlour.setaside.crisps')") is not None
    # A save for a game that does not exist (in its own slot, or in another game's), and
    # ones that are not even objects.
    poker = json.dumps({**saved, "game": "poker"})
    for key, value in (
        (save_key("poker"), poker),
        (save_key("crisps"), poker),
        *((save_key("crisps"), v) for v in ("[]", '"text"', "null")),
    ):
        page.evaluate(store, [key, value])
        open_app(page, site)
        assert page.locator("[data-testid=resume]").count() == 0, (key, value)
    start_crisps(page)  # and the page still works


def test_bogus_link_hashes_are_harmless(page, site, open_app):
    """Each fragment is one the page reads (a challenge's ``#game=..&seed=..``, a friend's
    ``#join=``) but broken, or one it ignores: the page says what is wrong with the first kind,
    nothing for the second, and the menu works after every one."""
    told = {
        "#game=crisps&seed=nope": "This challenge link cannot be used: the deal number",
        "#game=poker&seed=1": 'This challenge link cannot be used: there is no game called "poker"',
        "#seed=12": "This challenge link cannot be used: it does not say which game",
        "#game": "This challenge link cannot be used: it does not say which game",
        "#game=crisps&record=%7Bnope": "This challenge link cannot be used: it has no deal number",
    }
    ignored = ("#%%%", "#", "#" + "x" * 5000, "#share=abc")
    error = page.locator("[data-testid=error]")
    # The first arrives with the page (a new query: a real load), the rest as the address's
    # fragment changes (the page reads both ways alike).
    open_app(page, site, "?speed=0&n=links" + ignored[0])
    page.locator(MENU).first.wait_for(state="visible")
    for fragment in [*ignored[1:], *told]:
        # Resolves once the page has handled the change (its listeners run first).
        page.evaluate(
            """(h) => new Promise((done) => {
              window.addEventListener("hashchange", () => setTimeout(done, 0), { once: true });
              window.location.hash = h;
            })""",
            fragment,
        )
        if fragment in told:
            page.wait_for_function(
                "(t) => document.querySelector('[data-testid=error]')?.textContent.startsWith(t)",
                arg=told[fragment],
            )
        else:
            assert error.count() == 0, (fragment, error.all_inner_texts())
        page.locator(MENU).first.wait_for(state="visible")
    start_crisps(page)
    # A friend's invitation that is not one: the join screen says so.
    page.goto(app_url(site, "?speed=0&n=join#join=not-base64!!"))
    problem = page.locator("[data-testid=join-problem]")
    problem.wait_for()
    assert problem.inner_text().startswith("This invitation cannot be used:"), problem.inner_text()


# ----- a first visit without a network -------------------------------------------------------


@cold_start
def test_a_first_visit_without_a_network_says_it_needs_one(page, site):
    # The page itself arrived, but nothing else can be downloaded.
    page.route(
        re.compile(r".*/(pyodide|wheels)/.*"), lambda route: route.abort("internetdisconnected")
    )
    page.goto(app_url(site))
    page.locator("html[data-engine=failed]").wait_for(state="attached")
    error = page.locator("[data-testid=engine-status]")
    error.wait_for(state="visible")
    assert "needs a network connection once" in error.inner_text()
    assert not page.locator("[data-testid=loading]").is_visible()
    expect_problems(page, "Parlour engine failed to load")
    for bucket in (page.problems.console_errors,):
        bucket[:] = [
            m
            for m in bucket
            if "ERR_INTERNET_DISCONNECTED" not in m and "Failed to load resource" not in m
        ]


# ----- the start-up memory image (repeat visits) ------------------------------------------------


SPOIL_SNAPSHOT = """(buildId) => new Promise((resolve, reject) => {
    const open = indexedDB.open("parlour-runtime", 1);
    open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction("snapshots", "readwrite");
        tx.objectStore("snapshots").put(new Uint8Array(4096).fill(7), buildId);
        tx.oncomplete = () => { db.close(); resolve(true); };
        tx.onerror = () => reject(tx.error);
    };
})"""


def build_id(site: str) -> str:
    with urllib.request.urlopen(site + "build-info.json", timeout=10) as response:
        return json.load(response)["build_id"]


def wait_for_memory_image(page, site: str) -> list:
    """The memory images kept, once this build's is there (it is made in the background)."""
    wanted = build_id(site)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        kept = page.evaluate(MEMORY_IMAGE_KEYS)
        if any(key == wanted and size > 1e6 for key, size in kept):
            return kept
        page.wait_for_timeout(250)
    raise AssertionError(f"no start-up memory image for build {wanted}: {kept}")


def engine_start(page) -> dict:
    """How the page's engine started: build_id, pyodide_version, memoryImage (needs ?test=1)."""
    return page.evaluate("() => window.__parlourTest.engine()")


@cold_start
def test_memory_images_off_when_asked_then_kept_used_ignored_and_a_spoilt_one_replaced(
    page, site, open_app
):
    """One first visit's context (the costly start of an engine with nothing kept) for the
    memory image's whole life: turned off, made, used, ignored, spoilt and made again."""
    # With memory images turned off nothing is kept, and no memory-image maker starts.
    workers = []
    page.on("worker", lambda worker: workers.append(worker))
    open_app(page, site, "?speed=0&test=1&snapshot=0")
    assert page.evaluate("() => window.__parlourTest.memoryImage()") == {
        "stored": False,
        "reason": "memory images are off",
    }
    start_crisps(page)
    take_a_move(page)
    assert page.evaluate(MEMORY_IMAGE_KEYS) == []
    assert len(workers) == 1, "no memory-image maker was started"
    # A visit with nothing kept starts without a memory image; one is made afterwards, in the
    # background.
    open_app(page, site, "?speed=0&test=1", memory_image=True)
    assert engine_start(page)["memoryImage"] is False
    assert page.evaluate("() => window.__parlourTest.memoryImage()") == {
        "stored": True,
        "reason": "kept",
    }
    kept = wait_for_memory_image(page, site)
    assert [key for key, _ in kept] == [build_id(site)], "one memory image, for this build"
    # The next visit restores it, makes none of its own, and plays.
    open_app(page, site, "?speed=0&test=1&again=1", memory_image=True)
    assert engine_start(page)["memoryImage"] is True
    assert page.evaluate("() => window.__parlourTest.memoryImage()")["stored"] is False
    start_crisps(page)
    take_a_move(page)
    # ?snapshot=0 ignores the stored one (the service worker now serves the page and the
    # worker: the setting must reach the worker all the same).
    open_app(page, site, "?speed=0&test=1&snapshot=0")
    assert engine_start(page)["memoryImage"] is False
    start_crisps(page)
    take_a_move(page)
    # A spoilt memory image is noticed, thrown away and made again; the visit starts normally.
    page.evaluate(SPOIL_SNAPSHOT, build_id(site))
    warnings = []
    page.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    open_app(page, site, "?speed=0&test=1&again=2", memory_image=True)
    assert any("memory image did not work" in w for w in warnings), warnings
    assert engine_start(page)["memoryImage"] is False
    assert all(size > 1e6 for _, size in page.evaluate(MEMORY_IMAGE_KEYS)), "the spoilt one is gone"
    wait_for_memory_image(page, site)  # a good one is made again
    start_crisps(page)
    take_a_move(page)


@cold_start(service_workers="block")  # so that the test sees, and holds, the maker's requests
def test_a_match_started_at_once_is_not_disturbed_by_the_memory_image(page, site, open_app):
    """On a first visit the memory image for the next one is made by a second worker while the
    person may already be playing: the match goes on normally meanwhile."""
    workers = []
    page.on("worker", lambda worker: workers.append(worker))
    open_app(page, site, "?speed=0&test=1", memory_image=True)
    # The engine is ready, so the runtime's files are now fetched by the memory-image maker alone:
    # they are held back until the first move is made, so that the maker is still at work
    # then, however slow the machine.
    held: list = []
    released = []

    def hold(route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.context.route(re.compile(r".*/(pyodide|wheels)/.*"), hold)
    # A fixed deal: with a random one the round could end within the four moves below.
    deal_next(page, STILL_PLAYING_SEED)
    start_crisps(page)
    deadline = time.monotonic() + 30
    while not (len(workers) == 2 and held) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(workers) == 2, "the memory-image maker starts once the engine is idle"
    assert held, "the memory-image maker loads the runtime"
    maker_closed = []
    workers[1].on("close", lambda _worker: maker_closed.append(True))
    take_a_move(page)
    assert not maker_closed, "the move was played while the memory image was being made"
    released.append(True)
    for route in held:
        route.continue_()
    take_a_move(page)
    wait_for_memory_image(page, site)
    take_a_move(page)
    before = table_state(page)
    # The next visit starts from the memory image, which holds no match: the saved one resumes.
    open_app(page, site, "?speed=0&test=1&again=1", memory_image=True)
    assert engine_start(page)["memoryImage"] is True
    page.click(resume_button("crisps"))
    page.wait_for_selector(IDLE)
    assert table_state(page) == before
    take_a_move(page)
