"""The recorded card sounds (web/sounds/): each file shipped is named, with its SHA-256, in its
licence notice (web/licenses/casino-audio.txt), which carries the CC0 text; the sound module
(web/js/features/sound.js) plays exactly these files; and the rules page's credits link the
notice."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOUNDS = ROOT / "web" / "sounds"
NOTICE = ROOT / "web" / "licenses" / "casino-audio.txt"


def test_every_recording_is_named_with_its_checksum_in_the_cc0_notice():
    notice = NOTICE.read_text(encoding="utf-8")
    assert "CC0 1.0 Universal" in notice and "Kenney" in notice
    listed = dict(
        (name, digest) for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+\.ogg)$", notice, re.M)
    )
    shipped = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SOUNDS.iterdir()}
    assert shipped == listed
    # Small enough to fetch when Sound is turned on.
    assert sum(p.stat().st_size for p in SOUNDS.iterdir()) < 80_000


def test_the_sound_module_plays_exactly_the_shipped_recordings():
    module = (ROOT / "web" / "js" / "features" / "sound.js").read_text(encoding="utf-8")
    block = re.search(r"const RECORDINGS = \{(.*?)\};", module, re.S)
    assert block, "sound.js lists its recordings in RECORDINGS"
    named = dict(re.findall(r'(\w+): "sounds/([\w.-]+)"', block.group(1)))
    assert set(named) == {"deal", "draw", "play", "shuffle"}
    assert set(named.values()) == {p.name for p in SOUNDS.iterdir()}


def test_the_rules_credits_link_the_notice():
    rules = (ROOT / "web" / "js" / "ui" / "rules.js").read_text(encoding="utf-8")
    assert '"./licenses/casino-audio.txt"' in rules
