"""The rules pages (web/rules/<game>.html) agree with the engine on what can be checked.

* Options: each page's Options list marks every option the game offers as
  ``<dt data-option="name">Label</dt>``, and its ``<dd>`` marks each value with
  ``data-choice`` (the value as the setup screen writes it: ``String(value)`` in JavaScript)
  and the default with ``data-default``. Names, labels, values and the default must be the
  engine's, and the marked words must show the value.
* House clarifications: the rules screen renders the engine's own list (``SPEC.clarifications``,
  sent by the bridge's ``games`` call) under the page, so a page never keeps a copy of its own.
* House-rule numbers: where the engine owns a number (Spite's drought of 200 turns,
  Progression's 30-round limit...), one sentence of the page and one of the clarifications say
  it, with the words that tie it to its rule. Changing the number fails until both follow.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import bridge

RULES = Path(__file__).resolve().parent.parent / "web" / "rules"
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "source"}
NUMBER_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    12: "twelve",
}


class Node:
    """An element of a parsed page: tag, attributes, children (nodes and strings)."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs = tag, attrs
        self.children: list[Node | str] = []

    def text(self) -> str:
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return re.sub(r"\s+", " ", "".join(parts)).strip()

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("fragment", {})
        self.open = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, dict(attrs))
        self.open[-1].children.append(node)
        if tag not in VOID:
            self.open.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return
        raise AssertionError(f"</{tag}> closes nothing")

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def page(game: str) -> Node:
    parser = _Parser()
    parser.feed((RULES / f"{game}.html").read_text(encoding="utf-8"))
    parser.close()
    assert parser.open == [parser.root], f"{game}.html leaves <{parser.open[-1].tag}> open"
    return parser.root


def js_string(value: Any) -> str:
    """A choice as the setup screen's ``String(value)`` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def shows(value: Any, words: str) -> bool:
    """Do the words marking a choice show its value?"""
    words = words.lower()
    if isinstance(value, bool):
        return ("on" if value else "off") in words.split()
    if isinstance(value, int):
        return re.search(rf"\b{value}\b", words) is not None
    return str(value).replace("-", " ") in words


def option_entries(root: Node) -> dict[str, tuple[Node, Node]]:
    """``data-option`` name -> (its <dt>, the <dd> that follows it)."""
    out: dict[str, tuple[Node, Node]] = {}
    for dl in (n for n in root.walk() if n.tag == "dl"):
        items = [c for c in dl.children if isinstance(c, Node)]
        for index, item in enumerate(items):
            name = item.attrs.get("data-option")
            if name is None:
                continue
            assert item.tag == "dt", f"data-option={name!r} is on a <{item.tag}>"
            assert index + 1 < len(items) and items[index + 1].tag == "dd", (
                f"option {name!r} has no <dd>"
            )
            assert name not in out, f"option {name!r} is described twice"
            out[name] = (item, items[index + 1])
    return out


GAMES = list(engine.GAMES)


def test_every_game_has_a_rules_page_and_every_page_a_game():
    assert sorted(p.stem for p in RULES.glob("*.html")) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_option_its_label_values_and_default_are_on_the_page(game):
    spec = engine.GAMES[game]
    entries = option_entries(page(game))
    assert sorted(entries) == sorted(spec.options), "options on the page vs the engine's"
    for name, option in spec.options.items():
        dt, dd = entries[name]
        assert dt.text() == option.label, (name, dt.text())
        marks = [n for n in dd.walk() if "data-choice" in n.attrs]
        marked = [n.attrs["data-choice"] for n in marks]
        assert sorted(marked) == sorted(js_string(c) for c in option.choices), (name, marked)
        for node in marks:
            choice = option.choices[
                [js_string(c) for c in option.choices].index(node.attrs["data-choice"])
            ]
            assert shows(choice, node.text()), (name, choice, node.text())
        defaults = [n.attrs["data-choice"] for n in marks if "data-default" in n.attrs]
        assert defaults == [js_string(option.default)], (name, defaults)
        assert "default" in dd.text(), f"{name}: the page does not say which value is the default"


@pytest.mark.parametrize("game", GAMES)
def test_house_clarifications_come_from_the_engine_list_alone(game):
    text = page(game).text()
    assert "House clarification" not in text, "the rules screen adds the engine's list itself"
    assert not any(
        "clarifications" in (n.attrs.get("class") or "").split() for n in page(game).walk()
    )
    listed = {g["id"]: g for g in json.loads(bridge.games())["games"]}
    assert listed[game]["clarifications"] == list(engine.GAMES[game].clarifications)
    assert engine.GAMES[game].clarifications, f"{game} lists no house clarification"


def engine_constant(game: str, name: str) -> Any:
    """A module-level constant of ``game``'s engine code, wherever its modules live."""
    for module_name, module in sorted(sys.modules.items()):
        if (
            module_name.startswith("engine.")
            and game in module_name.split(".")
            and hasattr(module, name)
        ):
            return getattr(module, name)
    raise AssertionError(f"no constant {name} in the modules of {game}")


HOUSE_NUMBERS: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    # game: (constants whose values one sentence must name, words of that sentence, where)
    "spite": [
        (("STALL_TURNS",), ("frozen", "in a row", "draw"), ("page", "clarifications")),
        (("DROUGHT_TURNS",), ("turns in a row", "pay-off"), ("page", "clarifications")),
        (("MAX_DRAWN_GAMES",), ("drawn games in a row",), ("page", "clarifications", "options")),
    ],
    "progression": [
        (("STALL_LIMIT",), ("turns in a row", "draw pile"), ("page", "clarifications")),
        (
            ("TARGET", "MAX_TARGET_ROUNDS"),
            ("rounds at most",),
            ("page", "clarifications", "options"),
        ),
    ],
}


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text))


def names_number(sentence: str, value: int) -> bool:
    pattern = rf"\b({value}|{NUMBER_WORDS.get(value, str(value))})\b"
    return re.search(pattern, sentence, re.IGNORECASE) is not None


@pytest.mark.parametrize("game", sorted(HOUSE_NUMBERS))
def test_house_rule_numbers_are_the_engines(game):
    spec = engine.GAMES[game]
    places = {
        "page": page(game).text(),
        "clarifications": " ".join(spec.clarifications),
        "options": " ".join(o.description for o in spec.options.values()),
    }
    for names, words, where in HOUSE_NUMBERS[game]:
        values = [engine_constant(game, name) for name in names]
        for place in where:
            assert any(
                all(names_number(s, v) for v in values) and all(w in s.lower() for w in words)
                for s in sentences(places[place])
            ), (
                f"{game} {place}: no sentence says {dict(zip(names, values, strict=True))} "
                f"with {words}"
            )
