"""The HTTP server of build.py serve and of the tests: directories mounted at URL prefixes,
sent with the headers the page is built for."""

from __future__ import annotations

import http.server
import posixpath
import shutil
import threading
import urllib.parse
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
        self.send_header(
            "Content-Type", MIME_TYPES.get(found.suffix.lower(), "application/octet-stream")
        )
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


def make_server(
    mounts: list[tuple[str, Path]],
    host: str = "127.0.0.1",
    port: int = 0,
    quiet: bool = False,
    csp: bool = True,
) -> SiteServer:
    """An HTTP server for ``mounts`` (not yet serving; port 0 picks a free one). With
    ``csp=False`` it sends no Content-Security-Policy header, like most static hosts."""
    handler = type(
        "MountedSiteHandler",
        (SiteHandler,),
        {"mounts": [(p, Path(d)) for p, d in mounts], "quiet": quiet, "send_csp": csp},
    )
    return SiteServer((host, port), handler)


def start_server(
    mounts: list[tuple[str, Path]], host: str = "127.0.0.1", port: int = 0, csp: bool = True
) -> tuple[SiteServer, str]:
    """Serve ``mounts`` from a background thread; returns the server and its base URL."""
    server = make_server(mounts, host, port, quiet=True, csp=csp)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/"


def serve(directory: Path, host: str, port: int) -> None:
    """Serve ``directory`` at / until Ctrl-C (build.py serve, after building it)."""
    server = make_server([("/", directory)], host, port)
    url = f"http://{host}:{server.server_address[1]}/"
    name = directory.relative_to(ROOT) if directory.is_relative_to(ROOT) else directory
    say(f"serving {name}/ on {url}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
