#!/usr/bin/env python3
"""Build, serve, test and benchmark Parlour's static site.

    python3 build.py [build] [--no-minify]
                                     build dist/ (engine wheel + Pyodide runtime + web/,
                                     bundled and minified unless --no-minify)
    python3 build.py serve [--port 8000] [--host 127.0.0.1]
                                     build, then serve dist/ over HTTP
    python3 build.py test [ARGS...]  all tests, unit and browser (sets up .venv and Chromium);
                                     ARGS go to pytest
    python3 build.py bench [--runs N]
                                     start-up and engine benchmarks (prints figures)

Standard library only, so it runs with the system python3 on a fresh machine. What it
downloads (the pinned Pyodide npm package, the pinned build tools of tools/package-lock.json,
the test dependencies) is cached in .cache/ and .venv/, so a rebuild with everything cached
takes seconds.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import http.server
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import urllib.parse
from pathlib import Path

from tools.build.catalog import write_catalog

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
REQUIREMENTS = ROOT / "requirements-test.txt"

PYODIDE_VERSION = "314.0.7"
# sha256 of the npm tarball pyodide-314.0.7.tgz: a changed download is refused.
PYODIDE_TARBALL_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# The only files of the package the page needs (the engine is pure Python, no packages).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")

# The page is built to run under this policy; the server sends it so every run checks it.
# index.html carries the same policy in a <meta http-equiv> (static hosts such as GitHub Pages
# send no headers); tests/e2e check that the two agree. No 'unsafe-inline' anywhere: the page
# has no inline script or style, and sets styles only through the CSSOM.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                           "connect-src 'self'; worker-src 'self'; style-src 'self'; "
                           "img-src 'self'; object-src 'none'; base-uri 'self'; "
                           "form-action 'none'")

# Headless Chromium for the browser tests and benchmarks. Without the background-networking
# flags Chromium contacts other hosts by itself, which the tests forbid.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# Filled into dist/sw.js: the text between these markers is replaced by the build's data.
SW_MARK_BEGIN = "/*BUILD*/"
SW_MARK_END = "/*END-BUILD*/"

# Files never copied from web/ into dist/.
IGNORED_NAMES = {".DS_Store", "Thumbs.db", "__pycache__"}

# The build tools (esbuild; Zopfli through tools/deflate.cjs), pinned with their lockfile in
# tools/ and installed by ensure_tools() with `npm ci` into .cache/. Only a minified build
# needs them.
TOOLS = ROOT / "tools"
# In a minified build these parts of web/ reach dist/ through the bundler, not as copies:
# js/ becomes js/app.js plus one chunk per game screen (loaded when that game starts) and a
# few shared chunks; css/ becomes css/app.css (web/css/app.css @imports the others); the
# engine worker and the service worker stay scripts of their own, minified.
JS_ENTRY = "js/app.js"
CSS_ENTRY = "css/app.css"
BUNDLED_DIRS = ("js", "css")
STANDALONE_SCRIPTS = ("worker.js", "sw.js")
# Modules of the engine the page never imports, left out of dist/'s wheel (see web_wheel()):
# the command line (python -m engine) and the arena and checks only it uses.
WEB_WHEEL_EXCLUDES = ("engine/__main__.py", "engine/checks.py", "engine/bots/arena.py")
WEB_WHEEL_VERSION = "2"  # bump when web_wheel() changes what it writes

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".woff2": "font/woff2",
}


def say(message: str) -> None:
    print(f"[build] {message}", flush=True)


class BuildError(Exception):
    pass


# ----- Pyodide -----------------------------------------------------------------------

def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_pyodide() -> Path:
    """The directory holding the five pinned runtime files, downloading them once."""
    target = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if all((target / name).is_file() for name in PYODIDE_FILES):
        return target
    CACHE.mkdir(exist_ok=True)
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file() or sha256_file(tarball) != PYODIDE_TARBALL_SHA256:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is needed once to fetch the Pyodide runtime "
                             f"(npm pack pyodide@{PYODIDE_VERSION}); install Node.js and npm")
        say(f"fetching pyodide@{PYODIDE_VERSION} from the npm registry")
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent",
                                   "--pack-destination", tmp],
                                  cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True)
            packed = list(Path(tmp).glob("pyodide-*.tgz"))
            if done.returncode != 0 or len(packed) != 1:
                raise BuildError(f"npm pack pyodide@{PYODIDE_VERSION} failed:\n"
                                 f"{done.stdout}{done.stderr}")
            os.replace(packed[0], tarball)
    actual = sha256_file(tarball)
    if actual != PYODIDE_TARBALL_SHA256:
        tarball.unlink()
        raise BuildError(f"pyodide-{PYODIDE_VERSION}.tgz has sha256 {actual}, "
                         f"expected {PYODIDE_TARBALL_SHA256}; refusing it")
    partial = Path(tempfile.mkdtemp(dir=CACHE))
    with tarfile.open(tarball, "r:gz") as archive:
        for name in PYODIDE_FILES:
            member = archive.getmember(f"package/{name}")
            source = archive.extractfile(member)
            if source is None:
                raise BuildError(f"{name} is not a file in the Pyodide package")
            with source, (partial / name).open("wb") as out:
                shutil.copyfileobj(source, out)
    shutil.rmtree(target, ignore_errors=True)
    os.replace(partial, target)
    return target


# ----- the engine wheel --------------------------------------------------------------

def engine_sources() -> list[Path]:
    files = [ROOT / "pyproject.toml"]
    if (ROOT / "README.md").is_file():
        files.append(ROOT / "README.md")  # the wheel's long description
    files += sorted(p for p in (ROOT / "engine").rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    return files


def build_wheel() -> Path:
    """The engine wheel, rebuilt only when engine/, pyproject.toml or README.md changed.

    pip builds it from a copy of the sources, so no build/ or *.egg-info lands in the tree.
    """
    digest = hashlib.sha256()
    for path in engine_sources():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    key = digest.hexdigest()[:16]
    cached = CACHE / "wheels" / key
    found = list(cached.glob("*.whl")) if cached.is_dir() else []
    if len(found) == 1:
        return found[0]
    say("building the engine wheel")
    CACHE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        source = Path(tmp) / "src"
        source.mkdir()
        for path in engine_sources():
            dest = source / path.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        if not (source / "README.md").exists():
            (source / "README.md").write_text("Parlour engine\n")
        out = Path(tmp) / "out"
        env = {**os.environ, "SOURCE_DATE_EPOCH": "315532800",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                               "-w", str(out), str(source)],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
        wheels = list(out.glob("*.whl")) if out.is_dir() else []
        if done.returncode != 0 or len(wheels) != 1:
            raise BuildError(f"building the engine wheel failed:\n{done.stdout}{done.stderr}")
        if not wheels[0].name.endswith("-py3-none-any.whl"):
            raise BuildError(f"the engine wheel must be pure Python, got {wheels[0].name}")
        shutil.rmtree(cached, ignore_errors=True)
        cached.mkdir(parents=True)
        final = cached / wheels[0].name
        shutil.copy2(wheels[0], final)
    return final


# ----- compression ---------------------------------------------------------------------
# The wheel and the PNG icons are DEFLATE streams. A minified build makes them with Zopfli
# (tools/deflate.cjs), a few percent smaller than zlib's best for the same format.

class Deflate:
    """Raw DEFLATE compression of many blobs at once: ``deflate(blobs) -> streams``."""

    name = "zlib"

    def __call__(self, blobs: list[bytes]) -> list[bytes]:
        import zlib

        streams = []
        for blob in blobs:
            packer = zlib.compressobj(9, zlib.DEFLATED, -15)
            streams.append(packer.compress(blob) + packer.flush())
        return streams


class Zopfli(Deflate):
    """Zopfli through node and the pinned @gfx/zopfli; each stream is kept in .cache/ by the
    hash of its input, and checked to inflate back to it."""

    name = "zopfli"

    def __init__(self, modules: Path) -> None:
        self.modules = modules
        self.cache = CACHE / "zopfli" / modules.parent.name

    def __call__(self, blobs: list[bytes]) -> list[bytes]:
        import zlib

        keys = [hashlib.sha256(blob).hexdigest() for blob in blobs]
        missing = {key: blob for key, blob in zip(keys, blobs)
                   if not (self.cache / key).is_file()}
        if missing:
            node = shutil.which("node")
            if node is None:
                raise BuildError("node is needed to run the build tools; install Node.js, or "
                                 "build with --no-minify")
            self.cache.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
                order = sorted(missing)
                for number, key in enumerate(order):
                    (Path(tmp) / f"{number:06d}.in").write_bytes(missing[key])
                done = subprocess.run([node, str(TOOLS / "deflate.cjs"), tmp],
                                      env={**os.environ, "NODE_PATH": str(self.modules)},
                                      stdin=subprocess.DEVNULL, capture_output=True, text=True)
                if done.returncode != 0:
                    raise BuildError(f"tools/deflate.cjs failed:\n{done.stdout}{done.stderr}")
                for number, key in enumerate(order):
                    stream = (Path(tmp) / f"{number:06d}.out").read_bytes()
                    if zlib.decompress(stream, -15) != missing[key]:
                        raise BuildError("Zopfli's output does not inflate back to its input")
                    partial = self.cache / f".{key}.{os.getpid()}"
                    partial.write_bytes(stream)
                    os.replace(partial, self.cache / key)
        return [(self.cache / key).read_bytes() for key in keys]


def zlib_stream(data: bytes, deflate: Deflate | None = None) -> bytes:
    """``data`` in the zlib format (as PNG wants it), compressed by ``deflate``."""
    import struct
    import zlib

    if deflate is None:
        return zlib.compress(data, 9)
    return b"\x78\xda" + deflate([data])[0] + struct.pack(">I", zlib.adler32(data))


def write_zip(path: Path, entries: list[tuple[str, bytes]], deflate: Deflate) -> None:
    """A zip of ``entries`` (name, data), each deflated by ``deflate`` (or stored when that
    is not smaller), dated 1980-01-01 like pip's wheels, files readable by all."""
    import struct
    import zlib

    streams = deflate([data for _, data in entries])
    out = bytearray()
    central = bytearray()
    for (name, data), stream in zip(entries, streams):
        method, stored = (8, stream) if len(stream) < len(data) else (0, data)
        encoded = name.encode("utf-8")
        fields = (20, 0x800 if not name.isascii() else 0, method, 0, 0x21, zlib.crc32(data),
                  len(stored), len(data), len(encoded))
        central += struct.pack("<IH", 0x02014B50, 0x0314)
        central += struct.pack("<HHHHHIIIH", *fields) + struct.pack(
            "<HHHHII", 0, 0, 0, 0, 0o100644 << 16, len(out)) + encoded
        out += struct.pack("<I", 0x04034B50) + struct.pack("<HHHHHIIIH", *fields)
        out += struct.pack("<H", 0) + encoded + stored
    out += central + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries),
                                 len(central), len(out), 0)
    path.write_bytes(bytes(out))


