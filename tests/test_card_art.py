"""The card faces' sprite (web/cards/deck.svg): it is what tools/draw_cards.py draws from the
pinned CC0 package, it holds a face for every card the engine deals, its pips are laid out as
on a real deck and stay clear of the corner indices, and its numbers survived rounding."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tools import draw_cards
from tools.build import BuildError

ROOT = Path(__file__).resolve().parent.parent
SPRITE = ROOT / "web" / "cards" / "deck.svg"
SVG = "{http://www.w3.org/2000/svg}"


def symbols() -> dict[str, ET.Element]:
    root = ET.fromstring(SPRITE.read_text(encoding="utf-8"))
    return {el.get("id", ""): el for el in root.iter(f"{SVG}symbol")}


def test_every_card_has_a_face_and_every_reference_resolves():
    found = symbols()
    ranks = ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    faces = {f"f{rank}{suit}" for suit in "SHDC" for rank in ranks} | {"fJK1", "fJK2"}
    assert faces <= set(found)
    for face in faces:
        assert found[face].get("viewBox") == "0 0 240 336"
    text = SPRITE.read_text(encoding="utf-8")
    for ref in set(re.findall(r'href="#([^"]+)"', text)):
        assert ref in found or f'id="{ref}"' in text, ref


@pytest.mark.parametrize("rank", range(1, 11))
def test_pips_are_as_many_as_the_rank_and_clear_of_the_corner_index(rank):
    face = symbols()[f"f{'A' if rank == 1 else rank}H"]
    pips = [use for use in face.iter(f"{SVG}use") if use.get("href") == "#sH"]
    assert len(pips) == rank
    for pip in pips:
        x, y = float(pip.get("x", 0)), float(pip.get("y", 0))
        # The top-left index holds the left 24% and top 30% of the face; the bottom-right
        # the same, turned. A pip's box may touch the index's box only at its rounded edge.
        assert not (x < 240 * 0.24 - 6 and y < 336 * 0.30), (rank, x, y)
        far_x, far_y = x + float(pip.get("width")), y + float(pip.get("height"))
        assert not (far_x > 240 * 0.76 + 6 and far_y > 336 * 0.70), (rank, far_x, far_y)
    # The lower half's pips are upside down, as printed.
    for pip in pips:
        lower = float(pip.get("y")) + float(pip.get("height")) / 2 > 168.5
        assert ("rotate(180" in (pip.get("transform") or "")) == lower


def test_courts_and_jokers_take_the_suit_colour_from_the_page():
    text = SPRITE.read_text(encoding="utf-8")
    assert 'fill="red"' not in text and 'stroke="red"' not in text
    found = symbols()
    for suit in "SHDC":
        # The pips and the suit letters are drawn in the card's colour, not a fixed one.
        assert found[f"s{suit}"].find(f"{SVG}path").get("fill") == "currentColor"
        assert found[f"l{suit}"].find(f"{SVG}path").get("stroke") == "currentColor"
    for court in "JQK":
        assert "currentColor" in ET.tostring(found[f"f{court}H"]).decode() or any(
            "currentColor" in ET.tostring(el).decode()
            for key, el in found.items()
            if key.startswith(f"{court}H")
        )
    # No inline style: the page's Content-Security-Policy allows none.
    assert "style=" not in text


def test_rounding_keeps_two_numbers_two():
    assert draw_cards.short("M12.04.5 2.25-3.9999") == "M12 .5 2.25-4"
    assert draw_cards.short("a40 40 0 0 1-40.04 0") == "a40 40 0 0 1-40 0"
    assert draw_cards.short("M0.5-0.25") == "M.5-.25"
    assert draw_cards.short("scale(-1 -.972)") == "scale(-1 -.972)"


@pytest.mark.build
def test_the_sprite_is_what_the_tool_draws_from_the_pinned_package():
    tools = ROOT / "tools"
    pinned = json.loads((tools / "package.json").read_text())["devDependencies"]
    locked = json.loads((tools / "package-lock.json").read_text())["packages"]
    package = f"node_modules/{draw_cards.PACKAGE}"
    assert locked[package]["version"] == pinned[draw_cards.PACKAGE]
    assert locked[package]["license"] == "CC0-1.0"
    try:
        drawn = draw_cards.sprite(draw_cards.rendered())
    except BuildError as error:
        pytest.skip(str(error))
    assert drawn == SPRITE.read_text(encoding="utf-8")
    notice = (ROOT / "web" / "licenses" / "playing-cards.txt").read_text()
    assert "CC0 1.0 Universal" in notice and "Adrian Kennard" in notice
