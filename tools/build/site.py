"""dist/: web/ (bundled and minified by esbuild, or copied as it is), the Pyodide runtime
(its standard library trimmed), micropip and the engine wheel, with the service worker
stamped with the build's id and files."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from . import DIST, ROOT, WEB, BuildError, say, sha256_file
from .catalog import CATALOG, write_catalog
from .node import ensure_tools, run_esbuild
from .openings import write_openings
from .runtime import (
    PYODIDE_FILES,
    PYODIDE_VERSION,
    compiled_micropip,
    fetch_pyodide,
    trimmed_stdlib,
)
from .wheel import build_wheel, web_wheel

# Filled into dist/sw.js: the text between these markers is replaced by the build's data.
SW_MARK_BEGIN = "/*BUILD*/"
SW_MARK_END = "/*END-BUILD*/"

# Files never copied from web/ into dist/.
IGNORED_NAMES = {".DS_Store", "Thumbs.db", "__pycache__"}

# In a minified build these parts of web/ reach dist/ through the bundler, not as copies:
# js/ becomes js/app.js plus one chunk per game screen (loaded when that game starts) and a
# few shared chunks; css/ becomes css/app.css (web/css/app.css @imports the others); the
# engine worker (js/worker-python.mjs bundled in) and the service worker stay scripts of
# their own, minified.
JS_ENTRY = "js/app.js"
CSS_ENTRY = "css/app.css"
BUNDLED_DIRS = ("js", "css")
STANDALONE_SCRIPTS = ("worker.js", "sw.js")

# Flags for every file: minified, UTF-8 left as it is (no \u escapes), no license comments
# (the sources have none; ours is the repository's).
ESBUILD_COMMON = ["--minify", "--charset=utf8", "--legal-comments=none"]


def bundle_web(modules: Path, staging: Path, web: Path = WEB) -> None:
    """Write the bundled and minified scripts and styles of ``web`` (web/ or its staging
    copy) into ``staging``."""
    # The page's modules: app.js keeps its place (js/app.js, so `new URL("../worker.js",
    # import.meta.url)` still finds the worker), and each `import("./games/<id>.js")`
    # becomes a chunk of its own next to it, named with a hash of its content. Run in ``web``
    # with a relative entry: the hashes also cover the modules' paths from where esbuild runs.
    # js/catalog.js (the engine's game listing, tools/build/catalog.py) stays a module of its
    # own, as the build wrote it: JSON that no minifier shrinks, and what tests/test_catalog.py
    # reads of the built site. index.html preloads it with the other chunks of app.js.
    run_esbuild(
        modules,
        [
            JS_ENTRY,
            "--bundle",
            "--format=esm",
            "--splitting",
            f"--external:./{Path(CATALOG).name}",
            f"--outdir={staging / Path(JS_ENTRY).parent}",
            *ESBUILD_COMMON,
        ],
        cwd=web,
    )
    shutil.copy2(web / CATALOG, staging / CATALOG)
    run_esbuild(
        modules,
        [str(web / CSS_ENTRY), "--bundle", f"--outfile={staging / CSS_ENTRY}", *ESBUILD_COMMON],
    )
    worker = run_esbuild(
        modules, ["worker.js", "--bundle", "--format=esm", *ESBUILD_COMMON], cwd=web
    )
    (staging / "worker.js").write_text(worker, encoding="utf-8")
    # The service worker is minified with its build data set aside (a minifier drops the
    # marker comments), then put back between the markers for stamp_service_worker().
    source = (web / "sw.js").read_text(encoding="utf-8")
    begin, end = source.find(SW_MARK_BEGIN), source.find(SW_MARK_END)
    if begin < 0 or end < begin:
        raise BuildError(f"web/sw.js lacks the {SW_MARK_BEGIN}...{SW_MARK_END} markers")
    placeholder = "__PARLOUR_BUILD_DATA__"
    data = source[begin : end + len(SW_MARK_END)]
    minified = run_esbuild(
        modules,
        ["--loader=js", "--sourcefile=sw.js", *ESBUILD_COMMON],
        stdin=source[:begin] + placeholder + source[end + len(SW_MARK_END) :],
    )
    if minified.count(placeholder) != 1:
        raise BuildError("the minified service worker lost its build data")
    (staging / "sw.js").write_text(minified.replace(placeholder, data), encoding="utf-8")


def static_imports(module: str) -> list[str]:
    """The relative paths a bundled module imports statically (``import ... from "./x.js"``
    or ``import "./x.js"``), in order; not the dynamic ``import("./x.js")`` of a game screen."""
    found = re.findall(r'(?:\bfrom|\bimport)\s*"(\./[^"]+\.js)"', module)
    return list(dict.fromkeys(found))


def imported_chunks(folder: Path, modules: list[Path], known: list[str]) -> list[str]:
    """The chunks ``modules`` (files of ``folder``) import statically, and those they import
    in turn, less ``known``: paths relative to ``folder`` (``./chunk-X.js``), in the order met."""
    chunks: list[str] = []
    pending = [c for module in modules for c in static_imports(module.read_text(encoding="utf-8"))]
    while pending:
        chunk = pending.pop(0)
        if chunk not in chunks and chunk not in known:
            chunks.append(chunk)
            pending += static_imports((folder / chunk).read_text(encoding="utf-8"))
    return chunks


def entry_chunks(site: Path) -> list[str]:
    """The chunks js/app.js of a bundled ``site`` imports statically, and those they import in
    turn, as paths relative to js/ (``./chunk-X.js``), in the order met."""
    entry = site / JS_ENTRY
    return imported_chunks(entry.parent, [entry], [])


def screen_chunks(site: Path) -> list[str]:
    """The shared chunks the game screens of a bundled ``site`` import statically (each
    web/js/games/<id>.js is a chunk of its own, js/<id>-<hash>.js, that the page imports when
    its game's set-up screen opens), and those they import in turn, that entry_chunks() does
    not hold already; paths relative to js/."""
    folder = (site / JS_ENTRY).parent
    names = {path.stem for path in (WEB / "js" / "games").glob("*.js")}
    screens = sorted(
        path
        for path in folder.glob("*.js")
        if "-" in path.stem and path.stem.rsplit("-", 1)[0] in names
    )
    return imported_chunks(folder, screens, entry_chunks(site))


AFTER_MENU_META = "parlour:after-menu"
"""index.html's meta tag naming the modules the page preloads once the menu is drawn."""


def preload_entry_chunks(staging: Path) -> None:
    """Name in index.html as module preloads the shared chunks that js/app.js imports: the
    browser then fetches them together with app.js instead of one round trip after it (most
    of what the menu waits for on a slow line). The shared chunks the game screens import are
    named in a meta tag (AFTER_MENU_META) that the page preloads once the menu is drawn
    (web/js/after-menu.js): not one round trip after a game's own module (between Start and
    the table), and not beside the menu's own modules either, where an HTTP/1.1 host's six
    connections a page gets would make one of them wait a round trip."""
    entry, screens = entry_chunks(staging), screen_chunks(staging)
    if not entry and not screens:
        return
    index = staging / "index.html"
    html = index.read_text(encoding="utf-8")
    script = f'<script type="module" src="./{JS_ENTRY}"></script>'
    if script not in html:
        raise BuildError(f"index.html lacks {script}")
    folder = Path(JS_ENTRY).parent.as_posix()
    links = "".join(
        f'\n<link rel="modulepreload" href="./{folder}/{chunk[2:]}">' for chunk in entry
    )
    if screens:
        later = " ".join(f"./{folder}/{chunk[2:]}" for chunk in screens)
        links += f'\n<meta name="{AFTER_MENU_META}" content="{later}">'
    index.write_text(html.replace(script, script + links), encoding="utf-8")


def squeeze_html(text: str) -> str:
    """HTML without indentation, trailing spaces or blank lines: outside tags, a run of white
    space that holds a line break becomes one line break, which renders the same (one
    space). Text inside <pre>, <textarea>, <script> and <style>, and every tag with its
    attributes, is kept as it is."""
    parts = re.split(r"(<[^>]*>)", text)
    keep = None  # the element whose content is being kept as it is
    for i, part in enumerate(parts):
        if i % 2:
            tag = re.match(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)", part)
            if tag:
                name = tag.group(2).lower()
                if (
                    not tag.group(1)
                    and keep is None
                    and name in ("pre", "textarea", "script", "style")
                ):
                    keep = name
                elif tag.group(1) and name == keep:
                    keep = None
        elif keep is None:
            parts[i] = re.sub(r"[ \t\r\f]*\n[ \t\r\n\f]*", "\n", part)
    return "".join(parts).strip() + "\n"


def dist_files(dist: Path) -> list[str]:
    """Every file of a built site, as sorted POSIX paths relative to it."""
    return sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())


