"""A static HTTP server that serves directories the way a static host does, optionally over
an emulated network (benchmarks).

- Every response carries ``Cache-Control: no-cache`` (the service worker does the caching,
  the HTTP cache only revalidates), ``X-Content-Type-Options: nosniff`` and, unless turned
  off, the Content-Security-Policy the site is built for; MIME types as a static host sends
  them (``application/wasm``, ``text/javascript`` for ``.js`` and ``.mjs``).
- Text, JavaScript, JSON, CSS, HTML, SVG and WebAssembly are sent gzipped
  (``Content-Encoding: gzip``) to a client that accepts it, with ``Vary: Accept-Encoding``;
  each file is compressed once (level 6, as static hosts' defaults are) and kept in memory
  until it changes. Zip archives (wheels, the standard library) and images go as they are.
- A :class:`NetworkProfile` emulates a slower line: one round trip of waiting before each
  response's first byte, then the body paced to the profile's bandwidth, shared by every
  response in flight (one pacer for the whole server, so that two downloads at once each get
  about half). ``PROFILES`` names ``none``, ``9mbit`` and ``1.6mbit``.

``start_server(mounts, profile=...)`` serves from a background thread; ``server.traffic``
counts the bytes sent (bodies, as sent: gzipped when gzipped; a body is counted as it
starts) and the responses with a body.
"""
from __future__ import annotations

import gzip
import http.server
import posixpath
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                           "connect-src 'self'; worker-src 'self'; style-src 'self'; "
                           "img-src 'self'; object-src 'none'; base-uri 'self'; "
                           "form-action 'none'")

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
GZIP_TYPES = ("text/", "application/json", "application/manifest+json", "image/svg+xml",
              "application/wasm")
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
    between concurrent responses."""

    def __init__(self, bits_per_second: float) -> None:
        self.seconds_per_byte = 8.0 / bits_per_second
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the line is next free (time.monotonic())

    def wait(self, size: int) -> None:
        with self._lock:
            start = max(time.monotonic(), self._free_at)
            self._free_at = start + size * self.seconds_per_byte
            done = self._free_at
        delay = done - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class Traffic:
    """What the server sent: body bytes and responses, in total and by URL path."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.bytes = 0
        self.requests = 0
        self.by_path: dict[str, int] = {}

    def add(self, url_path: str, size: int) -> None:
        with self._lock:
            self.bytes += size
            self.requests += 1
            self.by_path[url_path] = self.by_path.get(url_path, 0) + size

    def reset(self) -> None:
        with self._lock:
            self.bytes = 0
            self.requests = 0
            self.by_path = {}


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
        profile = self.server.profile
        if profile.rtt_s:
            time.sleep(profile.rtt_s)
        if found == "redirect":
            self.send_response(301)
            self.send_header("Location", url_path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if not isinstance(found, Path):
            self._send(404, "text/plain; charset=utf-8", b"not found\n", url_path, send_body,
                       gzipped=None)
            return
        content_type = mime_type(found)
        gzipped = None
        if compressible(content_type):
            gzipped = accepts_gzip(self.headers.get("Accept-Encoding"))
            body = self.server.gzip_cache.get(found) if gzipped else found.read_bytes()
        else:
            body = found.read_bytes()
        self._send(200, content_type, body, url_path, send_body, gzipped)

    def _send(self, status: int, content_type: str, body: bytes, url_path: str,
              send_body: bool, gzipped: bool | None) -> None:
        """``gzipped``: None for a kind never compressed, else whether ``body`` is gzip."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if gzipped is not None:
            self.send_header("Vary", "Accept-Encoding")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        if status == 200:
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            if self.send_csp:
                self.send_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.end_headers()
        if not send_body:
            return
        # Counted before it goes, so that a client holding the whole body sees it counted.
        self.server.traffic.add(url_path, len(body))
        pacer = self.server.pacer
        if pacer is None:
            self.wfile.write(body)
        else:
            for start in range(0, len(body), CHUNK_BYTES):
                chunk = body[start:start + CHUNK_BYTES]
                pacer.wait(len(chunk))
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

    def __init__(self, address: tuple[str, int], handler: type[SiteHandler],
                 profile: NetworkProfile) -> None:
        super().__init__(address, handler)
        self.profile = profile
        self.pacer = Pacer(profile.bits_per_second) if profile.bits_per_second else None
        self.gzip_cache = GzipCache()
        self.traffic = Traffic()

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"


def make_server(mounts: list[tuple[str, Path]], host: str = "127.0.0.1", port: int = 0,
                quiet: bool = False, csp: bool = True,
                profile: NetworkProfile | str = "none") -> SiteServer:
    """An HTTP server for ``mounts`` (not yet serving; port 0 picks a free one). With
    ``csp=False`` it sends no Content-Security-Policy header, like most static hosts;
    ``profile`` (a NetworkProfile or a name in PROFILES) emulates a network."""
    if isinstance(profile, str):
        profile = PROFILES[profile]
    handler = type("MountedSiteHandler", (SiteHandler,),
                   {"mounts": [(p, Path(d)) for p, d in mounts], "quiet": quiet,
                    "send_csp": csp})
    return SiteServer((host, port), handler, profile)


def start_server(mounts: list[tuple[str, Path]], host: str = "127.0.0.1", port: int = 0,
                 csp: bool = True,
                 profile: NetworkProfile | str = "none") -> tuple[SiteServer, str]:
    """Serve ``mounts`` from a background thread; returns the server and its base URL.
    ``server.shutdown()`` then ``server.server_close()`` stop it."""
    server = make_server(mounts, host, port, quiet=True, csp=csp, profile=profile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.base_url
