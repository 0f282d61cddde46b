"""The site's texts are in our own words: no run of eight words in a row of a coach text, a
rules page, a house clarification, a game's summary or an option's description is taken
from the rule texts (``../shared/seeds/``). They are compared with the hashed word sequences
of those texts committed in tests/data/rule_shingles.json (``tools/rule_shingles.py``), so
the check runs everywhere, a clone without the rule texts included."""

from __future__ import annotations

import html.parser
import re
from pathlib import Path

import pytest

import engine
from engine import coach
from tools import rule_shingles

GAMES = list(engine.GAMES)
RULES_PAGES = Path(__file__).resolve().parent.parent / "web" / "rules"


@pytest.fixture(scope="module")
def known() -> set[str]:
    data = rule_shingles.load()
    assert data["words"] == rule_shingles.WORDS
    assert len(data["shingles"]) > 3000, "the hashed rule texts are all there"
    return set(data["shingles"])


class TextOf(html.parser.HTMLParser):
    """The text of an HTML page, element by element."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def page_text(path: Path) -> str:
    parser = TextOf()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(parser.parts)


def test_the_committed_hashes_are_those_of_the_rule_texts():
    """With the rule texts at hand (beside the project, or ``$PARLOUR_RULE_TEXTS``) the
    committed table is theirs exactly. A clean clone has no rule texts (they are never copied
    into the project): there the table is checked to be one the tool writes, a sorted set of
    hashes of every text, which is all that can be known of it without the texts."""
    data = rule_shingles.load()
    seeds = rule_shingles.seeds_dir()
    if seeds is not None:
        assert rule_shingles.table(seeds) == data, (
            "tests/data/rule_shingles.json is out of date: run python tools/rule_shingles.py"
        )
    hashes = data["shingles"]
    assert hashes == sorted(set(hashes)), "the hashes are sorted and each is there once"
    assert all(re.fullmatch(f"[0-9a-f]{{{rule_shingles.DIGITS}}}", h) for h in hashes)
    assert sorted(data["texts"]) == data["texts"]
    assert len(data["texts"]) == len(GAMES), "one rule text a game"
    assert len(hashes) > 3000


def test_a_lifted_sentence_is_caught(known):
    """The check can fail: a sequence of the rule texts is recognised from its hash alone
    (one of the committed hashes, found again by hashing the same words)."""
    seeds = rule_shingles.seeds_dir()
    if seeds is not None:
        text = next(iter(sorted(seeds.glob("*.txt")))).read_text(encoding="utf-8")
        assert rule_shingles.lifted(text, known)
    assert not rule_shingles.lifted("one two three four five six seven eight nine", known)
    assert rule_shingles.shingles("Eight words in a row, Don\u2019t they?") == (
        rule_shingles.shingles("eight WORDS in a row dont they")
    )


@pytest.mark.parametrize("game", GAMES)
def test_coach_texts_are_our_own_words(game, known):
    c = coach.load(game)
    for text in [s["say"] for s in c.steps] + list(c.checklist.values()):
        assert not rule_shingles.lifted(text, known), text


@pytest.mark.parametrize("game", GAMES)
def test_clarifications_summary_and_options_are_our_own_words(game, known):
    spec = engine.GAMES[game]
    texts = [*spec.clarifications, spec.summary]
    texts += [text for opt in spec.options.values() for text in (opt.label, opt.description)]
    assert spec.clarifications
    for text in texts:
        assert not rule_shingles.lifted(text, known), text


def test_rules_pages_are_our_own_words(known):
    pages = sorted(RULES_PAGES.glob("*.html"))
    assert {p.stem for p in pages} == set(GAMES)
    for page in pages:
        assert not rule_shingles.lifted(page_text(page), known), page.name
