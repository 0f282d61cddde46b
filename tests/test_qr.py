"""The QR codes of invitation and reply links (web/js/features/together/qr.js, run here under
Node.js): zxing-cpp, a decoder of its own, reads back from each matrix exactly the text it was
made of, at the error-correction level chosen and in the smallest version that holds it; and
js/vendor/qrcode-generator.mjs is the pinned npm package's file as published."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.build import BuildError
from tools.build.node import ensure_tools

from .qr_decode import decode

ROOT = Path(__file__).resolve().parent.parent
QR_MODULE = ROOT / "web" / "js" / "features" / "together" / "qr.js"
VENDORED = ROOT / "web" / "js" / "vendor" / "qrcode-generator.mjs"
BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

MATRICES = """
import { LEVEL, qrMatrix } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
const rows = texts.map((text) => qrMatrix(text).map((row) => row.map(Number).join("")));
process.stdout.write(JSON.stringify({ level: LEVEL, rows }));
"""


def link(kind: str, length: int, seed: int) -> str:
    """A link of the page's shape: the page's address, then ``#join=`` or ``#reply=`` and a
    base64url code (what a packed signal looks like), ``length`` characters in all."""
    rng = random.Random(seed)
    head = f"http://192.168.1.20:8000/#{kind}="
    return head + "".join(rng.choice(BASE64URL) for _ in range(length - len(head)))


def qr_matrices(texts: list[str]) -> tuple[str, list[list[str]]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to run web/js/features/together/qr.js")
    done = subprocess.run(
        [node, "--input-type=module", "-e", MATRICES % json.dumps(QR_MODULE.as_uri())],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    return result["level"], result["rows"]


# Bytes each version 1-14 holds at error correction M in byte mode (ISO/IEC 18004, table 7).
CAPACITY_M = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362]


def test_a_decoder_reads_back_exactly_each_link():
    texts = [
        link("join", 158, 1),  # an invitation: one hidden host address
        link("join", 230, 2),  # anywhere: a STUN server and more candidates
        link("reply", 152, 3),
        link("join", 325, 4),  # the length of the earlier, compressed-JSON codes
        "Parlour \u2660 caf\u00e9",  # not ASCII: UTF-8 bytes
    ]
    level, matrices = qr_matrices(texts)
    assert level == "M"
    for text, rows in zip(texts, matrices, strict=True):
        found = decode(rows)
        assert [code.text for code in found] == [text]
        assert found[0].ec_level == level
        # The smallest version that holds the link at this level: modules as large as they go.
        version = (len(rows) - 17) // 4
        size = len(text.encode("utf-8"))
        assert CAPACITY_M[version - 1] >= size > (CAPACITY_M[version - 2] if version > 1 else 0)
    # An invitation link of the usual length is a version 9 code: 53 modules a side (the
    # earlier codes' links made version 13, 69 modules).
    assert len(matrices[0]) == 53
    assert len(matrices[3]) == 69


def test_a_damaged_code_is_not_read_as_the_link():
    """The check above can fail: with its finder patterns gone, or with a character of the
    link changed, the code no longer reads as the link."""
    text = link("join", 158, 1)
    other = text[:-1] + ("A" if text[-1] != "A" else "B")
    _, (rows, changed) = qr_matrices([text, other])
    assert [code.text for code in decode(changed)] == [other] != [text]
    blank = ["0" * 9 + row[9:] if r < 9 else row for r, row in enumerate(rows)]
    assert not decode([row[:-9] + "0" * 9 if r < 9 else row for r, row in enumerate(blank)])


@pytest.mark.build
def test_the_vendored_library_is_the_pinned_package():
    tools = ROOT / "tools"
    pinned = json.loads((tools / "package.json").read_text())["devDependencies"]
    locked = json.loads((tools / "package-lock.json").read_text())["packages"]
    version = pinned["qrcode-generator"]
    assert locked["node_modules/qrcode-generator"]["version"] == version
    assert locked["node_modules/qrcode-generator"]["license"] == "MIT"
    try:
        modules = ensure_tools()
    except BuildError as error:
        pytest.skip(str(error))
    package = modules / "qrcode-generator"
    assert json.loads((package / "package.json").read_text())["version"] == version
    assert (package / "dist" / "qrcode.mjs").read_bytes() == VENDORED.read_bytes()
    # The site ships the library's notice (a minified chunk keeps no comment).
    notice = (ROOT / "web" / "licenses" / "qrcode-generator.txt").read_text()
    author = "Copyright (c) 2009 Kazuhiko Arase"
    assert author in notice and author in VENDORED.read_text()