# ----- icons -------------------------------------------------------------------------
# PNG icons for the web app manifest (installable pages need raster icons of 192 and 512
# pixels), drawn by code from the same shapes as web/icons/icon.svg: a green tile, two cards,
# a heart. Signed distances give anti-aliased edges without supersampling. Edge coverage is
# rounded to ICON_EDGE_LEVELS steps, so an icon has a few dozen colours and is written as a
# palette PNG (colour type 3, with a tRNS chunk for the rounded corners): under a quarter of
# the bytes of truecolour with alpha, and no visible difference. Cached in .cache/.

ICON_SIZES = ((192, "any"), (512, "any"), (512, "maskable"))
ICON_VERSION = "2"
ICON_EDGE_LEVELS = 4


def _png(width: int, height: int, pixels: list[tuple[int, int, int, int]],
         deflate: Deflate | None = None) -> bytes:
    """An 8-bit palette PNG of RGBA ``pixels`` (row by row; at most 256 colours)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    palette: dict[tuple[int, int, int, int], int] = {}
    for pixel in pixels:
        palette.setdefault(pixel, len(palette))
    if len(palette) > 256:
        raise BuildError(f"an icon has {len(palette)} colours, more than a palette holds")
    # Opaque colours last, so tRNS (alpha of the first entries) can stop before them.
    colours = sorted(palette, key=lambda c: (c[3] == 255, palette[c]))
    index = {colour: i for i, colour in enumerate(colours)}
    raw = b"".join(b"\0" + bytes(index[p] for p in pixels[y * width:(y + 1) * width])
                   for y in range(height))
    alphas = bytes(c[3] for c in colours).rstrip(b"\xff")
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", b"".join(bytes(c[:3]) for c in colours))
            + (chunk(b"tRNS", alphas) if alphas else b"")
            + chunk(b"IDAT", zlib_stream(raw, deflate)) + chunk(b"IEND", b""))


def _box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance from (px, py) to a rounded rectangle (negative inside)."""
    qx, qy = abs(px - cx) - (hw - r), abs(py - cy) - (hh - r)
    outside = (max(qx, 0.0) ** 2 + max(qy, 0.0) ** 2) ** 0.5
    return outside + min(max(qx, qy), 0.0) - r


