"""The HTTP server of build.py serve, the tests and the benchmarks: directories mounted at URL
prefixes, served the way a static host serves them, optionally over an emulated network.

- Every file is sent with ``Cache-Control: no-cache`` (the service worker does the caching,
  the HTTP cache only revalidates) and an ``ETag`` (size and modification time), and a
  request whose ``If-None-Match`` holds it gets a 304 without a body, as static hosts answer;
  with ``X-Content-Type-Options: nosniff`` and, unless turned off, the
  Content-Security-Policy the site is built for; MIME types as a static host sends
  them (``application/wasm``, ``text/javascript`` for ``.js`` and ``.mjs``).
- Text, JavaScript, JSON, CSS, HTML, SVG and WebAssembly are sent gzipped
  (``Content-Encoding: gzip``) to a client that accepts it, with ``Vary: Accept-Encoding``;
  each file is compressed once (level 6, as static hosts' defaults are) and kept in memory
  until it changes. Zip archives (wheels, the standard library) and images go as they are.
- A :class:`NetworkProfile` emulates a slower line: one round trip of waiting before each
  response's first byte, then the body paced to the profile's bandwidth, shared by every
  response in flight (one :class:`Pacer` for the whole server, so that two downloads at once
  each get about half). Each response keeps to its own schedule on that line: a chunk is
  booked from when the previous one was due, not from when this thread got round to it, so a
  busy machine's late wake-ups do not add up to idle time on the emulated line (they did:
  a second and more over the stock runtime's 390 chunks on a loaded 2-core box).
  ``PROFILES`` names ``none``, ``9mbit`` and ``1.6mbit``.

``start_server(mounts, profile=...)`` serves from a background thread; ``server.traffic``
counts the bytes sent (bodies, as sent: gzipped when gzipped; a body is counted as it
starts) and the responses with a body. ``serve(directory, host, port)`` is build.py serve.
"""

from __future__ import annotations

import gzip
import http.server
import posixpath
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import ROOT, say

# The page is built to run under this policy; the server sends it so every run checks it.
# index.html carries the same policy in a <meta http-equiv> (static hosts such as GitHub Pages
# send no headers); tests/e2e check that the two agree. No 'unsafe-inline' anywhere: the page
# has no inline script or style, and sets styles only through the CSSOM.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "connect-src 'self'; worker-src 'self'; style-src 'self'; "
    "img-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'none'"
)

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
DEFAULT_MIME_TYPE = "application/octet-stream"

# The kinds of file sent gzipped: text of every kind, JSON, SVG and WebAssembly.
GZIP_TYPES = (
    "text/",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "application/wasm",
)
GZIP_LEVEL = 6
CHUNK_BYTES = 16 * 1024  # how a paced body is cut up; fairness between responses is per chunk


def mime_type(path: Path) -> str:
    return MIME_TYPES.get(path.suffix.lower(), DEFAULT_MIME_TYPE)


def compressible(content_type: str) -> bool:
    return content_type.startswith(GZIP_TYPES)


def accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header allows gzip (``gzip`` or ``*``, q above 0)."""
    if not header:
        return False
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


@dataclass(frozen=True)
class NetworkProfile:
    """A line to emulate: ``bits_per_second`` (None: unlimited), ``rtt_s`` waited before
    each response's first byte."""

    name: str
    bits_per_second: float | None
    rtt_s: float


PROFILES: dict[str, NetworkProfile] = {
    "none": NetworkProfile("none", None, 0.0),
    "9mbit": NetworkProfile("9mbit", 9_000_000, 0.170),
    "1.6mbit": NetworkProfile("1.6mbit", 1_600_000, 0.150),
}


