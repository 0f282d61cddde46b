"""The matches in progress as web/js/storage.js keeps them (run here under Node.js, over a
localStorage of its own that can be made full): one per game and one coached round per game,
each in its own slot; the one match that earlier versions kept for all games moves to its
game's slot without loss, even in a full storage; a save that cannot be read is set aside
with a word, never offered."""

from __future__ import annotations

import json
from pathlib import Path

from tests.node_script import run_script

STORAGE = Path(__file__).resolve().parent.parent / "web" / "js" / "storage.js"

# The storage: a Map behind the Storage interface, holding at most `quota` characters (keys
# and values, as browsers count them); setItem beyond that throws, as a full storage does.
SCRIPT = """
const given = JSON.parse(process.argv[1]);
const items = new Map(Object.entries(given.stored));
const used = () => [...items].reduce((n, [k, v]) => n + k.length + v.length, 0);
const quota = given.quota === "full" ? used() : given.quota || Infinity;
globalThis.window = { localStorage: {
  get length() { return items.size; },
  key: (i) => [...items.keys()][i] ?? null,
  getItem: (k) => (items.has(k) ? items.get(k) : null),
  setItem: (k, v) => {
    const before = items.get(k);
    items.set(k, String(v));
    if (used() > quota) {
      if (before === undefined) items.delete(k); else items.set(k, before);
      throw new DOMException("full", "QuotaExceededError");
    }
  },
  removeItem: (k) => { items.delete(k); },
} };
const storage = await import(%s);
const said = [];
for (const [name, ...args] of given.calls) said.push(storage[name](...args) ?? null);
console.log(JSON.stringify({ said, stored: Object.fromEntries(items) }));
"""


def run(stored: dict[str, str], calls: list[list], quota: int | str | None = None) -> dict:
    return run_script(
        STORAGE, SCRIPT, json.dumps({"stored": stored, "calls": calls, "quota": quota})
    )


def save(game: str, saved_at: int, actions: list[str], coached: bool = False) -> dict:
    """A match as the page saves it (a coached round's page state holds its coach)."""
    return {
        "v": 1,
        "game": game,
        "title": game.title(),
        "savedAt": saved_at,
        "data": {"record": {"game": game, "actions": actions}, "seats": [], "practice": False},
        "setup": None,
        "page": {"coach": {"game": game}} if coached else {"logNotes": {}},
    }


def saves_of(out: dict, call: int = -1) -> list[tuple[str, list[str]]]:
    """The slots loadMatches offered, latest first, with each one's moves."""
    return [(s["slot"], s["data"]["record"]["actions"]) for s in out["said"][call]["saves"]]


def test_two_games_and_a_coached_round_are_kept_at_once_each_in_its_slot():
    out = run(
        {},
        [
            ["saveMatch", "crisps", "crisps", "Crisps", {"record": {"actions": ["a"]}}, None, None],
            [
                "saveMatch",
                "mhing",
                "mhing",
                "General Mhing",
                {"record": {"actions": ["b"]}},
                None,
                None,
            ],
            [
                "saveMatch",
                "crisps.learn",
                "crisps",
                "Crisps",
                {"record": {"actions": ["c"]}},
                None,
                {"coach": {}},
            ],
            ["saveMatchPage", "crisps", {"logNotes": {"1": "x"}}],
            ["loadMatches"],
            ["clearMatch", "mhing"],
            ["loadMatches"],
        ],
    )
    assert out["said"][:4] == [True, True, True, True]
    assert sorted(saves_of(out, 4)) == [
        ("crisps", ["a"]),
        ("crisps.learn", ["c"]),
        ("mhing", ["b"]),
    ]
    assert json.loads(out["stored"]["parlour.save.crisps"])["page"] == {"logNotes": {"1": "x"}}
    assert sorted(saves_of(out)) == [("crisps", ["a"]), ("crisps.learn", ["c"])]
    assert out["said"][-1]["problems"] == []


