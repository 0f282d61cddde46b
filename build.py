#!/usr/bin/env python3
"""Build, serve, test and benchmark Parlour's static site.

    python3 build.py                 build dist/ (engine wheel + Pyodide runtime + web/)
    python3 build.py serve [--port 8000] [--host 127.0.0.1]
                                     build, then serve dist/ over HTTP
    python3 build.py test [ARGS...]  all tests, unit and browser (sets up .venv and Chromium);
                                     ARGS go to pytest
    python3 build.py bench [--runs N]
                                     start-up and engine benchmarks (prints figures)

Standard library only, so it runs with the system python3 on a fresh machine. What it
downloads (the pinned Pyodide npm package, the test dependencies) is cached in .cache/ and
.venv/, so a rebuild with everything cached takes seconds.
"""
from __future__ import annotations

import argparse
import hashlib
import http.server
import json
import os
import posixpath
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import urllib.parse
from pathlib import Path

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


# ----- icons -------------------------------------------------------------------------
# PNG icons for the web app manifest (installable pages need raster icons of 192 and 512
# pixels), drawn by code from the same shapes as web/icons/icon.svg: a green tile, two cards,
# a heart. Signed distances give anti-aliased edges without supersampling. Cached in .cache/.

ICON_SIZES = ((192, "any"), (512, "any"), (512, "maskable"))
ICON_VERSION = "1"


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    raw = b"".join(b"\0" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


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


def draw_icon(size: int, purpose: str) -> bytes:
    green, paper, edge, red = (0x1F, 0x4D, 0x3A), (0xFD, 0xFB, 0xF5), (0xC9, 0xC2, 0xAD), (0xC0, 0x39, 0x2B)
    # The SVG is 64 units wide; a maskable icon keeps its content in the central 80%.
    scale = size / 64.0 if purpose == "any" else size / 64.0 * 0.8
    offset = 0.0 if purpose == "any" else size * 0.1
    unit = 1.0 / scale  # one pixel in SVG units: the width of an anti-aliased edge
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            x, y = (i + 0.5 - offset) / scale, (j + 0.5 - offset) / scale
            if purpose == "any":
                alpha = min(max(0.5 - _box(x, y, 32, 32, 32, 32, 14) / unit, 0.0), 1.0)
            else:
                alpha = 1.0
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
                cover = min(max(0.5 - d / unit, 0.0), 1.0)
                if cover:
                    color = [c + (p - c) * cover for c, p in zip(color, paint)]
            row += bytes((round(color[0]), round(color[1]), round(color[2]), round(alpha * 255)))
        rows.append(bytes(row))
    return _png(size, size, rows)


def icon_name(size: int, purpose: str) -> str:
    return f"icon-{size}{'-maskable' if purpose == 'maskable' else ''}.png"


def make_icons(target: Path) -> None:
    """Write the PNG icons into ``target`` (from .cache/ when this version was drawn before)."""
    cache = CACHE / f"icons-v{ICON_VERSION}"
    cache.mkdir(parents=True, exist_ok=True)
    target.mkdir(parents=True, exist_ok=True)
    for size, purpose in ICON_SIZES:
        name = icon_name(size, purpose)
        if not (cache / name).is_file():
            partial = cache / (name + ".part")
            partial.write_bytes(draw_icon(size, purpose))
            os.replace(partial, cache / name)
        shutil.copy2(cache / name, target / name)


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
    data = json.dumps({"build_id": build_id, "files": files}, indent=1)
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


def build(dist: Path = DIST, quiet: bool = False) -> dict[str, str]:
    """Build the whole site into ``dist``; returns build-info."""
    if not (WEB / "sw.js").is_file():
        raise BuildError("web/sw.js is missing")
    runtime = fetch_pyodide()
    wheel = build_wheel()
    staging = Path(tempfile.mkdtemp(prefix=".dist-", dir=dist.parent))
    try:
        shutil.copytree(WEB, staging, dirs_exist_ok=True,
                        ignore=lambda _dir, names: [n for n in names if n in IGNORED_NAMES])
        (staging / "pyodide").mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(runtime / name, staging / "pyodide" / name)
        (staging / "wheels").mkdir(exist_ok=True)
        shutil.copy2(wheel, staging / "wheels" / wheel.name)
        make_icons(staging / "icons")
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
    if not quiet:
        size = sum((dist / rel).stat().st_size for rel in dist_files(dist))
        say(f"built {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist} "
            f"(build {build_id}, {len(precache)} files to precache, {size / 1e6:.1f} MB)")
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


def serve(host: str, port: int) -> None:
    build()
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
    sub.add_parser("test", help="all tests (extra arguments go to pytest)", add_help=False)
    sub.add_parser("bench", help="benchmarks (extra arguments go to benchmarks/bench.py)",
                   add_help=False)
    sub.add_parser("build", help="build dist/ (the default)")
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "test":
            return run_tests(rest)
        if args.command == "bench":
            return run_bench(rest)
        if rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        if args.command == "serve":
            serve(args.host, args.port)
            return 0
        build()
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