class Pacer:
    """Bandwidth shared by every response: each chunk books the line for its own
    transmission time after the chunks booked before it, and is sent when that time is up
    (a chunk arrives when its last bit would have). Booking in turn is what shares the line
    between concurrent responses.

    A response books its next chunk from when its previous one was due (``after``), not from
    the moment its thread wakes up to ask: a thread that wakes late (a loaded machine, the
    interpreter's lock) then books the same line time it would have had on time, and the
    emulated line carries ``bytes * 8 / bits_per_second`` of traffic in as long, whatever the
    machine's load. Only a response that has not asked for the line for ``STALL_S`` (its
    reader stopped reading) starts again from now: a real pause leaves the line idle.
    ``clock`` and ``sleep`` are the time source (time.monotonic and time.sleep)."""

    STALL_S = 0.25

    def __init__(
        self,
        bits_per_second: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.seconds_per_byte = 8.0 / bits_per_second
        self.clock = clock
        self.sleep = sleep
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the line is next free (clock())

    def book(self, size: int, after: float | None = None) -> float:
        """Book the line for ``size`` bytes of a response whose previous chunk was due at
        ``after`` (or whose first byte may go from ``after``: its request plus the round
        trip); None, or an ``after`` older than STALL_S: from now. Returns when the last of
        these bytes arrives."""
        with self._lock:
            now = self.clock()
            ready = now if after is None or now - after > self.STALL_S else after
            start = max(ready, self._free_at)
            self._free_at = start + size * self.seconds_per_byte
            return self._free_at

    def wait(self, size: int, after: float | None = None) -> float:
        """Book ``size`` bytes (``book``) and sleep until they have arrived; returns that
        time, the ``after`` of the response's next chunk."""
        done = self.book(size, after)
        delay = done - self.clock()
        if delay > 0:
            self.sleep(delay)
        return done


class Traffic:
    """What the server sent: body bytes and responses, in total and by URL path, and each
    response's times (``log``: path, body bytes, when its request came and when its last
    byte went, in time.time() seconds: the benchmark's waterfall). A request that came before
    the last ``reset`` is not counted, even if its response goes after it: it is the page
    before's (a closed page's late icon request on a slow line)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.since = 0.0
        self.bytes = 0
        self.requests = 0
        self.by_path: dict[str, int] = {}
        self.log: list[tuple[str, int, float, float]] = []

    def add(self, url_path: str, size: int, asked: float) -> None:
        with self._lock:
            if asked < self.since:
                return
            self.bytes += size
            self.requests += 1
            self.by_path[url_path] = self.by_path.get(url_path, 0) + size

    def sent(self, url_path: str, size: int, asked: float) -> None:
        """A response has gone: ``size`` body bytes, its request came at ``asked``."""
        with self._lock:
            if asked >= self.since:
                self.log.append((url_path, size, asked, time.time()))

    def reset(self) -> None:
        with self._lock:
            self.since = time.time()
            self.bytes = 0
            self.requests = 0
            self.by_path = {}
            self.log = []


class GzipCache:
    """Each file gzipped once, kept until its size or modification time changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[Path, tuple[tuple[int, int], bytes]] = {}

    def get(self, path: Path) -> bytes:
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            found = self._entries.get(path)
        if found is not None and found[0] == key:
            return found[1]
        body = gzip.compress(path.read_bytes(), compresslevel=GZIP_LEVEL, mtime=0)
        with self._lock:
            self._entries[path] = (key, body)
        return body


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """Serves directories mounted at URL prefixes (see the module's docstring).

    ``mounts`` is a list of (prefix, directory) pairs tried in order; a prefix ends in "/".
    """

    server_version = "Parlour"
    protocol_version = "HTTP/1.1"
    mounts: list[tuple[str, Path]] = []
    quiet = False
    send_csp = True
    server: SiteServer
    _first_byte_at = 0.0  # time.monotonic() from which this response's first byte may go
    _asked = 0.0  # time.time() when this response's request came

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
            rel = url_path[len(prefix) :]
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
        asked = self._asked = time.time()
        url_path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        url_path = posixpath.normpath(url_path) + ("/" if url_path.endswith("/") else "")
        if url_path.startswith("//"):
            url_path = "/" + url_path.lstrip("/")
        found = self._resolve(url_path)
        profile = self.server.profile
        # The first byte may go one round trip after the request arrived.
        self._first_byte_at = time.monotonic() + profile.rtt_s
        if profile.rtt_s:
            time.sleep(profile.rtt_s)
        if found == "redirect":
            self.send_response(301)
            self.send_header("Location", url_path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if not isinstance(found, Path):
            self._send(
                404, "text/plain; charset=utf-8", b"not found\n", url_path, send_body, gzipped=None
            )
            return
        content_type = mime_type(found)
        gzipped = None
        if compressible(content_type):
            gzipped = accepts_gzip(self.headers.get("Accept-Encoding"))
        stat = found.stat()
        etag = f'"{stat.st_size:x}-{stat.st_mtime_ns:x}{"-gz" if gzipped else ""}"'
        if etag in (self.headers.get("If-None-Match") or "").replace(" ", "").split(","):
            self._send(304, content_type, b"", url_path, False, gzipped, etag)
            return
        if gzipped:
            body = self.server.gzip_cache.get(found)
        else:
            body = found.read_bytes()
        self._send(200, content_type, body, url_path, send_body, gzipped, etag)
        self.server.traffic.sent(url_path, len(body) if send_body else 0, asked)

    def _send(
        self,
        status: int,
        content_type: str,
        body: bytes,
        url_path: str,
        send_body: bool,
        gzipped: bool | None,
        etag: str | None = None,
    ) -> None:
        """``gzipped``: None for a kind never compressed, else whether ``body`` is gzip.
        A 304 (``etag`` matched) carries the headers of the 200 but no body."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        if gzipped is not None:
            self.send_header("Vary", "Accept-Encoding")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if etag is not None:
            self.send_header("ETag", etag)
        if status in (200, 304):
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            if self.send_csp:
                self.send_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.end_headers()
        if not send_body:
            return
        # Counted before it goes, so that a client holding the whole body sees it counted.
        self.server.traffic.add(url_path, len(body), self._asked)
        pacer = self.server.pacer
        if pacer is None:
            self.wfile.write(body)
        else:
            due = self._first_byte_at
            for start in range(0, len(body), CHUNK_BYTES):
                chunk = body[start : start + CHUNK_BYTES]
                due = pacer.wait(len(chunk), due)
                self.wfile.write(chunk)

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

    def __init__(
        self, address: tuple[str, int], handler: type[SiteHandler], profile: NetworkProfile
    ) -> None:
        super().__init__(address, handler)
        self.set_profile(profile)
        self.gzip_cache = GzipCache()
        self.traffic = Traffic()

    def set_profile(self, profile: NetworkProfile | str) -> None:
        """Emulate ``profile`` (a NetworkProfile or a name in PROFILES) from now on."""
        if isinstance(profile, str):
            profile = PROFILES[profile]
        self.profile = profile
        self.pacer = Pacer(profile.bits_per_second) if profile.bits_per_second else None

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


def make_server(
    mounts: list[tuple[str, Path]],
    host: str = "127.0.0.1",
    port: int = 0,
    quiet: bool = False,
    csp: bool = True,
    profile: NetworkProfile | str = "none",
) -> SiteServer:
    """An HTTP server for ``mounts`` (not yet serving; port 0 picks a free one). With
    ``csp=False`` it sends no Content-Security-Policy header, like most static hosts;
    ``profile`` (a NetworkProfile or a name in PROFILES) emulates a network."""
    if isinstance(profile, str):
        profile = PROFILES[profile]
    handler = type(
        "MountedSiteHandler",
        (SiteHandler,),
        {"mounts": [(p, Path(d)) for p, d in mounts], "quiet": quiet, "send_csp": csp},
    )
    return SiteServer((host, port), handler, profile)


def start_server(
    mounts: list[tuple[str, Path]],
    host: str = "127.0.0.1",
    port: int = 0,
    csp: bool = True,
    profile: NetworkProfile | str = "none",
) -> tuple[SiteServer, str]:
    """Serve ``mounts`` from a background thread; returns the server and its base URL.
    ``server.shutdown()`` then ``server.server_close()`` stop it."""
    server = make_server(mounts, host, port, quiet=True, csp=csp, profile=profile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.base_url


def serve(directory: Path, host: str, port: int, profile: NetworkProfile | str = "none") -> None:
    """Serve ``directory`` at / until Ctrl-C (build.py serve, after building it)."""
    server = make_server([("/", directory)], host, port, profile=profile)
    name = directory.relative_to(ROOT) if directory.is_relative_to(ROOT) else directory
    say(f"serving {name}/ on {server.base_url}  (gzip like a static host; Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