def _rotate(px: float, py: float, cx: float, cy: float, degrees: float) -> tuple[float, float]:
    import math
    a = math.radians(-degrees)
    dx, dy = px - cx, py - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)


def _heart(px: float, py: float) -> float:
    """Signed distance (roughly) to a heart centred near (38, 32.5), as in icon.svg."""
    cx, cy, s = 38.0, 32.0, 4.2
    x, y = (px - cx) / s, (py - cy) / s
    lobes = min(((x + 0.9) ** 2 + (y + 0.1) ** 2) ** 0.5, ((x - 0.9) ** 2 + (y + 0.1) ** 2) ** 0.5) - 1.05
    rx, ry = _rotate(x, y - 0.55, 0.0, 0.0, 45.0)
    point = _box(rx, ry, 0.0, 0.0, 1.1, 1.1, 0.15)
    return min(lobes, point) * s


def _coverage(distance: float) -> float:
    """How much of a pixel a shape covers, from its signed distance in pixels, rounded."""
    cover = min(max(0.5 - distance, 0.0), 1.0)
    return round(cover * ICON_EDGE_LEVELS) / ICON_EDGE_LEVELS


def draw_icon(size: int, purpose: str, deflate: Deflate | None = None) -> bytes:
    green, paper, edge, red = (0x1F, 0x4D, 0x3A), (0xFD, 0xFB, 0xF5), (0xC9, 0xC2, 0xAD), (0xC0, 0x39, 0x2B)
    # The SVG is 64 units wide; a maskable icon keeps its content in the central 80%.
    scale = size / 64.0 if purpose == "any" else size / 64.0 * 0.8
    offset = 0.0 if purpose == "any" else size * 0.1
    unit = 1.0 / scale  # one pixel in SVG units: the width of an anti-aliased edge
    pixels = []
    for j in range(size):
        for i in range(size):
            x, y = (i + 0.5 - offset) / scale, (j + 0.5 - offset) / scale
            if purpose == "any":
                alpha = _coverage(_box(x, y, 32, 32, 32, 32, 14) / unit)
            else:
                alpha = 1.0  # maskable: full bleed, the platform crops it to its own shape
            if not alpha:
                pixels.append((0, 0, 0, 0))
                continue
            color = list(green)
            layers = []
            for (cx, cy, angle) in ((27.0, 30.0, -10.0), (38.0, 34.0, 8.0)):
                rx, ry = _rotate(x, y, cx, cy, angle)
                d = _box(rx, ry, cx, cy, 13.0, 18.0, 4.0)
                layers.append((edge, d - 0.75))
                layers.append((paper, d + 0.75))
                if angle > 0:
                    layers.append((red, _heart(rx, ry)))
            for paint, d in layers:
                cover = _coverage(d / unit)
                if cover:
                    color = [c + (p - c) * cover for c, p in zip(color, paint)]
            pixels.append((*(round(c) for c in color), round(alpha * 255)))
    return _png(size, size, pixels, deflate)