def compute_build_id(dist: Path, skip: set[str]) -> str:
    digest = hashlib.sha256()
    for rel in dist_files(dist):
        if rel in skip:
            continue
        digest.update(rel.encode() + b"\0" + bytes.fromhex(sha256_file(dist / rel)))
    return digest.hexdigest()[:16]


def stamp_service_worker(sw_path: Path, build_id: str, files: list[str]) -> None:
    text = sw_path.read_text(encoding="utf-8")
    begin = text.find(SW_MARK_BEGIN)
    end = text.find(SW_MARK_END)
    if begin < 0 or end < begin:
        raise BuildError(f"web/sw.js lacks the {SW_MARK_BEGIN}...{SW_MARK_END} markers")
    data = json.dumps({"build_id": build_id, "files": files}, separators=(",", ":"))
    sw_path.write_text(text[: begin + len(SW_MARK_BEGIN)] + data + text[end:], encoding="utf-8")


def swap_into_place(staging: Path, dist: Path) -> None:
    """Replace ``dist`` by ``staging`` with renames, so a server never sees half a site and
    two builds running at once do not trip over each other."""
    for attempt in range(10):
        old = dist.with_name(f".dist-old-{os.getpid()}-{attempt}")
        try:
            os.replace(dist, old)
        except FileNotFoundError:
            pass
        try:
            os.replace(staging, dist)
            return
        except OSError:
            continue  # another build put its dist/ in place meanwhile: move it aside too
        finally:
            shutil.rmtree(old, ignore_errors=True)
    raise BuildError(f"could not put the new build in place at {dist}")


