"""build.py: the wheel, dist/ and the server (no browser; builds once into a temp dir)."""
from __future__ import annotations

import hashlib
import json
import re
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

WEB_TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg"}


@pytest.fixture(scope="module")
def wheel() -> Path:
    return build.build_wheel()


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("site") / "dist"
    build.build(dist, quiet=True)
    return dist


@pytest.fixture(scope="module")
def info(site_dir) -> dict:
    return json.loads((site_dir / "build-info.json").read_text())


def sw_build_data(site_dir: Path) -> dict:
    text = (site_dir / "sw.js").read_text()
    begin = text.index(build.SW_MARK_BEGIN) + len(build.SW_MARK_BEGIN)
    return json.loads(text[begin:text.index(build.SW_MARK_END)])


# ----- the wheel ---------------------------------------------------------------------

def test_wheel_is_pure_python(wheel):
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        wheel_meta = next(n for n in archive.namelist() if n.endswith(".dist-info/WHEEL"))
        text = archive.read(wheel_meta).decode()
    assert "Root-Is-Purelib: true" in text
    assert "Tag: py3-none-any" in text


def test_wheel_has_no_dependencies(wheel):
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(metadata).decode()
    assert not re.search(r"^Requires-Dist:", text, re.MULTILINE)


def test_wheel_holds_the_engine_and_nothing_else(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/", 1)[0] for name in names}
    assert top == {"engine", next(t for t in top if t.endswith(".dist-info"))}
    assert "engine/__init__.py" in names and "engine/bridge.py" in names
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py")}
    assert sources <= set(names), "every engine module must be in the wheel"
    assert not [n for n in names if n.startswith("tests/") or "/test_" in n
                or "__pycache__" in n or n.endswith(".pyc")]


def test_wheel_is_reused_while_the_sources_are_unchanged(wheel):
    assert build.build_wheel() == wheel


# ----- dist/ -------------------------------------------------------------------------

def test_dist_holds_web_runtime_and_wheel(site_dir, info):
    files = set(build.dist_files(site_dir))
    web = {p.relative_to(build.WEB).as_posix() for p in build.WEB.rglob("*")
           if p.is_file() and not build.IGNORED_NAMES & set(p.parts)}
    runtime = {f"pyodide/{name}" for name in build.PYODIDE_FILES}
    icons = {f"icons/{build.icon_name(size, purpose)}" for size, purpose in build.ICON_SIZES}
    expected = web | runtime | icons | {f"wheels/{info['engine_wheel']}", "build-info.json",
                                        ".nojekyll"}
    assert files == expected


def test_png_icons_are_drawn_at_their_sizes(site_dir):
    import struct
    import zlib

    for size, purpose in build.ICON_SIZES:
        data = (site_dir / "icons" / build.icon_name(size, purpose)).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
        assert (width, height, depth, kind) == (size, size, 8, 6)
        idat = data.index(b"IDAT")
        length = struct.unpack(">I", data[idat - 4:idat])[0]
        pixels = zlib.decompress(data[idat + 4:idat + 4 + length])
        assert len(pixels) == size * (size * 4 + 1)
        # Opaque green in the middle of the tile's edge; the corners are transparent
        # unless the icon is maskable (full bleed).
        row = size // 2
        edge = pixels[row * (size * 4 + 1) + 1:][:4]
        assert edge[:3] == bytes((0x1F, 0x4D, 0x3A)) and edge[3] == 255
        corner_alpha = pixels[4]
        assert corner_alpha == (255 if purpose == "maskable" else 0)


def test_the_page_declares_the_policy_the_server_sends():
    html = (build.WEB / "index.html").read_text()
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert found and found.group(1) == build.CONTENT_SECURITY_POLICY


def test_runtime_files_are_the_pinned_pyodide(site_dir, info):
    assert info["pyodide_version"] == build.PYODIDE_VERSION
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["arch"] == "wasm32"
    assert (site_dir / "pyodide" / "pyodide.asm.wasm").read_bytes()[:4] == b"\0asm"
    assert f'"{build.PYODIDE_VERSION}"' in (site_dir / "pyodide" / "pyodide.mjs").read_text()


def test_build_info_is_consistent(site_dir, info):
    assert set(info) == {"build_id", "engine_wheel", "pyodide_version"}
    assert (site_dir / "wheels" / info["engine_wheel"]).is_file()
    assert re.fullmatch(r"[0-9a-f]{16}", info["build_id"])
    assert info["build_id"] == build.compute_build_id(site_dir, {"sw.js", "build-info.json"})
    assert sw_build_data(site_dir)["build_id"] == info["build_id"]


def test_build_id_changes_with_the_content(site_dir, info, tmp_path):
    copy = tmp_path / "copy"
    import shutil
    shutil.copytree(site_dir, copy)
    (copy / "index.html").write_text((copy / "index.html").read_text() + "\n<!-- -->\n")
    assert build.compute_build_id(copy, {"sw.js", "build-info.json"}) != info["build_id"]


def test_service_worker_precaches_every_file(site_dir):
    data = sw_build_data(site_dir)
    files = data["files"]
    assert files[0] == "./"
    assert len(files) == len(set(files))
    expected = set(build.dist_files(site_dir)) - {"sw.js", ".nojekyll"}
    assert set(files[1:]) == expected
    assert all(not f.startswith("/") and "://" not in f for f in files)


def test_source_service_worker_is_valid_before_stamping():
    text = (build.WEB / "sw.js").read_text()
    begin = text.index(build.SW_MARK_BEGIN) + len(build.SW_MARK_BEGIN)
    assert json.loads(text[begin:text.index(build.SW_MARK_END)]) == {"build_id": "dev",
                                                                    "files": []}


def test_web_files_use_relative_urls_only(site_dir):
    bad = []
    patterns = [
        re.compile(r"""(?:src|href|action)\s*=\s*["']\s*/"""),            # root-relative
        re.compile(r"""(?:src|href|action)\s*=\s*["']\s*(?:https?:)?//"""),  # other hosts
        re.compile(r"""\b(?:import|from)\s*\(?\s*["'](?:/|https?:|//)"""),    # module imports
        re.compile(r"""\b(?:fetch|importScripts|Worker|register)\s*\(\s*["'](?:/|https?:|//)"""),
        re.compile(r"""url\(\s*["']?\s*(?:/|https?:|//)"""),               # css
    ]
    for rel in build.dist_files(site_dir):
        if rel.startswith("pyodide/") or Path(rel).suffix not in WEB_TEXT_SUFFIXES:
            continue
        text = (site_dir / rel).read_text(encoding="utf-8")
        for pattern in patterns:
            for match in pattern.finditer(text):
                bad.append(f"{rel}: {match.group(0)!r}")
        for match in re.finditer(r"https?://[^\s\"'<>)]+", text):
            url = match.group(0)
            if url.startswith("http://www.w3.org/"):  # XML namespaces, never fetched
                continue
            bad.append(f"{rel}: {url}")
    assert bad == []


def test_index_loads_the_app_as_a_module_without_inline_script(site_dir):
    html = (site_dir / "index.html").read_text()
    assert re.search(r"""<script\s+type=["']module["']\s+src=["']\./js/app\.js["']""", html)
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.DOTALL | re.IGNORECASE)
    assert all("src=" in attrs and not body.strip() for attrs, body in scripts), \
        "the page runs under a CSP without 'unsafe-inline': no inline scripts"
    assert not re.search(r"\son[a-z]+\s*=", html), "no inline event handlers"