def test_the_one_match_of_earlier_versions_moves_to_its_games_slot():
    legacy = json.dumps(save("mhing", 5, ["draw:stock"]))
    out = run(
        {"parlour.save": legacy, "parlour.setup.mhing": "{}"}, [["loadMatches"], ["loadMatches"]]
    )
    assert out["stored"] == {"parlour.save.mhing": legacy, "parlour.setup.mhing": "{}"}
    assert saves_of(out, 0) == saves_of(out, 1) == [("mhing", ["draw:stock"])]
    # Asked for its slot alone, the same.
    out = run({"parlour.save": legacy}, [["loadMatch", "mhing"]])
    assert out["said"][0]["save"]["data"]["record"]["actions"] == ["draw:stock"]


def test_an_earlier_coached_round_moves_to_the_coached_slot():
    legacy = json.dumps(save("crisps", 5, ["pass"], coached=True))
    mine = json.dumps(save("crisps", 9, ["play:4D"]))
    out = run({"parlour.save": legacy, "parlour.save.crisps": mine}, [["loadMatches"]])
    assert saves_of(out) == [("crisps", ["play:4D"]), ("crisps.learn", ["pass"])]
    assert "parlour.save" not in out["stored"]


def test_a_later_save_in_the_slot_wins_over_the_earlier_versions_one():
    # A tab of the earlier version and one of this version played the same game.
    older = json.dumps(save("crisps", 5, ["pass"]))
    newer = json.dumps(save("crisps", 9, ["play:4D"]))
    out = run({"parlour.save": older, "parlour.save.crisps": newer}, [["loadMatches"]])
    assert out["stored"] == {"parlour.save.crisps": newer}
    out = run({"parlour.save": newer, "parlour.save.crisps": older}, [["loadMatches"]])
    assert out["stored"] == {"parlour.save.crisps": newer}


def test_a_full_storage_keeps_the_earlier_match_and_offers_it():
    legacy = json.dumps(save("spite", 5, ["play:AS"] * 200))
    other = json.dumps(save("crisps", 3, ["pass"]))
    stored = {"parlour.save": legacy, "parlour.save.crisps": other}
    # With room for its longer key only once the old one is gone, it moves.
    out = run(stored, [["loadMatches"]], quota=sum(len(k) + len(v) for k, v in stored.items()) + 6)
    assert out["stored"] == {"parlour.save.spite": legacy, "parlour.save.crisps": other}
    assert saves_of(out) == [("spite", ["play:AS"] * 200), ("crisps", ["pass"])]
    # Without that room it stays where it was, offered all the same, and is ended from there.
    out = run(
        stored,
        [["loadMatches"], ["loadMatch", "spite"], ["clearMatch", "spite"], ["loadMatches"]],
        quota="full",
    )
    assert saves_of(out, 0) == [("spite", ["play:AS"] * 200), ("crisps", ["pass"])]
    assert out["said"][1]["save"]["slot"] == "spite"
    assert saves_of(out, 3) == [("crisps", ["pass"])]
    assert out["stored"] == {"parlour.save.crisps": other}


def test_saves_that_cannot_be_read_are_set_aside_with_a_word():
    good = json.dumps(save("crisps", 3, ["pass"]))
    out = run(
        {
            "parlour.save": "{not json",
            "parlour.save.crisps": good,
            "parlour.save.mhing": "[]",
            "parlour.save.roundup": json.dumps(save("spite", 4, [])),  # another game's match
        },
        [["loadMatches"]],
    )
    assert saves_of(out) == [("crisps", ["pass"])]
    assert out["said"][0]["problems"] == [
        "Your saved match could not be read, so it was set aside. You can start a new one."
    ]
    assert out["stored"] == {
        "parlour.save.crisps": good,
        "parlour.setaside": "{not json",
        "parlour.setaside.mhing": "[]",
        "parlour.setaside.roundup": json.dumps(save("spite", 4, [])),
    }
