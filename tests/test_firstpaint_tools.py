"""tools/build/: the trimmed standard library, vendored micropip and the server (gzip like a
static host, network emulation). No browser: the runtime runs under Node.js
(tools/build/exercise.mjs); the tests that run it are marked ``build`` (slow)."""

from __future__ import annotations

import gzip
import http.client
import os
import random
import re
import stat
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.scripts import benchmark  # noqa: E402
from tools.build import CACHE, exercise, exercise_node, micropip, stdlib  # noqa: E402
from tools.build import server as site_server  # noqa: E402
from tools.build.runtime import fetch_pyodide, trimmed_stdlib  # noqa: E402
from tools.build.wheel import build_wheel  # noqa: E402
from tools.build.wheel import web_wheel as make_web_wheel  # noqa: E402

# ----- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runtime() -> Path:
    """The pinned Pyodide runtime's files (downloaded once into .cache/)."""
    return fetch_pyodide()


@pytest.fixture(scope="module")
def web_wheel() -> Path:
    """The engine wheel the page ships."""
    return make_web_wheel(build_wheel())


@pytest.fixture(scope="module")
def micropip_wheel() -> Path:
    return micropip.fetch_micropip(CACHE)


def request(
    url: str, path: str, method: str = "GET", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    host = url.split("//", 1)[1].rstrip("/")
    connection = http.client.HTTPConnection(host, timeout=30)
    try:
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture
def site(tmp_path):
    files = {
        "index.html": b"<!doctype html><title>x</title>" + b"<p>hello</p>" * 500,
        "js/app.js": b"export const a = 1;\n" * 400,
        "pyodide/pyodide.mjs": b"export function loadPyodide() {}\n" * 300,
        "pyodide/pyodide.asm.wasm": b"\0asm\1\0\0\0" + bytes(range(256)) * 200,
        "build-info.json": b'{"build_id": "abc"}',
        "css/app.css": b"body { color: black; }\n" * 100,
        "icon.svg": b"<svg xmlns='http://www.w3.org/2000/svg'></svg>",
        "icon.png": b"\x89PNG\r\n\x1a\n" + random.Random(1).randbytes(3000),
        "wheels/x-1-py3-none-any.whl": random.Random(2).randbytes(5000),
        "blob.bin": random.Random(3).randbytes(200_000),
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path, files


@pytest.fixture
def served(site):
    root, files = site
    server, url = site_server.start_server([("/", root)])
    yield server, url, root, files
    server.shutdown()
    server.server_close()


def serve_with(root: Path, profile: site_server.NetworkProfile):
    return site_server.start_server([("/", root)], profile=profile)


# ----- the server: like a static host --------------------------------------------------------


@pytest.mark.parametrize(
    "name, mime",
    [
        ("index.html", "text/html; charset=utf-8"),
        ("js/app.js", "text/javascript; charset=utf-8"),
        ("pyodide/pyodide.mjs", "text/javascript; charset=utf-8"),
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        ("build-info.json", "application/json"),
        ("css/app.css", "text/css; charset=utf-8"),
        ("icon.svg", "image/svg+xml"),
    ],
)
def test_text_json_svg_and_wasm_are_gzipped_and_decode_to_the_file(served, name, mime):
    server, url, root, files = served
    status, headers, body = request(url, "/" + name, headers={"Accept-Encoding": "gzip, br"})
    assert status == 200
    assert headers["Content-Type"] == mime
    assert headers["Content-Encoding"] == "gzip"
    assert headers["Vary"] == "Accept-Encoding"
    assert int(headers["Content-Length"]) == len(body) < len(files[name]) + 40
    assert gzip.decompress(body) == files[name]
    # A client that does not accept gzip gets the file itself.
    status, headers, body = request(url, "/" + name)
    assert "Content-Encoding" not in headers and headers["Vary"] == "Accept-Encoding"
    assert body == files[name]


@pytest.mark.parametrize("name", ["icon.png", "wheels/x-1-py3-none-any.whl"])
def test_archives_and_images_go_as_they_are(served, name):
    server, url, root, files = served
    status, headers, body = request(url, "/" + name, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and body == files[name]
    assert "Content-Encoding" not in headers and "Vary" not in headers


def test_headers_of_the_current_server_are_kept(served):
    server, url, root, files = served
    status, headers, body = request(url, "/", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and gzip.decompress(body) == files["index.html"]
    assert headers["Cache-Control"] == "no-cache"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"] == site_server.CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in site_server.CONTENT_SECURITY_POLICY
    status, headers, body = request(
        url, "/js/app.js", method="HEAD", headers={"Accept-Encoding": "gzip"}
    )
    assert status == 200 and body == b""
    assert int(headers["Content-Length"]) == len(gzip.compress(files["js/app.js"], 6, mtime=0))
    assert request(url, "/nothing.js")[0] == 404
    assert request(url, "/../etc/passwd")[0] == 404
    status, headers, _ = request(url, "/js")
    assert status == 404  # a directory without index.html


def test_mounts_redirect_and_no_csp(site):
    root, files = site
    server, url = site_server.start_server([("/parlour/", root)], csp=False)
    try:
        status, headers, _ = request(url, "/parlour")
        assert status == 301 and headers["Location"] == "/parlour/"
        status, headers, body = request(url, "/parlour/build-info.json")
        assert status == 200 and body == files["build-info.json"]
        assert "Content-Security-Policy" not in headers
    finally:
        server.shutdown()
        server.server_close()


def test_a_revalidation_with_the_etag_gets_a_304_without_a_body(served):
    server, url, root, files = served
    _, plain, _ = request(url, "/js/app.js")
    _, zipped, _ = request(url, "/js/app.js", headers={"Accept-Encoding": "gzip"})
    assert plain["ETag"] != zipped["ETag"]
    server.traffic.reset()
    status, headers, body = request(
        url, "/js/app.js", headers={"Accept-Encoding": "gzip", "If-None-Match": zipped["ETag"]}
    )
    assert status == 304 and body == b"" and headers["ETag"] == zipped["ETag"]
    assert headers["Cache-Control"] == "no-cache" and headers["Content-Encoding"] == "gzip"
    assert server.traffic.bytes == 0
    # Another encoding's tag, or a changed file, gets the whole body.
    status, _, body = request(url, "/js/app.js", headers={"If-None-Match": zipped["ETag"]})
    assert status == 200 and body == files["js/app.js"]
    (root / "js/app.js").write_bytes(b"export const changed = 2;\n")
    status, _, body = request(url, "/js/app.js", headers={"If-None-Match": plain["ETag"]})
    assert status == 200 and body == b"export const changed = 2;\n"


def test_a_changed_file_is_compressed_again(served):
    server, url, root, files = served
    request(url, "/js/app.js", headers={"Accept-Encoding": "gzip"})
    (root / "js/app.js").write_bytes(b"export const changed = true;\n")
    os.utime(root / "js/app.js", ns=(time.time_ns(), time.time_ns() + 10**9))
    _, _, body = request(url, "/js/app.js", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(body) == b"export const changed = true;\n"


@pytest.mark.parametrize(
    "header, accepted",
    [
        ("gzip", True),
        ("deflate, gzip;q=0.5", True),
        ("*", True),
        ("br, GZIP", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        (None, False),
        ("gzip;q=x", False),
    ],
)
def test_accept_encoding(header, accepted):
    assert site_server.accepts_gzip(header) is accepted


def test_traffic_counts_bytes_as_sent(served):
    server, url, root, files = served
    server.traffic.reset()
    _, _, gz = request(url, "/js/app.js", headers={"Accept-Encoding": "gzip"})
    _, _, raw = request(url, "/icon.png")
    assert server.traffic.bytes == len(gz) + len(raw)
    assert server.traffic.requests == 2
    assert server.traffic.by_path == {"/js/app.js": len(gz), "/icon.png": len(raw)}


# ----- the server: network emulation ---------------------------------------------------------


def test_profiles():
    assert site_server.PROFILES["none"] == site_server.NetworkProfile("none", None, 0.0)
    assert site_server.PROFILES["9mbit"] == site_server.NetworkProfile("9mbit", 9_000_000, 0.17)
    assert site_server.PROFILES["1.6mbit"] == site_server.NetworkProfile("1.6mbit", 1_600_000, 0.15)


def timed_get(url: str, path: str, out: list[float]) -> None:
    start = time.perf_counter()
    status, _, body = request(url, path)
    assert status == 200 and len(body) == 200_000
    out.append(time.perf_counter() - start)


def test_bandwidth_is_emulated(site):
    root, files = site
    server, url = serve_with(root, site_server.NetworkProfile("t", 1_600_000, 0.0))
    try:
        took: list[float] = []
        timed_get(url, "/blob.bin", took)
    finally:
        server.shutdown()
        server.server_close()
    # Load can only slow a response down: it cannot arrive before the line allows.
    assert took[0] >= 200_000 * 8 / 1_600_000 - 0.02  # 1.0 s


def test_concurrent_downloads_share_the_bandwidth(site):
    root, files = site
    server, url = serve_with(root, site_server.NetworkProfile("t", 1_600_000, 0.0))
    try:
        took: list[float] = []
        threads = [
            threading.Thread(target=timed_get, args=(url, "/blob.bin", took)) for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.shutdown()
        server.server_close()
    # Sharing the line: both bodies go through it, so the later of the two cannot be done
    # before twice one body's time (2.0 s), nor the earlier before one body's (1.0 s).
    one = 200_000 * 8 / 1_600_000
    assert len(took) == 2
    assert max(took) >= 2 * one - 0.02 and min(took) >= one - 0.02, took
    assert server.traffic.bytes == 400_000


def test_round_trip_is_added_before_each_response(site):
    root, files = site
    server, url = serve_with(root, site_server.NetworkProfile("t", None, 0.3))
    try:
        for _ in range(2):
            start = time.perf_counter()
            status, _, _ = request(url, "/build-info.json")
            took = time.perf_counter() - start
            assert status == 200 and took >= 0.3
    finally:
        server.shutdown()
        server.server_close()


def test_a_named_profile_paces_gzipped_bytes(site):
    root, files = site
    server, url = serve_with(root, "9mbit")
    try:
        start = time.perf_counter()
        _, headers, body = request(
            url, "/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"}
        )
        took = time.perf_counter() - start
    finally:
        server.shutdown()
        server.server_close()
    assert headers["Content-Encoding"] == "gzip"
    assert took >= 0.17 + len(body) * 8 / 9e6 - 0.02


class LateClock:
    """A clock for the pacer whose sleeps each wake up ``late`` seconds after they were due,
    as a thread does on a loaded machine."""

    def __init__(self, late: float) -> None:
        self.now = 0.0
        self.late = late

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds + self.late


def send_paced(pacer: site_server.Pacer, size: int, first_byte_at: float) -> float:
    """What SiteHandler._send does with a body of ``size`` bytes: its chunks one after the
    other; returns when the last chunk was written."""
    due = first_byte_at
    for start in range(0, size, site_server.CHUNK_BYTES):
        due = pacer.wait(min(site_server.CHUNK_BYTES, size - start), due)
    return pacer.clock()


def test_late_wake_ups_do_not_slow_the_line():
    # One megabyte at 9 Mbit/s is 0.889 s on the line, in 62 chunks. Each wake-up 5 ms
    # late (a loaded box) would add 0.31 s if each chunk were booked from its wake-up; booked
    # from when the previous one was due, the body is done one wake-up after the floor.
    clock = LateClock(late=0.005)
    pacer = site_server.Pacer(9_000_000, clock=clock, sleep=clock.sleep)
    floor = 1_000_000 * 8 / 9_000_000
    written = send_paced(pacer, 1_000_000, first_byte_at=0.0)
    assert floor <= written <= floor + 0.005 + 1e-9


def test_a_reader_that_stalled_gets_no_burst():
    clock = LateClock(late=0.0)
    pacer = site_server.Pacer(1_600_000, clock=clock, sleep=clock.sleep)
    done = pacer.wait(16_384, 0.0)
    clock.now += 2.0  # the response waited on its reader for two seconds
    again = pacer.book(16_384, done)
    assert again == pytest.approx(clock.now + 16_384 * 8 / 1_600_000)


def simulate_page(
    profile: site_server.NetworkProfile, chain: list[int], batch: list[int], late: list[float]
) -> float:
    """The emulated line's schedule for a page like the bare loadPyodide() one: ``chain``,
    responses asked for one after the other (each once the previous has arrived), then
    ``batch`` asked for at once; each response's thread wakes up for each chunk late by
    the next of ``late`` (cycled). Returns when the last byte of the batch has arrived."""
    assert profile.bits_per_second is not None
    clock = LateClock(late=0.0)
    pacer = site_server.Pacer(profile.bits_per_second, clock=clock, sleep=clock.sleep)
    lateness = iter(late * 10_000)

    def run(sizes: list[int], asked: float) -> float:
        # Every response's next call on the line, in time order: (when, response, due).
        calls = [(asked + profile.rtt_s, i, asked + profile.rtt_s) for i in range(len(sizes))]
        left = list(sizes)
        finished = asked
        while calls:
            calls.sort()
            when, i, due = calls.pop(0)
            clock.now = when
            size = min(site_server.CHUNK_BYTES, left[i])
            due = pacer.book(size, due)
            left[i] -= size
            arrived = due + next(lateness)
            if left[i]:
                calls.append((arrived, i, due))
            finished = max(finished, arrived)
        return finished

    at = 0.0
    for size in chain:
        at = run([size], at)
    return run(batch, at)


@pytest.fixture(scope="module")
def bench():
    return benchmark("bench.py")


@pytest.fixture(scope="module")
def bare_page(bench, runtime):
    """The benchmark's bare page as its server sends it to Chromium (which accepts gzip):
    (headers, body) of each file it asks for, by path."""
    server, url = site_server.start_server(bench.bare_mounts())
    try:
        return {
            path: request(url, "/" + path, headers={"Accept-Encoding": "gzip, deflate, br"})[1:]
            for path in (*bench.BARE_CHAIN, *bench.BARE_BATCH)
        }
    finally:
        server.shutdown()
        server.server_close()


def test_the_bare_page_is_a_plain_load_of_the_stock_runtime(bench, runtime):
    # The worker imports the pinned package's pyodide.mjs as it comes and calls
    # loadPyodide() with no options: no indexURL, packages, lock file or library of ours.
    worker = (bench.BENCH_WEB / "bench-worker.mjs").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", worker)
    assert re.findall(r"loadPyodide\((.*?)\)", code) == [""]
    assert 'import("./stock-pyodide/pyodide.mjs")' in code
    assert dict(bench.bare_mounts())["/stock-pyodide/"] == runtime
    # Each file of the chain asks for the next, as the floor counts them.
    page = (bench.BENCH_WEB / "bench.html").read_text(encoding="utf-8")
    assert 'src="./bench.mjs"' in page and '<link rel="icon" href="data:,">' in page
    assert '"./bench-worker.mjs"' in (bench.BENCH_WEB / "bench.mjs").read_text(encoding="utf-8")
    assert bench.BARE_CHAIN[-1] == "stock-pyodide/pyodide.mjs"
    assert bench.BARE_ROUND_TRIPS == len(bench.BARE_CHAIN) + 1 == 5


def test_the_bare_pages_webassembly_can_be_compiled_as_it_streams_in(bench, runtime, bare_page):
    # In a browser, the pinned loader fetches pyodide.asm.wasm and hands the response to
    # WebAssembly.instantiateStreaming, which takes it only as application/wasm; a
    # Content-Encoding the browser undoes (gzip) is fine. The bench refuses a load that did
    # not stream (its worker notes the call); this holds the server to what it needs.
    loader = (runtime / "pyodide.mjs").read_text(encoding="utf-8")
    assert 'e+"pyodide.asm.wasm"' in loader
    assert re.search(r"return\{response:fetch\(n,", loader)
    assert "WebAssembly.instantiateStreaming(n,s)" in loader
    headers, body = bare_page["stock-pyodide/pyodide.asm.wasm"]
    assert headers["Content-Type"] == "application/wasm"
    assert headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == (runtime / "pyodide.asm.wasm").read_bytes()


@pytest.mark.parametrize("name", ["9mbit", "1.6mbit"])
def test_the_bare_pages_line_sits_at_its_floor(bench, bare_page, name):
    # The bare page's files, as this server sends them (gzipped where it gzips), fetched in
    # the bench's order: BARE_CHAIN one after another, then BARE_BATCH together. The bench's
    # floor (bare_floor: a round trip a step, every byte once through the line) is what the
    # emulated line delivers them in, within 1%, however late its threads wake: the margin
    # the bench flags (BARE_MARGIN over the floor) is then the browser's, not the line's.
    profile = site_server.PROFILES[name]
    assert profile.bits_per_second is not None
    chain = [len(bare_page[path][1]) for path in bench.BARE_CHAIN]
    batch = [len(bare_page[path][1]) for path in bench.BARE_BATCH]
    floor = bench.bare_floor(name, sum(chain) + sum(batch))
    assert floor == pytest.approx(
        5 * profile.rtt_s + (sum(chain) + sum(batch)) * 8 / profile.bits_per_second
    )
    arrived = simulate_page(profile, chain, batch, late=[0.0, 0.004, 0.011, 0.002, 0.007])
    assert floor <= arrived <= floor * 1.01, (arrived, floor)
    # The stock runtime's 6.39 MB as sent: 5.68 s at 9 Mbit/s, 31.9 s at 1.6 Mbit/s.
    assert 6_300_000 < sum(chain) + sum(batch) < 6_500_000


# ----- the standard library's trimming -------------------------------------------------------


def make_library(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in [
            ("json/", ""),
            ("json/__init__.py", "a"),
            ("json/decoder.py", "b"),
            ("json/data.txt", "d"),
            ("typing.py", "t" * 500),
            ("email/__init__.py", "e"),
            ("email/parser.py", "p"),
            ("encodings/__init__.py", "i"),
            ("encodings/utf_8.py", "u"),
            ("encodings/cp1252.py", "c"),
            ("os.py", "o"),
        ]:
            info = zipfile.ZipInfo(name, date_time=(2026, 9, 14, 3, 3, 52))
            info.compress_type = zipfile.ZIP_STORED if name == "os.py" else zipfile.ZIP_DEFLATED
            archive.writestr(info, text)


def test_trim_keeps_packages_whole_and_parents_of_modules(tmp_path):
    source = tmp_path / "lib.zip"
    make_library(source)
    names = stdlib.trim_stdlib(
        source, tmp_path / "out.zip", ["json", "typing", "os", "encodings.utf_8"]
    )
    assert names == [
        "encodings/__init__.py",
        "encodings/utf_8.py",
        "json/__init__.py",
        "json/data.txt",
        "json/decoder.py",
        "os.py",
        "typing.py",
    ]
    with zipfile.ZipFile(tmp_path / "out.zip") as archive:
        assert archive.namelist() == names
        assert archive.testzip() is None
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        methods = {i.filename: i.compress_type for i in archive.infolist()}
        assert methods["os.py"] == zipfile.ZIP_STORED
        assert methods["typing.py"] == zipfile.ZIP_DEFLATED
        assert archive.read("typing.py") == b"t" * 500


def test_trim_is_deterministic_and_refuses_unknown_entries(tmp_path):
    source = tmp_path / "lib.zip"
    make_library(source)
    stdlib.trim_stdlib(source, tmp_path / "a.zip", ["typing", "json"])
    time.sleep(1.1)
    stdlib.trim_stdlib(source, tmp_path / "b.zip", ["json", "typing", "json"])
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    with pytest.raises(stdlib.StdlibError, match="xml"):
        stdlib.trim_stdlib(source, tmp_path / "c.zip", ["json", "xml"])
    assert not (tmp_path / "c.zip").exists()


def test_drop_entries(tmp_path):
    source = tmp_path / "lib.zip"
    make_library(source)
    names = stdlib.trim_stdlib(source, tmp_path / "out.zip", ["json", "-json.decoder"])
    assert names == ["json/__init__.py", "json/data.txt"]


def test_derive_keep_rule():
    names = [
        "json/__init__.py",
        "json/decoder.py",
        "json/tool.py",
        "json/__main__.py",
        "typing.py",
        "email/__init__.py",
        "encodings/__init__.py",
        "encodings/utf_8.py",
        "encodings/cp1252.py",
        "os.py",
        "asyncio/__init__.py",
        "asyncio/__main__.py",
    ]
    keep = stdlib.derive_keep(
        [
            "json.decoder",
            "encodings",
            "encodings.cp1252",
            "sys",
            "engine.bridge",
            "_json",
            "asyncio",
            "asyncio.__main__",
        ],
        ["typing.py"],
        names,
    )
    assert {
        "json",
        "typing",
        "encodings.__init__",
        "encodings.cp1252",
        "asyncio",
        "-json.tool",
        "-json.__main__",
    } <= set(keep)
    assert not {"email", "os", "sys", "engine", "_json", "encodings", "-asyncio.__main__"} & set(
        keep
    )
    assert set(stdlib.ALWAYS_KEEP) <= set(keep)


@pytest.mark.build
def test_keep_file_selects_from_the_runtime_library(runtime, tmp_path):
    keep = stdlib.load_keep()
    assert keep == sorted(set(keep))
    assert set(stdlib.ALWAYS_KEEP) <= set(keep)
    trimmed = tmp_path / "python_stdlib.zip"
    members = set(stdlib.trim_stdlib(runtime / "python_stdlib.zip", trimmed, keep))
    assert {
        "json/__init__.py",
        "encodings/utf_8.py",
        "random.py",
        "dataclasses.py",
        "pkgutil.py",
        "importlib/metadata/__init__.py",
        "asyncio/__init__.py",
    } <= members
    assert (
        not {
            "pydoc.py",
            "unittest/__init__.py",
            "xml/__init__.py",
            "http/server.py",
            "multiprocessing/__init__.py",
            "encodings/cp1252.py",
            "json/tool.py",
        }
        & members
    )
    assert trimmed.stat().st_size < 0.7 * (runtime / "python_stdlib.zip").stat().st_size


def test_exercise_in_cpython():
    summary = exercise.run(iterations=2, steps=3, hint_ms=5)
    assert summary["matches"] == sum(
        len(s.player_counts()) * 5 for s in __import__("engine").GAMES.values()
    )
    assert summary["finished"] >= 15
    assert summary["progress_reports"] > 0
    assert {"hint", "undo", "load", "replay", "bot_move", "act", "why"} <= set(summary["calls"])


# ----- micropip ------------------------------------------------------------------------------


@pytest.mark.build
def test_micropip_is_the_pinned_wheel(micropip_wheel):
    assert micropip_wheel.name == "micropip-0.11.1-py3-none-any.whl"
    assert micropip.sha256_file(micropip_wheel) == micropip.MICROPIP_SHA256
    # Cached: found again without pip.
    assert micropip.fetch_micropip(micropip_wheel.parent, python="/nonexistent") == micropip_wheel


def test_micropip_refuses_another_file(tmp_path):
    fake = tmp_path / "fake-python"
    fake.write_text(
        '#!/bin/sh\nwhile [ "$1" != --dest ]; do shift; done\n'
        'echo not-micropip > "$2/micropip-0.11.1-py3-none-any.whl"\n'
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(micropip.MicropipError, match="refusing"):
        micropip.fetch_micropip(tmp_path / "cache", python=str(fake))
    assert not (tmp_path / "cache" / micropip.MICROPIP_WHEEL).exists()
    with pytest.raises(micropip.MicropipError, match="failed"):
        micropip.fetch_micropip(tmp_path / "cache", python="/bin/false")


# ----- under Node.js: the real runtime with the trimmed library and micropip -----------------


@pytest.mark.build
@pytest.mark.slow
def test_engine_installs_with_micropip_and_runs_on_the_trimmed_library(
    runtime, web_wheel, micropip_wheel, tmp_path
):
    trimmed = trimmed_stdlib(runtime)  # the build's: trimmed and compiled to bytecode
    report = exercise_node.run_exercise(
        runtime,
        web_wheel,
        micropip_wheel,
        ("--install", "micropip"),
        stdlib=trimmed,
        iterations=2,
        steps=3,
    )
    assert report["stdlib"] == str(trimmed)
    assert report["foreign"] == []
    assert any(url.endswith(micropip.MICROPIP_WHEEL) for url in report["fetched"])
    assert any(url.endswith(web_wheel.name) for url in report["fetched"])
    assert "micropip" in report["modules"] and "engine.bridge" in report["modules"]
    assert report["modules"]["engine.bridge"].startswith("/lib/python3.14/site-packages/")
    # The library is imported from its bytecode: no source is there to compile.
    assert report["modules"]["json"].endswith(".zip/json/__init__.pyc")
    assert report["modules"]["random"].endswith(".zip/random.pyc")
    assert report["exercise"]["matches"] > 50
    # Everything it read from the library is on the keep list.
    with zipfile.ZipFile(trimmed) as archive:
        assert set(report["reads"]) <= set(archive.namelist())


@pytest.mark.build
def test_compiling_the_library_gives_sourceless_bytecode_the_same_every_time(runtime, tmp_path):
    source = tmp_path / "src.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr(
            "pkg/__init__.py", '"""A docstring the bytecode leaves out."""\nVALUE = 1\n'
        )
        archive.writestr("pkg/data.txt", "kept as it is\n")
        archive.writestr("checks.py", "assert False, 'asserts are left out'\n")
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    stdlib.compile_stdlib(runtime, source, first)
    stdlib.compile_stdlib(runtime, source, second)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.namelist() == ["checks.pyc", "pkg/__init__.pyc", "pkg/data.txt"]
        assert archive.read("pkg/data.txt") == b"kept as it is\n"
        assert b"asserts are left out" not in archive.read("checks.pyc")
        init = archive.read("pkg/__init__.pyc")
    assert init[:16][4:8] == b"\x01\0\0\0"  # hash-based, unchecked
    assert b"VALUE" in init and b"docstring" not in init
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("oops.py", "def (:\n")
    with pytest.raises(stdlib.StdlibError, match="SyntaxError"):
        stdlib.compile_stdlib(runtime, bad, tmp_path / "c.zip")
