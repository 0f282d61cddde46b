"""build.py and tools/build/: the wheel, dist/, the server and the command line (no browser;
builds once into a temp dir)."""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import io
import json
import os
import re
import struct
import subprocess
import sys
import tokenize
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tests.scripts import benchmark  # noqa: E402
from tools import draw_icons  # noqa: E402
from tools.build import CACHE, WEB, BuildError, sha256_file  # noqa: E402
from tools.build import testing as test_command  # noqa: E402
from tools.build.catalog import CATALOG, catalog_source  # noqa: E402
from tools.build.micropip import MICROPIP_SHA256, MICROPIP_WHEEL  # noqa: E402
from tools.build.runtime import (  # noqa: E402
    PYODIDE_FILES,
    PYODIDE_VERSION,
    fetch_pyodide,
    trimmed_stdlib,
)
from tools.build.server import CONTENT_SECURITY_POLICY, start_server  # noqa: E402
from tools.build.site import (  # noqa: E402
    BUNDLED_DIRS,
    CSS_ENTRY,
    IGNORED_NAMES,
    JS_ENTRY,
    STANDALONE_SCRIPTS,
    SW_MARK_BEGIN,
    SW_MARK_END,
    compute_build_id,
    dist_files,
    entry_chunks,
    screen_chunks,
    squeeze_html,
    static_imports,
)
from tools.build.site import build as build_site  # noqa: E402
from tools.build.stdlib import load_keep, selected_members  # noqa: E402
from tools.build.wheel import WEB_WHEEL_EXCLUDES, build_wheel, slim_python  # noqa: E402
from tools.build.wheel import web_wheel as make_web_wheel  # noqa: E402

pytestmark = pytest.mark.build

WEB_TEXT_SUFFIXES = {".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg"}


@pytest.fixture(scope="module")
def wheel() -> Path:
    return build_wheel()


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("site") / "dist"
    build_site(dist, quiet=True)
    return dist


@pytest.fixture(scope="module")
def info(site_dir) -> dict:
    return json.loads((site_dir / "build-info.json").read_text())


def sw_build_data(site_dir: Path) -> dict:
    text = (site_dir / "sw.js").read_text()
    begin = text.index(SW_MARK_BEGIN) + len(SW_MARK_BEGIN)
    return json.loads(text[begin : text.index(SW_MARK_END)])


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
    assert "engine/__init__.py" in names and "engine/bridge/__init__.py" in names
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "engine").rglob("*.py")}
    assert sources <= set(names), "every engine module must be in the wheel"
    assert not [
        n
        for n in names
        if n.startswith("tests/") or "/test_" in n or "__pycache__" in n or n.endswith(".pyc")
    ]


def test_wheel_is_reused_while_the_sources_are_unchanged(wheel):
    assert build_wheel() == wheel


# ----- the slimmer wheel dist/ ships --------------------------------------------------


@pytest.fixture(scope="module")
def web_wheel(wheel) -> Path:
    """The wheel dist/ ships, as build() makes it."""
    return make_web_wheel(wheel)