def icon_name(size: int, purpose: str) -> str:
    return f"icon-{size}{'-maskable' if purpose == 'maskable' else ''}.png"


def make_icons(target: Path, deflate: Deflate | None = None) -> None:
    """Write the PNG icons into ``target`` (from .cache/ when this version was drawn before),
    compressed with ``deflate`` (zlib's best when None)."""
    packer = "zlib" if deflate is None else deflate.name
    cache = CACHE / f"icons-v{ICON_VERSION}-edge{ICON_EDGE_LEVELS}-{packer}"
    cache.mkdir(parents=True, exist_ok=True)
    target.mkdir(parents=True, exist_ok=True)
    for size, purpose in ICON_SIZES:
        name = icon_name(size, purpose)
        if not (cache / name).is_file():
            partial = cache / (name + ".part")
            partial.write_bytes(draw_icon(size, purpose, deflate))
            os.replace(partial, cache / name)
        shutil.copy2(cache / name, target / name)


# ----- the wheel dist/ ships -------------------------------------------------------------
# The page runs the engine from a slimmer copy of the wheel: the same package and metadata,
# without the modules it never imports (WEB_WHEEL_EXCLUDES), without the long description
# (README.md) in METADATA, and with every module re-written from its syntax tree without
# docstrings, comments, function annotations and with one-space indentation. Nothing in the
# engine reads a docstring or an annotation at run time (dataclass fields are kept, they are
# class-level annotations). It still installs with pip like the full wheel.

class _Slim(ast.NodeTransformer):
    """Drops docstrings and function annotations from a module's syntax tree."""

    @staticmethod
    def _undoc(node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        body = node.body
        if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]

    def visit_Module(self, node: ast.Module) -> ast.AST:
        self._undoc(node)
        return self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self._undoc(node)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        self._undoc(node)
        node.returns = None
        args = node.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if arg is not None:
                arg.annotation = None
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef


