"""Every registered game, every player count and option set, through the shared suite."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.cards import card_name
from engine.checks import observable, play_checked_match


def _options_id(spec: engine.GameSpec, options: dict) -> str:
    changed = [f"{k}={v}" for k, v in options.items() if v != spec.options[k].default]
    return "-".join(changed) or "default"


CASES = [
    pytest.param(
        game_id,
        players,
        options,
        seed,
        id=f"{game_id}-{players}p-{_options_id(spec, options)}-s{seed}",
    )
    for game_id, spec in engine.GAMES.items()
    for players in spec.player_counts()
    for options in spec.option_sets()
    for seed in ((1, 2) if _options_id(spec, options) == "default" else (1,))
]
"""Every game, player count and option set; two seeded matches at the default options, one at
each other option set (an option changes a rule or a match's length, which one match covers;
the longest matches, Progression to 200 and General Mhing to 20, are among them)."""


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players,options,seed", CASES)
def test_random_match_keeps_every_invariant(game_id, players, options, seed):
    """Deep enough to count: each match is played to its end, through at least one round's
    end (where the next deal is checked at the round-end hook) and its finish."""
    state = play_checked_match(game_id, players, options, seed)
    assert state.is_over and state.result()["rounds"], "a finished match, rounds scored"


# Games whose suits (and, in Spite and Malice, which deck or joker a card is) never matter:
# there a card id is compared by its rank alone.
RANK_ONLY = {"crisps", "spite"}
CARD_ID = re.compile(r"\b(?:10|[2-9AJQK])[CDHS](?:#\d)?\b|\bJK\d\b")


def _effect(state: engine.State, game_id: str) -> str:
    """What a state shows every seat and holds, with cards by rank where suits do not matter."""
    text = observable(state)
    if game_id in RANK_ONLY:
        text = CARD_ID.sub(lambda m: "JK" if m.group().startswith("JK") else m.group()[:-1], text)
        text = re.sub(r"(\b(?:10|[2-9AJQK]))#\d", r"\1", text)
    return text


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_no_two_legal_actions_have_the_same_effect(game_id):
    """Each listed action does something no other listed action does (the same resulting
    state, chance included, means one move listed twice), on a sample of positions."""
    spec = engine.GAMES[game_id]
    for seed in (1, 2):
        state = engine.new_game(game_id, players=spec.default_players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over and steps < 400:
            legal = state.legal_actions()
            if steps % 9 == 0:
                seen: dict[str, str] = {}
                for action in legal:
                    after = state.clone()
                    after.apply(action.id)
                    effect = _effect(after, game_id)
                    assert effect not in seen, f"{action.id} does what {seen[effect]} does"
                    seen[effect] = action.id
            state.apply(rng.choice(legal))
            steps += 1


# ----- what a seat may see, checked from the rules rather than the game's own view ----------

SEAT = re.compile(r"(\d+)")


def _hidden_zone(game_id: str, zone: str, viewer: int) -> bool:
    """Whether the cards of ``zone`` (a name of ``state.zones()``) are hidden from ``viewer``
    by the rules: the draw piles, the cards set aside, the other seats' hands and secret bids.
    (Spite and Malice's pay-off piles, face down but for their top card, are handled apart.)"""
    found = SEAT.search(zone)
    owner = int(found.group(1)) if found else None
    if zone in ("draw_pile", "stock", "removed"):
        return True
    if zone.startswith(("hand", "face_down:", "secret:")):
        return owner != viewer
    return False


def _hidden_cards(state: engine.State, viewer: int) -> set[str]:
    hidden: set[str] = set()
    for zone, cards in state.zones().items():
        if state.game_id == "spite" and zone.startswith("payoff"):
            hidden.update(cards[:-1])  # face down under the top card, for everyone
        elif _hidden_zone(state.game_id, zone, viewer):
            hidden.update(cards)
    return {c.split("#", 1)[0] for c in hidden}


def _visible_cards(state: engine.State, viewer: int) -> set[str]:
    """The cards lying where the rules let ``viewer`` see them now."""
    return {
        c.split("#", 1)[0]
        for zone, cards in state.zones().items()
        for c in (cards[-1:] if state.game_id == "spite" and zone.startswith("payoff") else cards)
        if not _hidden_zone(state.game_id, zone, viewer)
    }


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value.split("#", 1)[0]}
    if isinstance(value, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return set().union(*(_strings(v) for v in value))
    return set()


RULE_CARDS = {"roundup": ("needed", "known_missing")}
"""View keys that name cards by a rule, not where they lie: Roundup's ``needed`` (the card each
stack takes next) and ``known_missing`` (cards a seat is known, from the moves, not to hold)."""

HIDING_CASES = [
    pytest.param(game_id, players, options, id=f"{game_id}-{players}p-{_options_id(spec, options)}")
    for game_id, spec in engine.GAMES.items()
    for players in spec.player_counts()
    for options in spec.option_sets()
]


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players,options", HIDING_CASES)
def test_no_seat_sees_a_hidden_card_it_was_not_shown(game_id, players, options):
    """In a random match, at every other step of its first 300, no card lying where the rules hide
    it from a seat (another seat's hand or secret bid, a draw pile, the cards set aside) shows
    in that seat's view, unless a move showed it to that seat: a move whose words the seat's
    log shows unredacted, or the card lying face up somewhere since this round was dealt. A
    card a redacted move took is not named in that seat's words of it either. Each round's
    deal starts the seats' knowledge afresh, but for the rounds over (their breakdowns,
    ``last_round`` and ``rounds``, are public)."""
    state = engine.new_game(game_id, players=players, seed=11, options=options)
    rng = random.Random(11)
    known: list[set[str]] = [set() for _ in range(players)]
    steps = 0
    while not state.is_over and steps < 300:
        for p in range(players):
            known[p] |= _visible_cards(state, p)
            if steps % 2:
                continue
            hidden = _hidden_cards(state, p)
            view = dict(state.view(p))
            for key in ("last_round", "rounds", *RULE_CARDS.get(game_id, ())):
                view.pop(key, None)
            leaked = (_strings(view) & hidden) - known[p]
            assert not leaked, f"step {steps}: seat {p} sees {sorted(leaked)} ({state!r})"
        action = rng.choice(state.legal_actions())
        rounds = len(state.result().get("rounds") or [])
        state.apply(action)
        if len(state.result().get("rounds") or []) > rounds:
            known = [set() for _ in range(players)]  # a new deal: what was seen is elsewhere
        for p in range(players):
            words = state.public_label(action, p)
            if words == action.label:
                known[p] |= {c.split("#", 1)[0] for c in action.cards}
            else:
                known[p] |= _visible_cards(state, p)  # a card played face up may be named
                unseen = [c for c in action.cards if c.split("#", 1)[0] not in known[p]]
                for card in unseen:
                    assert card_name(card) not in words, (action.id, p, words)
        steps += 1