def docstrings_and_comments(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if ast.get_docstring(node, clean=False) is not None:
                found.append(f"docstring of {getattr(node, 'name', 'the module')}")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append(f"comment {token.string!r}")
    return found


def test_web_wheel_holds_the_engine_the_page_imports_slimmed(wheel, web_wheel):
    assert web_wheel.name == wheel.name
    with zipfile.ZipFile(wheel) as full, zipfile.ZipFile(web_wheel) as slim:
        full_names, names = set(full.namelist()), slim.namelist()
        assert set(names) == full_names - set(WEB_WHEEL_EXCLUDES)
        assert slim.testzip() is None
        assert all(
            slim.getinfo(n).compress_type == zipfile.ZIP_DEFLATED
            for n in names
            if n.endswith(".py")
        )
        # Dated like pip's wheels and readable by all, so a rebuild is the same bytes.
        assert all(
            i.date_time == (1980, 1, 1, 0, 0, 0) and i.external_attr >> 16 == 0o100644
            for i in slim.infolist()
        )
        for name in names:
            if name.endswith(".py"):
                text = slim.read(name).decode()
                assert docstrings_and_comments(text) == [], name
                assert len(text) < len(full.read(name))
        metadata = slim.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        assert b"Name: parlour-engine\n" in metadata and b"# Parlour" not in metadata
    assert web_wheel.stat().st_size < wheel.stat().st_size * 0.7


def test_web_wheel_record_lists_every_file_with_its_hash(web_wheel):
    with zipfile.ZipFile(web_wheel) as archive:
        record_name = next(n for n in archive.namelist() if n.endswith(".dist-info/RECORD"))
        rows = [line.split(",") for line in archive.read(record_name).decode().splitlines()]
        assert sorted(row[0] for row in rows) == sorted(archive.namelist())
        for name, digest, size in rows:
            if name == record_name:
                assert digest == size == ""
                continue
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert (digest, int(size)) == (f"sha256={expected.decode()}", len(data)), name


def test_a_module_left_out_of_the_web_wheel_must_not_be_imported(tmp_path):
    # The worker imports every module it finds (pkgutil.walk_packages) for its memory image, so
    # a module left out is simply not seen; but one the others import would break the page.
    fake = tmp_path / "parlour_engine-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(fake, "w") as archive:
        archive.writestr("engine/__init__.py", "")
        archive.writestr("engine/checks.py", "")
        archive.writestr("engine/bots/__init__.py", "def f():\n    from .. import checks\n")
        archive.writestr("parlour_engine-0.1.0.dist-info/METADATA", "Name: parlour-engine\n")
        archive.writestr("parlour_engine-0.1.0.dist-info/RECORD", "")
    with pytest.raises(BuildError, match="engine/bots/__init__.py imports engine.checks"):
        make_web_wheel(fake)


# A whole match per game in CPython from an engine on sys.path, printed as one line of JSON
# per step: the source engine and the installed slim wheel must print the same.
PLAY_SCRIPT = """
import json, pkgutil, importlib, sys
import engine, engine.bridge as bridge
print(json.dumps({"file": engine.__file__}))
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name != "engine.__main__":
        importlib.import_module(info.name)
for game in engine.GAMES:
    reply = json.loads(bridge.start(json.dumps({
        "game": game, "seed": 11, "seats": [{"type": "human"}, {"type": "bot", "level": "normal"}]
        + [{"type": "bot", "level": "easy"}] * (engine.GAMES[game].default_players - 2)})))
    for step in range(60):
        if reply.get("is_over"):
            break
        if reply["human_turn"]:
            reply = json.loads(bridge.act(json.dumps({"action": reply["legal"][-1]["id"]})))
        else:
            reply = json.loads(bridge.bot_move("{}"))["snapshot"]
        assert "error" not in reply, reply
        print(json.dumps({"game": game, "step": step, "moves": reply["moves"],
                          "view": reply["view"], "legal": reply["legal"]}, sort_keys=True))
    while not reply["human_turn"] and not reply["is_over"]:
        reply = json.loads(bridge.bot_move("{}"))["snapshot"]
    if reply["human_turn"]:  # the ISMCTS bot thinks for the person (not compared: it may
        hint = json.loads(bridge.hint(json.dumps({"level": "hard"})))  # hit its clock cap)
        print(json.dumps({"game": game, "hint_ok": "error" not in hint or hint}))
"""


def play(path: Path, cwd: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(path), PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [sys.executable, "-c", PLAY_SCRIPT],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_web_wheel_installs_with_pip_and_plays_like_the_source(web_wheel, tmp_path):
    target = tmp_path / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(web_wheel),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert not (target / "engine" / "__main__.py").exists()
    installed = play(target, tmp_path)
    source = play(ROOT, tmp_path)
    assert json.loads(installed[0])["file"] == str(target / "engine" / "__init__.py")
    assert json.loads(source[0])["file"] == str(ROOT / "engine" / "__init__.py")
    assert len(installed) > 20 and installed[1:] == source[1:]
    hints = [line for line in installed if "hint_ok" in line]
    assert hints and all('"hint_ok": true' in line for line in hints), hints


SLIM_SAMPLE = '''"""Module doc."""
from __future__ import annotations
import dataclasses


@dataclasses.dataclass
class Point:
    """A point."""
    x: int  # a field: its annotation stays
    y: int = 2


def f(a: int, *rest: str, key: "Point | None" = None, **more: float) -> str:
    """Doc."""
    # a comment
    text = f"""{a}
    {key!r:>{a}}"""
    if a > 1:
        return text + """q
        r"""
    return text


def only_doc():
    """Nothing else."""
'''


def test_slim_python_keeps_the_meaning():
    import dataclasses

    slim = slim_python(SLIM_SAMPLE)
    assert docstrings_and_comments(slim) == []
    assert "def f(a, *rest, key=None, **more):" in slim
    full, slimmed = {}, {}
    exec(compile(SLIM_SAMPLE, "full", "exec"), full)
    exec(compile(slim, "slim", "exec"), slimmed)
    for args in ((1,), (2,), (3,)):
        assert slimmed["f"](*args) == full["f"](*args)
        assert slimmed["f"](*args, key=slimmed["Point"](1)) == full["f"](
            *args, key=full["Point"](1)
        )
    assert slimmed["only_doc"]() is None
    assert [f.name for f in dataclasses.fields(slimmed["Point"])] == ["x", "y"]


# ----- dist/ -------------------------------------------------------------------------


def web_sources(*, bundled: bool) -> set[str]:
    """web/'s files as dist/ paths; with ``bundled``, less those the bundler replaces."""
    files = {
        p.relative_to(WEB).as_posix()
        for p in WEB.rglob("*")
        if p.is_file() and not IGNORED_NAMES & set(p.parts)
    }
    if bundled:
        files = {
            f
            for f in files
            if f.split("/", 1)[0] not in BUNDLED_DIRS and f not in STANDALONE_SCRIPTS
        }
    return files


GAME_SCREENS = sorted(p.stem for p in (WEB / "js" / "games").glob("*.js"))
CHUNK = re.compile(r"js/(?P<name>[a-z0-9_-]+)-[A-Z0-9]{8}\.js")


def test_dist_holds_web_runtime_and_wheel(site_dir, info):
    files = set(dist_files(site_dir))
    runtime = {f"pyodide/{name}" for name in PYODIDE_FILES}
    # js/catalog.js, which the build writes, stays a module of its own beside the bundle.
    bundled = {JS_ENTRY, CSS_ENTRY, *STANDALONE_SCRIPTS, CATALOG}
    chunks = {f for f in files if CHUNK.fullmatch(f)}
    expected = (
        web_sources(bundled=True)
        | bundled
        | chunks
        | runtime
        | {f"wheels/{info['engine_wheel']}", f"wheels/{info['micropip_wheel']}"}
        | {"build-info.json", ".nojekyll", "openings.json"}
    )
    assert files == expected
    # Everything but the service worker itself is precached, the trimmed library and
    # micropip included.
    assert set(sw_build_data(site_dir)["files"]) == {"./"} | files - {"sw.js", ".nojekyll"}
    # One chunk per game screen, loaded when that game starts, and one for the QR codes of
    # the shared tables (test_the_qr_library_is_a_chunk_of_ours_loaded_on_demand); the rest
    # are shared chunks.
    names = sorted(CHUNK.fullmatch(f)["name"] for f in chunks)
    assert sorted(n for n in names if n != "chunk") == sorted([*GAME_SCREENS, "qr"])


def test_the_benchmark_names_the_kind_of_every_file_in_dist(site_dir):
    """benchmarks/bench.py counts dist/'s bytes by kind: ours by suffix or name, the runtime's
    apart; no file of a build falls under "other"."""
    bench = benchmark("bench.py")
    kinds = {rel: bench.kind_of(rel) for rel in dist_files(site_dir)}
    assert [rel for rel, (_, kind) in kinds.items() if kind == "other"] == []
    assert kinds[".nojekyll"] == (True, "static host's marker")
    assert kinds["index.html"] == (True, "HTML")
    assert kinds["pyodide/python_stdlib.zip"] == (False, "standard library, trimmed")
    assert {kind for ours, kind in kinds.values() if not ours} == {
        "Pyodide runtime",
        "standard library, trimmed",
        "micropip",
    }


def test_no_minify_copies_web_as_it_is(tmp_path, wheel):
    dist = tmp_path / "dist"
    info = build_site(dist, quiet=True, minify=False)
    files = set(dist_files(dist))
    web = web_sources(bundled=False)
    # js/catalog.js is the one file the build adds (tools/build/catalog.py).
    written = {f for f in files - web if f.startswith(("js/", "css/"))}
    assert web <= files and written == {"js/catalog.js"}
    assert (dist / "js" / "catalog.js").read_text(encoding="utf-8") == catalog_source()
    for rel in web - {"sw.js"}:
        assert (dist / rel).read_bytes() == (WEB / rel).read_bytes(), rel
    assert (dist / "wheels" / info["engine_wheel"]).read_bytes() == wheel.read_bytes()
    assert sw_build_data(dist)["build_id"] == info["build_id"]


def without_build_data(text: str) -> str:
    begin = text.index(SW_MARK_BEGIN)
    return text[:begin] + text[text.index(SW_MARK_END) + len(SW_MARK_END) :]


def test_dist_scripts_and_styles_are_minified(site_dir):
    def size(root: Path, pattern: str) -> int:
        return sum(
            len(without_build_data(p.read_text()) if p.name == "sw.js" else p.read_text())
            for p in root.glob(pattern)
        )

    # Beside the bundle is js/catalog.js, which the build writes: compact JSON (the games and
    # the arena's figures, growing with every run recorded) that no minifier shrinks, shipped
    # as written. Only the code written in web/ is held to the ratio.
    data = len(catalog_source())
    assert (site_dir / CATALOG).read_text(encoding="utf-8") == catalog_source()
    for pattern in ("js/**/*.js", "worker.js", "sw.js", "css/*.css"):
        built = size(site_dir, pattern) - (data if pattern == "js/**/*.js" else 0)
        assert 0 < built < size(WEB, pattern) * (0.85 if "css" in pattern else 0.6), pattern
        for path in site_dir.glob(pattern):
            if path == site_dir / CATALOG:
                continue
            text = path.read_text(encoding="utf-8")
            text = without_build_data(text) if path.name == "sw.js" else text
            assert "/*" not in text and not re.search(r"^\s*//", text, re.MULTILINE), path
            if path.name != "worker.js":  # its Python source is a multi-line string
                assert text.count("\n") <= 2 + len(text) // 2000, f"{path} is not minified"


MODULE_SPECIFIER = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.[^"']*)["']""")


def test_the_page_module_graph_resolves(site_dir):
    """From js/app.js, every static and dynamic import names a file of dist/, every game
    screen is among them, and no script of js/ is left unreachable."""
    seen, todo = set(), [JS_ENTRY]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        text = (site_dir / rel).read_text(encoding="utf-8")
        for specifier in MODULE_SPECIFIER.findall(text):
            assert specifier.startswith("./") and specifier.endswith(".js"), specifier
            target = f"{Path(rel).parent.as_posix()}/{specifier[2:]}"
            assert (site_dir / target).is_file(), f"{rel} imports {specifier}: not in dist/"
            todo.append(target)
    scripts = {rel for rel in dist_files(site_dir) if rel.startswith("js/")}
    assert seen == scripts
    screens = {CHUNK.fullmatch(rel)["name"] for rel in seen if CHUNK.fullmatch(rel)}
    assert set(GAME_SCREENS) <= screens
    # The engine worker is found relative to the script that starts it, which must stay in
    # js/ for "../worker.js" to name dist/worker.js under any sub-path.
    starters = [
        rel
        for rel in seen
        if 'new URL("../worker.js",import.meta.url)' in (site_dir / rel).read_text()
    ]
    assert starters and all(Path(rel).parent.as_posix() == "js" for rel in starters)
    # The worker is bundled on its own (js/worker-python.mjs in it): it imports no module.
    assert not MODULE_SPECIFIER.search((site_dir / "worker.js").read_text())


def test_the_qr_library_is_a_chunk_of_ours_loaded_on_demand(site_dir):
    """qrcode-generator (web/js/vendor/, drawn by web/js/features/together/qr.js) is bundled
    into one chunk of dist/js/, served from the site's own origin and precached by the service
    worker; the page's entry and the chunks it imports statically do not hold it (the first
    paint does not wait for it): js/features/together/share.js imports it when a link to scan
    is first on screen."""
    marker = "data:image/gif;base64,"  # a string of the library's that minifying keeps
    assert marker in (WEB / "js" / "vendor" / "qrcode-generator.mjs").read_text()
    holders = [rel for rel in dist_files(site_dir) if marker in read_text_or_empty(site_dir / rel)]
    assert len(holders) == 1 and CHUNK.fullmatch(holders[0])["name"] == "qr", holders
    chunk = holders[0]
    assert chunk in sw_build_data(site_dir)["files"]
    first_paint = [JS_ENTRY, *(f"js/{c[2:]}" for c in entry_chunks(site_dir))]
    assert chunk not in first_paint
    importers = [
        rel
        for rel in first_paint
        if f'import("./{Path(chunk).name}")' in (site_dir / rel).read_text(encoding="utf-8")
    ]
    assert importers, "the QR chunk is imported on demand by the page's own modules"


def read_text_or_empty(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.suffix in WEB_TEXT_SUFFIXES else ""


def test_the_page_links_one_stylesheet_with_every_part(site_dir):
    html = (site_dir / "index.html").read_text()
    assert re.findall(r'<link rel="stylesheet" href="([^"]+)">', html) == ["./css/app.css"]
    assert re.findall(
        r'<link rel="stylesheet" href="([^"]+)">', (WEB / "index.html").read_text()
    ) == ["./css/app.css"]
    # web/css/app.css imports every other stylesheet of web/css/, so none is left out...
    imports = re.findall(r'@import "\./([^"]+)";', (WEB / CSS_ENTRY).read_text())
    parts = {p.name for p in (WEB / "css").glob("*.css")} - {"app.css"}
    assert sorted(imports) == sorted(parts) and len(imports) == len(set(imports))
    # ...and dist/ has them all in one file, in that order.
    css = (site_dir / CSS_ENTRY).read_text()
    assert "@import" not in css
    assert [p for p in dist_files(site_dir) if p.endswith(".css")] == [CSS_ENTRY]
    first_rules = []
    for name in imports:
        text = re.sub(r"/\*.*?\*/", "", (WEB / "css" / name).read_text(), flags=re.S)
        selector = re.search(r"^([.#a-z][^{@,\n]*?)\s*[{,]", text, re.MULTILINE)
        if selector:
            first_rules.append(re.sub(r"\s+", "", selector.group(1)))
    positions = [css.replace(" ", "").find(sel) for sel in first_rules]
    assert len(first_rules) >= len(imports) // 2 and -1 not in positions


def test_dist_html_is_squeezed_but_the_same_page(site_dir):
    """The same page with less white space; the build adds to index.html only the module
    preloads of the app's chunks and the meta tag naming the game screens' (see
    test_index_preloads_every_chunk_...)."""
    for rel in ["index.html"] + [f"rules/{p.name}" for p in (WEB / "rules").glob("*.html")]:
        source, built = (WEB / rel).read_text(), (site_dir / rel).read_text()
        built = re.sub(r'\n<link rel="modulepreload" href="[^"]+">', "", built)
        built = re.sub(r'\n<meta name="parlour:after-menu" content="[^"]+">', "", built)
        assert "\n " not in built and len(built) < len(source)
        assert re.sub(r"\s+", " ", built).strip() == re.sub(r"\s+", " ", source).strip(), rel


def test_squeeze_html_keeps_pre_and_attributes():
    text = (
        '<div>\n    <p title="a\n    b">one\n   two</p>\n  <pre>\n  keep\n    this</pre>\n'
        "  <textarea>\n x</textarea>\n</div>\n\n"
    )
    assert squeeze_html(text) == (
        '<div>\n<p title="a\n    b">one\ntwo</p>\n<pre>\n  keep\n    this</pre>\n'
        "<textarea>\n x</textarea>\n</div>\n"
    )


def png_pixels(data: bytes) -> tuple[int, list[tuple[int, int, int, int]]]:
    """Size and RGBA pixels of one of our palette PNGs (8-bit, no filter, one IDAT)."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = {}, 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        assert kind not in chunks
        chunks[kind] = data[at + 8 : at + 8 + length]
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert (width, depth, colour) == (height, 8, 3), "an 8-bit palette PNG"
    palette = [tuple(chunks[b"PLTE"][i : i + 3]) for i in range(0, len(chunks[b"PLTE"]), 3)]
    alphas = chunks.get(b"tRNS", b"")
    rgba = [(*c, alphas[i] if i < len(alphas) else 255) for i, c in enumerate(palette)]
    raw = zlib.decompress(chunks[b"IDAT"])
    assert len(raw) == height * (width + 1)
    pixels = []
    for y in range(height):
        row = raw[y * (width + 1) : (y + 1) * (width + 1)]
        assert row[0] == 0
        pixels += [rgba[i] for i in row[1:]]
    return width, pixels


def test_png_icons_are_drawn_at_their_sizes(site_dir):
    for size, purpose in draw_icons.SIZES:
        name = draw_icons.icon_name(size, purpose)
        data = (WEB / "icons" / name).read_bytes()
        assert (site_dir / "icons" / name).read_bytes() == data
        width, pixels = png_pixels(data)
        assert width == size
        # Opaque green in the middle of the tile's edge; the corners are transparent
        # unless the icon is maskable (full bleed); white cards and a red heart inside.
        assert pixels[(size // 2) * size] == (0x1F, 0x4D, 0x3A, 255)
        assert pixels[0][3] == (255 if purpose == "maskable" else 0)
        colours = set(pixels)
        assert (0xFD, 0xFB, 0xF5, 255) in colours and (0xC0, 0x39, 0x2B, 255) in colours
        assert len(data) < size * size / 20  # a few bytes per row: flat colours compress


@pytest.mark.slow
def test_committed_icons_are_what_draw_icons_draws():
    """web/icons/*.png are tools/draw_icons.py's output (pixels compared, not the zlib
    stream, which may differ between zlib versions)."""
    for size, purpose in draw_icons.SIZES:
        committed = (WEB / "icons" / draw_icons.icon_name(size, purpose)).read_bytes()
        assert png_pixels(draw_icons.draw_icon(size, purpose)) == png_pixels(committed)


def test_the_site_root_has_a_favicon_of_the_same_drawing(site_dir):
    """Browsers ask the root for /favicon.ico when a document names no icon (a JSON file
    opened in a tab): the site answers with the committed drawing, not a 404."""
    data = (site_dir / "favicon.ico").read_bytes()
    assert data == (WEB / "favicon.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind, count) == (0, 1, 1)
    width, height, *_rest, length, offset = struct.unpack("<BBBBHHII", data[6:22])
    assert (width, height) == (draw_icons.FAVICON_SIZE, draw_icons.FAVICON_SIZE)
    image = data[offset : offset + length]
    assert offset + length == len(data)
    assert png_pixels(image) == png_pixels(draw_icons.draw_icon(draw_icons.FAVICON_SIZE, "any"))


def test_the_page_declares_the_policy_the_server_sends():
    html = (WEB / "index.html").read_text()
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', html)
    assert found and found.group(1) == CONTENT_SECURITY_POLICY


def test_runtime_files_are_the_pinned_pyodide(site_dir, info):
    assert info["pyodide_version"] == PYODIDE_VERSION
    runtime = fetch_pyodide()
    for name in PYODIDE_FILES:
        if name != "python_stdlib.zip":
            assert (site_dir / "pyodide" / name).read_bytes() == (runtime / name).read_bytes()
    lock = json.loads((site_dir / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["arch"] == "wasm32"
    assert (site_dir / "pyodide" / "pyodide.asm.wasm").read_bytes()[:4] == b"\0asm"
    assert f'"{PYODIDE_VERSION}"' in (site_dir / "pyodide" / "pyodide.mjs").read_text()


def test_the_standard_library_is_trimmed_by_the_keep_list(site_dir):
    shipped = site_dir / "pyodide" / "python_stdlib.zip"
    full = fetch_pyodide() / "python_stdlib.zip"
    with zipfile.ZipFile(shipped) as trimmed, zipfile.ZipFile(full) as whole:
        names = trimmed.namelist()
        assert trimmed.testzip() is None
        kept = selected_members(whole.namelist(), load_keep())
        # Each kept source is shipped as its bytecode, every other kept file as it is.
        expected = sorted(n + "c" if n.endswith(".py") else n for n in kept if not n.endswith("/"))
        assert names == expected
        headers = {trimmed.read(n)[:16] for n in names if n.endswith(".pyc")}
        magics = {h[:4] for h in headers}
        assert len(magics) == 1 and next(iter(magics))[2:] == b"\r\n"
        # Unchecked hash-based (PEP 552 flags 0b01): never compared with a source it lacks.
        assert {int.from_bytes(h[4:8], "little") for h in headers} == {1}
        for name in ("json/__init__.pyc", "random.pyc", "encodings/cp437.pyc"):
            assert name in names
    assert shipped.read_bytes() == trimmed_stdlib(fetch_pyodide()).read_bytes()
    assert shipped.stat().st_size < 0.6 * full.stat().st_size


def test_micropip_is_the_pinned_wheel_compiled(site_dir, info):
    # The pinned wheel from PyPI, each module a sourceless .pyc, every other member as it was.
    assert info["micropip_wheel"] == MICROPIP_WHEEL
    pinned = CACHE / MICROPIP_WHEEL
    assert sha256_file(pinned) == MICROPIP_SHA256
    with (
        zipfile.ZipFile(pinned) as source,
        zipfile.ZipFile(site_dir / "wheels" / MICROPIP_WHEEL) as shipped,
    ):
        names = {i.filename for i in source.infolist() if not i.is_dir()}
        compiled = {n + "c" if n.endswith(".py") else n for n in names}
        assert set(shipped.namelist()) == compiled
        assert "micropip/__init__.pyc" in compiled
        for name in names - {n for n in names if n.endswith(".py")}:
            assert shipped.read(name) == source.read(name), name


def test_build_info_is_consistent(site_dir, info):
    assert set(info) == {"build_id", "engine_wheel", "micropip_wheel", "pyodide_version"}
    assert (site_dir / "wheels" / info["engine_wheel"]).is_file()
    assert re.fullmatch(r"[0-9a-f]{16}", info["build_id"])
    assert info["build_id"] == compute_build_id(site_dir, {"sw.js", "build-info.json"})
    assert sw_build_data(site_dir)["build_id"] == info["build_id"]


def test_build_id_changes_with_the_content(site_dir, info, tmp_path):
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(site_dir, copy)
    (copy / "index.html").write_text((copy / "index.html").read_text() + "\n<!-- -->\n")
    assert compute_build_id(copy, {"sw.js", "build-info.json"}) != info["build_id"]


def test_service_worker_precaches_every_file(site_dir):
    data = sw_build_data(site_dir)
    files = data["files"]
    assert files[0] == "./"
    assert len(files) == len(set(files))
    expected = set(dist_files(site_dir)) - {"sw.js", ".nojekyll"}
    assert set(files[1:]) == expected
    assert all(not f.startswith("/") and "://" not in f for f in files)


def test_source_service_worker_is_valid_before_stamping():
    text = (WEB / "sw.js").read_text()
    begin = text.index(SW_MARK_BEGIN) + len(SW_MARK_BEGIN)
    assert json.loads(text[begin : text.index(SW_MARK_END)]) == {"build_id": "dev", "files": []}


def test_web_files_use_relative_urls_only(site_dir):
    bad = []
    patterns = [
        re.compile(r"""(?:src|href|action)\s*=\s*["']\s*/"""),  # root-relative
        re.compile(r"""(?:src|href|action)\s*=\s*["']\s*(?:https?:)?//"""),  # other hosts
        re.compile(r"""\b(?:import|from)\s*\(?\s*["'](?:/|https?:|//)"""),  # module imports
        re.compile(r"""\b(?:fetch|importScripts|Worker|register)\s*\(\s*["'](?:/|https?:|//)"""),
        re.compile(r"""url\(\s*["']?\s*(?:/|https?:|//)"""),  # css
    ]
    for rel in dist_files(site_dir):
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
    assert all("src=" in attrs and not body.strip() for attrs, body in scripts), (
        "the page runs under a CSP without 'unsafe-inline': no inline scripts"
    )
    assert not re.search(r"\son[a-z]+\s*=", html), "no inline event handlers"


def test_index_preloads_every_chunk_the_app_imports_statically(site_dir):
    """The shared chunks js/app.js imports (and theirs) are named in index.html as module
    preloads, so they come with app.js and not one round trip later; the shared chunks the
    game screens import are named in its after-menu meta tag, which the page preloads once
    the menu is drawn (web/js/after-menu.js), so that a game's module, asked for when its
    set-up screen opens, needs no second round trip before the table, while the menu's own
    files keep the page's connections to themselves (no more than six requests with
    app.js: an HTTP/1.1 host gives a page six). The game screens themselves, loaded when a
    game starts, are in neither."""
    js = site_dir / "js"
    entry, later = entry_chunks(site_dir), screen_chunks(site_dir)
    assert entry, "the bundle has shared chunks (esbuild --splitting)"
    assert set(static_imports((js / "app.js").read_text())) <= set(entry)
    games = {path.stem for path in (WEB / "js" / "games").glob("*.js")}
    screens = [
        p for p in js.glob("*.js") if (m := CHUNK.fullmatch(f"js/{p.name}")) and m["name"] in games
    ]
    assert len(screens) == len(games)
    for screen in screens:
        assert set(static_imports(screen.read_text())) <= set(entry + later), screen.name
    assert later, "the game screens share a chunk the app does not import"
    html = (site_dir / "index.html").read_text()
    preloads = re.findall(r'<link rel="modulepreload" href="\./js/([^"]+)">', html)
    assert sorted(preloads) == sorted(c[2:] for c in entry)
    (after_menu,) = re.findall(r'<meta name="parlour:after-menu" content="([^"]+)">', html)
    assert after_menu.split() == [f"./js/{c[2:]}" for c in later]
    assert all((js / name).is_file() for name in preloads + [c[2:] for c in later])
    assert html.index('src="./js/app.js"') < html.index("modulepreload")
    assert not any(re.match(r"(roundup|progression|mhing|crisps|spite)-", p) for p in preloads)
    # The stylesheet, app.js and its chunks: the menu's requests, all at once.
    assert 2 + len(preloads) <= 6, preloads


def test_static_imports_leave_dynamic_imports_out():
    module = 'import{a as b}from"./chunk-A.js";import"./chunk-B.js";x=()=>import("./game-C.js")'
    assert static_imports(module) == ["./chunk-A.js", "./chunk-B.js"]


def test_rebuild_is_deterministic(site_dir, info, tmp_path):
    again = tmp_path / "dist"
    assert build_site(again, quiet=True) == info
    for rel in dist_files(site_dir):
        assert (
            hashlib.sha256((site_dir / rel).read_bytes()).digest()
            == hashlib.sha256((again / rel).read_bytes()).digest()
        ), rel


# ----- the server --------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(site_dir):
    server, url = start_server([("/parlour/", site_dir), ("/", site_dir)])
    yield url
    server.shutdown()
    server.server_close()


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.mark.parametrize(
    "path,mime",
    [
        ("", "text/html"),
        ("index.html", "text/html"),
        ("sw.js", "text/javascript"),
        ("worker.js", "text/javascript"),
        ("pyodide/pyodide.mjs", "text/javascript"),
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        ("build-info.json", "application/json"),
        ("pyodide/python_stdlib.zip", "application/zip"),
    ],
)
def test_server_sends_the_right_types(served, path, mime):
    for base in (served, served + "parlour/"):
        status, headers, _ = fetch(base + path)
        assert status == 200
        assert headers["Content-Type"].split(";")[0] == mime
        assert headers["Cache-Control"] == "no-cache"
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


def test_server_serves_the_wheel_and_queries(served, info):
    status, headers, body = fetch(served + "wheels/" + info["engine_wheel"])
    assert status == 200 and body[:2] == b"PK"
    assert "Content-Encoding" not in headers
    assert fetch(served + "?speed=0")[0] == 200


@pytest.mark.parametrize(
    "path", ["worker.js", "pyodide/pyodide.asm.wasm", "pyodide/pyodide-lock.json", "index.html"]
)
def test_server_gzips_like_a_static_host(served, site_dir, path):
    request = urllib.request.Request(served + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.read()) == (site_dir / path).read_bytes()


def test_server_refuses_what_is_not_there(served):
    assert fetch(served + "nope.js")[0] == 404
    assert fetch(served + "../build.py")[0] == 404
    assert fetch(served + "%2e%2e/build.py")[0] == 404
    status, headers, _ = fetch(served + "parlour")
    assert status == 200  # followed the redirect to /parlour/


# ----- the command line --------------------------------------------------------------


@pytest.fixture
def calls(monkeypatch) -> list[tuple]:
    """What build.main() asked the modules of tools/build/ to do, instead of doing it."""
    seen: list[tuple] = []
    monkeypatch.setattr(build, "build", lambda minify=True: seen.append(("build", minify)))
    monkeypatch.setattr(build, "serve", lambda *args: seen.append(("serve", *args)))
    monkeypatch.setattr(
        build, "run_tests", lambda args, fast=False: seen.append(("test", args, fast)) or 0
    )
    monkeypatch.setattr(build, "run_bench", lambda args: seen.append(("bench", args)) or 0)
    return seen


@pytest.mark.parametrize(
    "argv,expected",
    [
        ([], [("build", True)]),
        (["--no-minify"], [("build", False)]),
        (["build"], [("build", True)]),
        (["build", "--no-minify"], [("build", False)]),
        (["serve"], [("build", True), ("serve", build.DIST, "127.0.0.1", 8000)]),
        (
            ["serve", "--port", "9000", "--host", "0.0.0.0", "--no-minify"],
            [("build", False), ("serve", build.DIST, "0.0.0.0", 9000)],
        ),
        (["test"], [("test", [], False)]),
        (["test", "-k", "offline", "-x"], [("test", ["-k", "offline", "-x"], False)]),
        (
            ["test", "--fast", "-x", "tests/test_cli.py"],
            [("test", ["-x", "tests/test_cli.py"], True)],
        ),
        (["bench", "--runs", "3"], [("bench", ["--runs", "3"])]),
    ],
)
def test_command_line_runs_each_command_with_its_flags(calls, argv, expected):
    assert build.main(argv) == 0
    assert calls == expected


def test_command_line_refuses_unknown_arguments(calls, capsys):
    with pytest.raises(SystemExit):
        build.main(["build", "--fast"])
    assert "unrecognized arguments: --fast" in capsys.readouterr().err and calls == []


def test_test_command_steps(monkeypatch, tmp_path):
    """--fast: ruff check, then the unit tests without a browser or a build; the full
    command: the four lint and type checks, then pytest over testpaths with dist/ built.
    Every step runs, and a failure names the command that fixes it."""
    ran: list[list[str]] = []

    def run(command, **kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 1 if "format" in command else 0)

    python = tmp_path / "python"
    monkeypatch.setattr(test_command, "ensure_venv", lambda: python)
    monkeypatch.setattr(test_command, "ensure_tools", lambda: tmp_path / "node_modules")
    monkeypatch.setattr(test_command, "eslint_command", lambda modules: ["eslint", "web"])
    monkeypatch.setattr(test_command, "ensure_chromium", lambda: ran.append(["chromium"]))
    monkeypatch.setattr(test_command, "build", lambda: ran.append(["build"]))
    monkeypatch.setattr(test_command.subprocess, "run", run)
    monkeypatch.setenv("PARLOUR_TEST_WORKERS", "3")
    workers = ["-n", "3", "--dist", "loadgroup"]
    assert test_command.run_tests(["-x"], fast=True) == 0
    assert ran == [
        [str(python), "-m", "ruff", "check", "."],
        [str(python), "-m", "pytest", "tests", "-m", "not slow and not build", *workers, "-x"],
    ]
    ran.clear()
    assert test_command.run_tests([]) == 1
    # The site builds in a thread while the .venv and the lint steps are seen to: it is done,
    # once, before pytest starts.
    assert ran.count(["build"]) == 1 and ran.index(["build"]) < len(ran) - 1
    ran.remove(["build"])
    assert ran == [
        [str(python), "-m", "ruff", "check", "."],
        [str(python), "-m", "ruff", "format", "--check", "--output-format=concise", "."],
        [str(python), "-m", "mypy"],
        ["eslint", "web"],
        ["chromium"],
        [str(python), "-m", "pytest", *workers],
    ]
    # A build that fails stops the command before pytest, after the lint steps have run.
    ran.clear()

    def broken_build():
        raise BuildError("the wheel did not build")

    monkeypatch.setattr(test_command, "build", broken_build)
    with pytest.raises(BuildError, match="the wheel did not build"):
        test_command.run_tests([])
    assert [str(python), "-m", "mypy"] in ran
    assert not any("pytest" in command for command in ran)


def test_the_browser_tests_take_the_headless_shell_then_the_full_browser(monkeypatch, tmp_path):
    """PARLOUR_CHROMIUM first, then Debian's headless shell (its binary, which closing the
    browser ends, rather than the script on the PATH that runs it), then chromium."""
    on_path: dict[str, str] = {}
    monkeypatch.setattr(test_command.shutil, "which", lambda name: on_path.get(name))
    monkeypatch.delenv("PARLOUR_CHROMIUM", raising=False)
    assert test_command.find_chromium() is None
    on_path["chromium"] = "/usr/bin/chromium"
    assert test_command.find_chromium() == "/usr/bin/chromium"
    script = tmp_path / "chromium-headless-shell"
    on_path["chromium-headless-shell"] = str(script)
    binary = Path("/usr/lib/chromium/chromium-headless-shell")
    assert test_command.find_chromium() == (str(binary) if binary.is_file() else str(script))
    monkeypatch.setenv("PARLOUR_CHROMIUM", "/opt/chrome")
    assert test_command.find_chromium() == "/opt/chrome"


def test_the_test_command_installs_the_headless_shell_or_falls_back(monkeypatch):
    """A machine without the shell gets it from apt-get; when apt-get fails, a chromium
    already on the PATH runs the tests, and with neither the command stops and says why."""
    on_path = {"apt-get": "/usr/bin/apt-get", "chromium": "/usr/bin/chromium"}
    ran: list[list[str]] = []
    fails: list[bool] = [False]

    def run(command, **kwargs):
        ran.append(command)
        if fails[0]:
            return subprocess.CompletedProcess(command, 100, "", "E: Unable to locate package")
        if command[-1] == "chromium-headless-shell":
            on_path["chromium-headless-shell"] = "/usr/bin/chromium-headless-shell"
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(test_command.shutil, "which", lambda name: on_path.get(name))
    monkeypatch.setattr(test_command.subprocess, "run", run)
    monkeypatch.setattr(test_command.os, "geteuid", lambda: 0)
    monkeypatch.delenv("PARLOUR_CHROMIUM", raising=False)
    test_command.ensure_chromium()
    assert ran == [
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", "chromium-headless-shell"],
    ]
    ran.clear()
    test_command.ensure_chromium()  # there now: nothing to do
    assert ran == []
    del on_path["chromium-headless-shell"]
    fails[0] = True
    test_command.ensure_chromium()  # apt-get fails: chromium does
    assert ran == [["apt-get", "update"]]
    del on_path["chromium"]
    with pytest.raises(BuildError, match="could not install Chromium"):
        test_command.ensure_chromium()


def test_tests_of_one_group_run_in_one_worker(tmp_path, monkeypatch):
    """The test command's ``--dist loadgroup`` keeps a group (``xdist_group``: a browser
    module's shared page, the build tests, a golden match's pair) in one worker. It rests on
    the pinned pytest and pytest-xdist agreeing on how a test's id carries its group, which
    pytest 9.2.0 with pytest-xdist 3.8.0 do not: every test then runs wherever it is sent."""
    (tmp_path / "test_groups.py").write_text(
        "import os, pytest\n"
        "def note(name):\n"
        "    with open(name, 'a') as f:\n"
        "        f.write(os.environ['PYTEST_XDIST_WORKER'] + '\\n')\n"
        "@pytest.mark.parametrize('n', range(8))\n"
        "@pytest.mark.xdist_group('together')\n"
        "def test_grouped(n):\n"
        "    note('workers.txt')\n"
        "@pytest.mark.parametrize('n', range(8))\n"
        "@pytest.mark.build\n"
        "def test_built(n):\n"
        "    note('built.txt')\n"
        "@pytest.mark.parametrize('n', range(8))\n"
        "def test_spread(n):\n"
        "    pass\n"
    )
    # The group that tests/conftest.py gives the build tests, in its own hook (e2e/conftest.py
    # groups a browser module's tests the same way): it must come before pytest-xdist's.
    (tmp_path / "conftest.py").write_text(
        "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_groups.py",
            *test_command.parallel_args(),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("workers.txt", "built.txt"):
        workers = (tmp_path / name).read_text().split()
        assert len(workers) == 8 and len(set(workers)) == 1, (name, workers)


def test_the_private_network_namespace_is_settled_before_it_is_used():
    """The namespace of the play-together browser tests: its loopback and veth pair are up,
    with their IPv4 addresses only. A link-local IPv6 address would settle a moment later, and
    Chromium, already started, would abandon what it was loading."""
    from tests.helpers import namespace_unavailable
    from tools.netns import Unavailable, inside, private_namespace

    try:
        with private_namespace(f"parlour-test-{os.getpid()}") as name:
            shown = subprocess.run(
                inside(name, ["ip", "-o", "addr"]), capture_output=True, text=True, check=True
            ).stdout
            links = subprocess.run(
                inside(name, ["ip", "-o", "link"]), capture_output=True, text=True, check=True
            ).stdout
    except Unavailable as reason:
        namespace_unavailable(reason)
    addresses = sorted(line.split()[3] for line in shown.splitlines())
    assert addresses == ["10.77.0.1/24", "10.77.0.2/24", "127.0.0.1/8"]
    assert "inet6" not in shown
    assert links.count("LOWER_UP") == 3