def slim_python(source: str, name: str = "<module>") -> str:
    """``source`` without docstrings, comments or function annotations, indented by one
    space a level; the result is checked to parse to the same tree."""
    import io
    import tokenize

    tree = _Slim().visit(ast.parse(source, name))
    text = ast.unparse(tree) + "\n"
    # ast.unparse indents by four spaces. Lines that continue a multi-line token (a
    # triple-quoted string) keep theirs.
    inside: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        inside.update(range(token.start[0] + 1, token.end[0] + 1))
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if number in inside:
            continue
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if indent % 4 == 0:
            lines[number - 1] = " " * (indent // 4) + stripped
    slim = "\n".join(lines)
    if ast.dump(ast.parse(slim, name)) != ast.dump(ast.parse(text, name)):
        raise BuildError(f"slimming {name} changed its meaning")
    return slim


def _imported_modules(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module an import statement anywhere in ``tree`` may load (absolute names)."""
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[:len(parent) - (node.level - 1)]
                base = ".".join(parent + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def web_wheel(wheel: Path, deflate: Deflate | None = None) -> Path:
    """The wheel dist/ ships, made from ``wheel`` and compressed by ``deflate`` (zlib's best
    when None); cached next to ``wheel``."""
    import base64
    import zipfile

    deflate = deflate or Deflate()
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    target = (wheel.parent / f"web-v{WEB_WHEEL_VERSION}-py{version}-{deflate.name}"
              / wheel.name)
    if target.is_file():
        return target
    dropped = {name[:-len(".py")].replace("/", ".").removesuffix(".__init__")
               for name in WEB_WHEEL_EXCLUDES}
    entries: list[tuple[str, bytes]] = []
    record = None
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            name, data = info.filename, archive.read(info)
            if name in WEB_WHEEL_EXCLUDES:
                continue
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            if name.endswith(".py"):
                source = data.decode("utf-8")
                module = name[:-len(".py")].replace("/", ".")
                is_package = module.endswith(".__init__")
                module = module.removesuffix(".__init__")
                needs = _imported_modules(ast.parse(source, name), module, is_package) & dropped
                if needs:
                    raise BuildError(f"{name} imports {', '.join(sorted(needs))}, which the "
                                     "wheel for the page leaves out (WEB_WHEEL_EXCLUDES)")
                data = slim_python(source, name).encode("utf-8")
            elif name.endswith(".dist-info/METADATA"):
                headers = data.decode("utf-8").split("\n\n", 1)[0].split("\n")
                data = "".join(line + "\n" for line in headers
                               if not line.startswith("Description-Content-Type:")).encode()
            entries.append((name, data))
    if record is None:
        raise BuildError(f"{wheel.name} has no RECORD")
    lines = []
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}\n")
    entries.append((record, ("".join(lines) + f"{record},,\n").encode()))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    write_zip(partial, entries, deflate)
    with zipfile.ZipFile(partial) as check:
        if check.testzip() is not None or check.namelist() != [n for n, _ in entries]:
            raise BuildError(f"the wheel written for the page is broken: {partial}")
    os.replace(partial, target)
    return target


# ----- bundling and minifying (dist/ only) ----------------------------------------------

def ensure_tools() -> Path:
    """node_modules/ with the pinned build tools of tools/, installed once per lockfile."""
    manifest, lock = TOOLS / "package.json", TOOLS / "package-lock.json"
    key = hashlib.sha256(manifest.read_bytes() + b"\0" + lock.read_bytes()).hexdigest()[:16]
    target = CACHE / f"tools-{key}"
    stamp = target / ".installed"
    if stamp.is_file():
        return target / "node_modules"
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is needed once to install the build tools (npm ci in tools/); "
                         "install Node.js and npm, or build with --no-minify")
    say("installing the build tools (npm ci, tools/package-lock.json)")
    CACHE.mkdir(exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".tools-", dir=CACHE))
    try:
        shutil.copy2(manifest, partial / manifest.name)
        shutil.copy2(lock, partial / lock.name)
        # --ignore-scripts: esbuild's install script only checks its binary, which comes in
        # a package of its own (@esbuild/<platform>), and ensure_tools() runs it anyway.
        done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                               "--loglevel=error"],
                              cwd=partial, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise BuildError(f"npm ci in tools/ failed:\n{done.stdout}{done.stderr}")
        (partial / ".installed").write_text(key + "\n")
        if target.exists() and not stamp.is_file():
            shutil.rmtree(target, ignore_errors=True)  # a broken earlier install
        try:
            os.replace(partial, target)
        except OSError:
            if not stamp.is_file():  # not another build that finished first: a real error
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    run_esbuild(target / "node_modules", ["--version"])
    return target / "node_modules"


def run_esbuild(modules: Path, args: list[str], stdin: str | None = None,
                cwd: Path | None = None) -> str:
    """Run the pinned esbuild with ``args`` (in ``cwd``); returns what it wrote to stdout."""
    launcher = modules / "esbuild" / "bin" / "esbuild"
    command = [str(launcher)]
    if launcher.read_bytes()[:2] == b"#!":  # the JavaScript launcher: run it with node
        node = shutil.which("node")
        if node is None:
            raise BuildError("node is needed to run esbuild; install Node.js, or build with "
                             "--no-minify")
        command = [node, str(launcher)]
    done = subprocess.run(command + args + ["--log-level=warning"], input=stdin, cwd=cwd,
                          capture_output=True, text=True, encoding="utf-8",
                          stdin=None if stdin is not None else subprocess.DEVNULL)
    if done.returncode != 0:
        raise BuildError(f"esbuild {' '.join(args)} failed:\n{done.stderr}")
    if done.stderr.strip():
        say(f"esbuild: {done.stderr.strip()}")
    return done.stdout


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
    run_esbuild(modules, [JS_ENTRY, "--bundle", "--format=esm", "--splitting",
                          f"--outdir={staging / Path(JS_ENTRY).parent}", *ESBUILD_COMMON],
                cwd=web)
    run_esbuild(modules, [str(web / CSS_ENTRY), "--bundle",
                          f"--outfile={staging / CSS_ENTRY}", *ESBUILD_COMMON])
    worker = run_esbuild(modules, ["--format=esm", "--loader=js", "--sourcefile=worker.js",
                                   *ESBUILD_COMMON],
                         stdin=(web / "worker.js").read_text(encoding="utf-8"))
    (staging / "worker.js").write_text(worker, encoding="utf-8")
    # The service worker is minified with its build data set aside (a minifier drops the
    # marker comments), then put back between the markers for stamp_service_worker().
    source = (web / "sw.js").read_text(encoding="utf-8")
    begin, end = source.find(SW_MARK_BEGIN), source.find(SW_MARK_END)
    if begin < 0 or end < begin:
        raise BuildError(f"web/sw.js lacks the {SW_MARK_BEGIN}...{SW_MARK_END} markers")
    placeholder = "__PARLOUR_BUILD_DATA__"
    data = source[begin:end + len(SW_MARK_END)]
    minified = run_esbuild(modules, ["--loader=js", "--sourcefile=sw.js", *ESBUILD_COMMON],
                           stdin=source[:begin] + placeholder + source[end + len(SW_MARK_END):])
    if minified.count(placeholder) != 1:
        raise BuildError("the minified service worker lost its build data")
    (staging / "sw.js").write_text(minified.replace(placeholder, data), encoding="utf-8")


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
                if not tag.group(1) and keep is None and name in ("pre", "textarea", "script",
                                                                  "style"):
                    keep = name
                elif tag.group(1) and name == keep:
                    keep = None
        elif keep is None:
            parts[i] = re.sub(r"[ \t\r\f]*\n[ \t\r\n\f]*", "\n", part)
    return "".join(parts).strip() + "\n"


# ----- dist/ -------------------------------------------------------------------------

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
    sw_path.write_text(text[:begin + len(SW_MARK_BEGIN)] + data + text[end:], encoding="utf-8")


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


def build(dist: Path = DIST, quiet: bool = False, minify: bool = True) -> dict[str, str]:
    """Build the whole site into ``dist``; returns build-info.

    ``minify=False`` (build.py build --no-minify, for debugging) copies web/ as it is and
    ships the full engine wheel: no bundler, so no npm tools are needed either.
    """
    if not (WEB / "sw.js").is_file():
        raise BuildError("web/sw.js is missing")
    runtime = fetch_pyodide()
    wheel = build_wheel()
    modules = None
    deflate = None
    if minify:
        modules = ensure_tools()
        deflate = Zopfli(modules)
        wheel = web_wheel(wheel, deflate)
    staging = Path(tempfile.mkdtemp(prefix=".dist-", dir=dist.parent))
    # web/ as the site gets it: a copy with js/catalog.js (tools/build/catalog.py) written in.
    web = Path(tempfile.mkdtemp(prefix=".dist-web-", dir=dist.parent))

    def ignored(directory: str, names: list[str]) -> list[str]:
        skip = [n for n in names if n in IGNORED_NAMES]
        if minify and Path(directory) == web:  # these come from bundle_web()
            skip += [n for n in names if n in BUNDLED_DIRS or n in STANDALONE_SCRIPTS]
        return skip

    try:
        shutil.copytree(WEB, web, dirs_exist_ok=True,
                        ignore=lambda _, names: [n for n in names if n in IGNORED_NAMES])
        write_catalog(web)
        shutil.copytree(web, staging, dirs_exist_ok=True, ignore=ignored)
        if modules is not None:
            bundle_web(modules, staging, web)
            for page in staging.rglob("*.html"):
                page.write_text(squeeze_html(page.read_text(encoding="utf-8")),
                                encoding="utf-8")
        (staging / "pyodide").mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(runtime / name, staging / "pyodide" / name)
        (staging / "wheels").mkdir(exist_ok=True)
        shutil.copy2(wheel, staging / "wheels" / wheel.name)
        make_icons(staging / "icons", deflate)
        (staging / ".nojekyll").write_bytes(b"")
        # The id covers everything except the two files that carry it.
        build_id = compute_build_id(staging, skip={"sw.js", "build-info.json"})
        info = {"build_id": build_id, "engine_wheel": wheel.name,
                "pyodide_version": PYODIDE_VERSION}
        (staging / "build-info.json").write_text(json.dumps(info, indent=1) + "\n")
        precache = ["./"] + [rel for rel in dist_files(staging)
                             if rel not in ("sw.js", ".nojekyll")]
        stamp_service_worker(staging / "sw.js", build_id, precache)
        swap_into_place(staging, dist)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(web, ignore_errors=True)
    if not quiet:
        size = sum((dist / rel).stat().st_size for rel in dist_files(dist))
        say(f"built {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist} "
            f"(build {build_id}{'' if minify else ', not minified'}, "
            f"{len(precache)} files to precache, {size / 1e6:.1f} MB)")
    return info


# ----- the server --------------------------------------------------------------------

class SiteHandler(http.server.BaseHTTPRequestHandler):
    """Serves directories mounted at URL prefixes, with the page's real headers.

    ``mounts`` is a list of (prefix, directory) pairs tried in order; a prefix ends in "/".
    Every response is sent with ``Cache-Control: no-cache`` (the service worker does the
    caching, the HTTP cache only revalidates) and the Content-Security-Policy the site is
    built for.
    """

    server_version = "Parlour"
    mounts: list[tuple[str, Path]] = []
    quiet = False
    send_csp = True
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    def _resolve(self, url_path: str) -> Path | None | str:
        for prefix, root in self.mounts:
            if url_path + "/" == prefix:
                return "redirect"
            if not url_path.startswith(prefix):
                continue
            rel = url_path[len(prefix):]
            parts = [p for p in rel.split("/") if p not in ("", ".")]
            if any(p == ".." for p in parts):
                return None
            candidate = root.joinpath(*parts) if parts else root
            if candidate.is_dir():
                candidate = candidate / "index.html"
            if candidate.is_file():
                return candidate
        return None

    def _serve(self, send_body: bool) -> None:
        url_path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        url_path = posixpath.normpath(url_path) + ("/" if url_path.endswith("/") else "")
        if url_path.startswith("//"):
            url_path = "/" + url_path.lstrip("/")
        found = self._resolve(url_path)
        if found == "redirect":
            self.send_response(301)
            self.send_header("Location", url_path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if not isinstance(found, Path):
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)
            return
        size = found.stat().st_size
        self.send_response(200)
        self.send_header("Content-Type", MIME_TYPES.get(found.suffix.lower(),
                                                        "application/octet-stream"))
        self.send_header("Content-Length", str(size))
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.send_csp:
            self.send_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.end_headers()
        if send_body:
            with found.open("rb") as handle:
                shutil.copyfileobj(handle, self.wfile)

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(mounts: list[tuple[str, Path]], host: str = "127.0.0.1", port: int = 0,
                quiet: bool = False, csp: bool = True) -> SiteServer:
    """An HTTP server for ``mounts`` (not yet serving; port 0 picks a free one). With
    ``csp=False`` it sends no Content-Security-Policy header, like most static hosts."""
    handler = type("MountedSiteHandler", (SiteHandler,),
                   {"mounts": [(p, Path(d)) for p, d in mounts], "quiet": quiet,
                    "send_csp": csp})
    return SiteServer((host, port), handler)


def start_server(mounts: list[tuple[str, Path]], host: str = "127.0.0.1",
                 port: int = 0, csp: bool = True) -> tuple[SiteServer, str]:
    """Serve ``mounts`` from a background thread; returns the server and its base URL."""
    server = make_server(mounts, host, port, quiet=True, csp=csp)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/"


def serve(host: str, port: int, minify: bool = True) -> None:
    build(minify=minify)
    server = make_server([("/", DIST)], host, port)
    url = f"http://{host}:{server.server_address[1]}/"
    say(f"serving dist/ on {url}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# ----- tests -------------------------------------------------------------------------

def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """.venv with the pinned test dependencies, reinstalled when the requirements change."""
    python = venv_python()
    if not python.exists():
        say("creating .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True,
                       stdin=subprocess.DEVNULL)
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    stamp = VENV / ".requirements-sha256"
    if not stamp.is_file() or stamp.read_text().strip() != wanted:
        say(f"installing the test dependencies ({REQUIREMENTS.name})")
        done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                               "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise BuildError(f"could not install {REQUIREMENTS.name} into .venv")
        stamp.write_text(wanted + "\n")
    return python


def find_chromium() -> str | None:
    explicit = os.environ.get("PARLOUR_CHROMIUM")
    if explicit:
        return explicit
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def ensure_chromium() -> None:
    """Install Debian's chromium when there is none (Playwright's own download is not used)."""
    explicit = os.environ.get("PARLOUR_CHROMIUM")
    if explicit:
        if not Path(explicit).exists():
            raise BuildError(f"PARLOUR_CHROMIUM={explicit} does not exist")
        return
    if find_chromium():
        return
    apt = shutil.which("apt-get")
    if apt is None:
        say("no 'chromium' on PATH and no apt-get: the browser tests will use Playwright's "
            "own browser if it is installed (python -m playwright install chromium), or set "
            "PARLOUR_CHROMIUM=/path/to/chromium")
        return
    prefix: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise BuildError("Chromium is missing; install it with 'apt-get install chromium' "
                             "as root, or set PARLOUR_CHROMIUM=/path/to/chromium")
        prefix = ["sudo", "-n"]
    say("Chromium is missing: installing it with apt-get (Debian's chromium package)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"],
                    ["apt-get", "install", "-y", "--no-install-recommends", "chromium"]):
        done = subprocess.run(prefix + command, stdin=subprocess.DEVNULL, env=env,
                              capture_output=True, text=True)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise BuildError(f"could not install Chromium: '{' '.join(prefix + command)}' "
                             f"failed (exit {done.returncode}):\n{tail}\n"
                             "Install Chromium yourself, or set PARLOUR_CHROMIUM to a "
                             "Chromium/Chrome executable, then run the tests again.")
    if not find_chromium():
        raise BuildError("apt-get installed chromium but no 'chromium' is on PATH; "
                         "set PARLOUR_CHROMIUM=/path/to/chromium")


def run_tests(pytest_args: list[str]) -> int:
    python = ensure_venv()
    ensure_chromium()
    build()
    env = {**os.environ, "PARLOUR_DIST_READY": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    command = [str(python), "-m", "pytest", "tests", "e2e", *pytest_args]
    say("running " + " ".join(command[1:]))
    return subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL).returncode


def run_bench(args: list[str]) -> int:
    python = ensure_venv()
    ensure_chromium()
    build()
    return subprocess.run([str(python), str(ROOT / "benchmarks" / "bench.py"), *args],
                          cwd=ROOT, stdin=subprocess.DEVNULL).returncode


# ----- command line ------------------------------------------------------------------

def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    serve_cmd = sub.add_parser("serve", help="build, then serve dist/")
    serve_cmd.add_argument("--port", type=int, default=8000)
    serve_cmd.add_argument("--host", default="127.0.0.1")
    no_minify = {"action": "store_true",
                 "help": "copy web/ as it is (readable, for debugging) and ship the full wheel"}
    serve_cmd.add_argument("--no-minify", **no_minify)
    sub.add_parser("test", help="all tests (extra arguments go to pytest)", add_help=False)
    sub.add_parser("bench", help="benchmarks (extra arguments go to benchmarks/bench.py)",
                   add_help=False)
    build_cmd = sub.add_parser("build", help="build dist/ (the default)")
    build_cmd.add_argument("--no-minify", **no_minify)
    parser.add_argument("--no-minify", **no_minify)
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "test":
            return run_tests(rest)
        if args.command == "bench":
            return run_bench(rest)
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        if args.command == "serve":
            serve(args.host, args.port, minify=not args.no_minify)
            return 0
        build(minify=not args.no_minify)
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