def test_rebuild_is_deterministic(site_dir, info, tmp_path):
    again = tmp_path / "dist"
    assert build.build(again, quiet=True) == info
    for rel in build.dist_files(site_dir):
        assert hashlib.sha256((site_dir / rel).read_bytes()).digest() == \
            hashlib.sha256((again / rel).read_bytes()).digest(), rel


# ----- the server --------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(site_dir):
    server, url = build.start_server([("/parlour/", site_dir), ("/", site_dir)])
    yield url
    server.shutdown()
    server.server_close()


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.mark.parametrize("path,mime", [
    ("", "text/html"), ("index.html", "text/html"), ("sw.js", "text/javascript"),
    ("worker.js", "text/javascript"), ("pyodide/pyodide.mjs", "text/javascript"),
    ("pyodide/pyodide.asm.wasm", "application/wasm"), ("build-info.json", "application/json"),
    ("pyodide/python_stdlib.zip", "application/zip"),
])
def test_server_sends_the_right_types(served, path, mime):
    for base in (served, served + "parlour/"):
        status, headers, _ = fetch(base + path)
        assert status == 200
        assert headers["Content-Type"].split(";")[0] == mime
        assert headers["Cache-Control"] == "no-cache"
        assert headers["Content-Security-Policy"] == build.CONTENT_SECURITY_POLICY


def test_server_serves_the_wheel_and_queries(served, info):
    status, headers, body = fetch(served + "wheels/" + info["engine_wheel"])
    assert status == 200 and body[:2] == b"PK"
    assert fetch(served + "?speed=0")[0] == 200


def test_server_refuses_what_is_not_there(served):
    assert fetch(served + "nope.js")[0] == 404
    assert fetch(served + "../build.py")[0] == 404
    assert fetch(served + "%2e%2e/build.py")[0] == 404
    status, headers, _ = fetch(served + "parlour")
    assert status == 200  # followed the redirect to /parlour/