def build(
    dist: Path = DIST, quiet: bool = False, minify: bool = True, source: Path = WEB
) -> dict[str, str]:
    """Build the whole site into ``dist`` from ``source`` (web/, or a changed copy of it: the
    test of a release builds a second site that way); returns build-info.

    ``minify=False`` (build.py build --no-minify, for debugging) copies web/ as it is and
    ships the full engine wheel: no bundler, so no npm tools are needed either.
    """
    if not (source / "sw.js").is_file():
        raise BuildError("web/sw.js is missing")
    runtime = fetch_pyodide()
    stdlib_zip = trimmed_stdlib(runtime)
    micropip = compiled_micropip(runtime)
    wheel = build_wheel()
    modules = None
    if minify:
        modules = ensure_tools()
        wheel = web_wheel(wheel)
    staging = Path(tempfile.mkdtemp(prefix=".dist-", dir=dist.parent))
    # web/ as the site gets it: a copy with js/catalog.js (tools/build/catalog.py) and the
    # prepared openings (openings.json, tools/build/openings.py) written in.
    web = Path(tempfile.mkdtemp(prefix=".dist-web-", dir=dist.parent))

    def ignored(directory: str, names: list[str]) -> list[str]:
        skip = [n for n in names if n in IGNORED_NAMES]
        if minify and Path(directory) == web:  # these come from bundle_web()
            skip += [n for n in names if n in BUNDLED_DIRS or n in STANDALONE_SCRIPTS]
        return skip

    try:
        shutil.copytree(
            source,
            web,
            dirs_exist_ok=True,
            ignore=lambda _, names: sorted(IGNORED_NAMES & set(names)),
        )
        write_catalog(web)
        write_openings(web)
        shutil.copytree(web, staging, dirs_exist_ok=True, ignore=ignored)
        if modules is not None:
            bundle_web(modules, staging, web)
            preload_entry_chunks(staging)
            for page in staging.rglob("*.html"):
                page.write_text(squeeze_html(page.read_text(encoding="utf-8")), encoding="utf-8")
        (staging / "pyodide").mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            source = stdlib_zip if name == "python_stdlib.zip" else runtime / name
            shutil.copy2(source, staging / "pyodide" / name)
        (staging / "wheels").mkdir(exist_ok=True)
        shutil.copy2(wheel, staging / "wheels" / wheel.name)
        shutil.copy2(micropip, staging / "wheels" / micropip.name)
        (staging / ".nojekyll").write_bytes(b"")
        # The id covers everything except the two files that carry it.
        build_id = compute_build_id(staging, skip={"sw.js", "build-info.json"})
        info = {
            "build_id": build_id,
            "engine_wheel": wheel.name,
            "micropip_wheel": micropip.name,
            "pyodide_version": PYODIDE_VERSION,
        }
        (staging / "build-info.json").write_text(json.dumps(info, indent=1) + "\n")
        precache = ["./"] + [
            rel for rel in dist_files(staging) if rel not in ("sw.js", ".nojekyll")
        ]
        stamp_service_worker(staging / "sw.js", build_id, precache)
        swap_into_place(staging, dist)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(web, ignore_errors=True)
    if not quiet:
        size = sum((dist / rel).stat().st_size for rel in dist_files(dist))
        say(
            f"built {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist} "
            f"(build {build_id}{'' if minify else ', not minified'}, "
            f"{len(precache)} files to precache, {size / 1e6:.1f} MB)"
        )
    return info
