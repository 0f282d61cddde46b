"""The rule texts' word sequences, hashed, for the check that the site's texts are in our
own words (tests/test_own_words.py): that check then runs wherever the project is, a clone
without the rule texts beside it included.

``python tools/rule_shingles.py [SEEDS_DIR]`` reads every ``*.txt`` of the rule texts (by
default ``$PARLOUR_RULE_TEXTS``, else ``../shared/seeds`` beside the project or beside its
parent directory), cuts each
into every run of ``WORDS`` words in a row, normalised (lower case, letters and digits only,
curly apostrophes made straight then dropped), and writes the first 16 hex digits of each
run's SHA-256 to ``tests/data/rule_shingles.json``, sorted. Only the hashes are kept, never
the texts: a sequence cannot be read back from them, only recognised.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "rule_shingles.json"
WORDS = 8
DIGITS = 16
SEEDS_PLACES = (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds")
"""Where the rule texts are looked for, after ``$PARLOUR_RULE_TEXTS``: they are never part of
the repository, so a clean clone (CI's) has none of these."""


def words(text: str) -> list[str]:
    """The words of ``text`` as the check compares them."""
    text = text.lower().replace("\u2019", "'").replace("'", "")
    return re.findall(r"[a-z0-9]+", text)


def shingles(text: str) -> set[str]:
    """The hashes of every ``WORDS`` words in a row of ``text``."""
    found = words(text)
    return {
        hashlib.sha256(" ".join(found[i : i + WORDS]).encode()).hexdigest()[:DIGITS]
        for i in range(len(found) - WORDS + 1)
    }


def lifted(text: str, known: Iterable[str]) -> list[str]:
    """The runs of ``WORDS`` words of ``text`` whose hash is in ``known``."""
    known = set(known)
    found = words(text)
    runs = (" ".join(found[i : i + WORDS]) for i in range(len(found) - WORDS + 1))
    return [run for run in runs if hashlib.sha256(run.encode()).hexdigest()[:DIGITS] in known]


def seeds_dir() -> Path | None:
    """The folder of the rule texts, or ``None`` where they are not to be found."""
    named = os.environ.get("PARLOUR_RULE_TEXTS")
    places = (Path(named),) if named else SEEDS_PLACES
    return next((place for place in places if place.is_dir()), None)


def table(seeds: Path) -> dict:
    """What tests/data/rule_shingles.json holds for the rule texts in ``seeds``."""
    hashes: set[str] = set()
    for path in sorted(seeds.glob("*.txt")):
        hashes |= shingles(path.read_text(encoding="utf-8", errors="replace"))
    return {
        "about": "sha256 (first 16 hex digits) of every 8 words in a row of the rule texts, "
        "normalised as tools/rule_shingles.py does; regenerate with that tool",
        "words": WORDS,
        "texts": sorted(path.name for path in seeds.glob("*.txt")),
        "shingles": sorted(hashes),
    }


def load() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    seeds = Path(argv[0]) if argv else seeds_dir()
    if seeds is None or not seeds.is_dir() or not any(seeds.glob("*.txt")):
        print(f"no rule texts found (looked in {', '.join(map(str, SEEDS_PLACES))})")
        return 1
    data = table(seeds)
    DATA.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}: {len(data['shingles'])} sequences of {WORDS} words")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
