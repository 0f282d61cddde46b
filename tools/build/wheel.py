"""The engine wheel (pip builds it from engine/), and the copy of it dist/ ships.

The page runs the engine from a smaller copy of the wheel: the same package and metadata,
without the modules it never imports (WEB_WHEEL_EXCLUDES), without the long description
(README.md) in METADATA, and with every module re-written from its syntax tree without
docstrings, comments and function annotations. Nothing in the engine reads a docstring or an
annotation at run time (dataclass fields are kept: they are class-level annotations). It
still installs with pip like the full wheel.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from . import CACHE, ROOT, BuildError, say

# Modules of the engine the page never imports, left out of dist/'s wheel: the command line
# (python -m engine) and the arena and checks only it uses. A module of the wheel that
# imports one of these stops the build.
WEB_WHEEL_EXCLUDES = ("engine/__main__.py", "engine/checks.py", "engine/bots/arena.py")
WEB_WHEEL_VERSION = "3"  # bump when web_wheel() changes what it writes


def engine_sources() -> list[Path]:
    files = [ROOT / "pyproject.toml"]
    if (ROOT / "README.md").is_file():
        files.append(ROOT / "README.md")  # the wheel's long description
    files += sorted(
        p
        for p in (ROOT / "engine").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )
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
        env = {**os.environ, "SOURCE_DATE_EPOCH": "315532800", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--quiet",
                "-w",
                str(out),
                str(source),
            ],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env,
        )
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


class _Slim(ast.NodeTransformer):
    """Drops docstrings and function annotations from a module's syntax tree."""

    @staticmethod
    def _undoc(node: ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
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
    """``source`` without docstrings, comments or function annotations (unparsed from its
    syntax tree, so comments go too)."""
    return ast.unparse(_Slim().visit(ast.parse(source, name))) + "\n"


def import_base(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a ``from ... import`` statement in ``package`` names
    (``from .. import x`` in ``a.b`` names ``a``)."""
    base = node.module or ""
    if node.level:
        parent = package.split(".")
        parent = parent[: len(parent) - (node.level - 1)]
        base = ".".join(parent + ([base] if base else []))
    return base


def _imported_modules(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module an import statement anywhere in ``tree`` may load (absolute names)."""
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = import_base(node, package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _slim_entry(name: str, data: bytes, dropped: set[str]) -> bytes:
    """What the page's wheel holds for the file ``name`` of the full wheel."""
    if name.endswith(".py"):
        source = data.decode("utf-8")
        module = name[: -len(".py")].replace("/", ".")
        is_package = module.endswith(".__init__")
        module = module.removesuffix(".__init__")
        needs = _imported_modules(ast.parse(source, name), module, is_package) & dropped
        if needs:
            raise BuildError(
                f"{name} imports {', '.join(sorted(needs))}, which the wheel "
                "for the page leaves out (WEB_WHEEL_EXCLUDES)"
            )
        return slim_python(source, name).encode("utf-8")
    if name.endswith(".dist-info/METADATA"):
        headers = data.decode("utf-8").split("\n\n", 1)[0].split("\n")
        return "".join(
            line + "\n" for line in headers if not line.startswith("Description-Content-Type:")
        ).encode()
    return data


def web_wheel(wheel: Path) -> Path:
    """The wheel dist/ ships, made from ``wheel``; cached next to it."""
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    target = wheel.parent / f"web-v{WEB_WHEEL_VERSION}-py{version}" / wheel.name
    if target.is_file():
        return target
    dropped = {
        name[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        for name in WEB_WHEEL_EXCLUDES
    }
    entries: list[tuple[str, bytes]] = []
    record = None
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            name = info.filename
            if name in WEB_WHEEL_EXCLUDES:
                continue
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            entries.append((name, _slim_entry(name, archive.read(info), dropped)))
    if record is None:
        raise BuildError(f"{wheel.name} has no RECORD")
    lines = []
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}\n")
    entries.append((record, ("".join(lines) + f"{record},,\n").encode()))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    # Dated 1980-01-01 like pip's wheels and readable by all, so a rebuild is byte for byte
    # the same.
    with zipfile.ZipFile(partial, "w") as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    os.replace(partial, target)
    return target
