"""Top Card's match: deal two cards each, play them one at a time, score, deal again."""

from __future__ import annotations

import random
from typing import Any

from engine.cards import card_name
from engine.core import Action, State

from .rules import DECK, HAND, MAX_ROUNDS, total


class TopCardState(State):
    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._init_common("topcard", players, seed, options)
        self.target: int = options["target"]
        self.scores = [0] * players
        self.rounds: list[dict[str, Any]] = []
        self.winners: list[int] = []
        self.turn = 0
        self.hands: list[list[str]] = []
        self.table: list[list[str]] = []
        self.stock: list[str] = []
        self._deal()

    def _deal(self) -> None:
        cards = list(DECK)
        self.rng.shuffle(cards)
        n = self.players
        self.hands = [sorted(cards[p * HAND : (p + 1) * HAND]) for p in range(n)]
        self.table = [[] for _ in range(n)]
        self.stock = cards[n * HAND :]

    @property
    def current_player(self) -> int | None:
        return None if self.winners else self.turn

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    def _legal_actions(self) -> list[Action]:
        p = self.turn
        return [Action(f"play:{c}", p, f"Play {card_name(c)}", (c,)) for c in self.hands[p]]

    def _apply(self, action: Action) -> bool:
        p = self.turn
        card = action.cards[0]
        self.hands[p].remove(card)
        self.table[p].append(card)
        self.turn = (p + 1) % self.players
        if any(self.hands):
            return False
        totals = [total(t) for t in self.table]
        top = max(totals)
        best = [s for s, t in enumerate(totals) if t == top]
        winner = best[0] if len(best) == 1 else None
        if winner is not None:
            self.scores[winner] += 1
        self.rounds.append({"round": len(self.rounds) + 1, "totals": totals, "winner": winner})
        if max(self.scores) >= self.target or len(self.rounds) >= MAX_ROUNDS:
            high = max(self.scores)
            self.winners = [s for s, v in enumerate(self.scores) if v == high]
            return False
        self.turn = len(self.rounds) % self.players
        self._round_over()
        self._deal()
        return True

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "phase": "over" if self.winners else "play",
            "viewer": player,
            "current_player": self.current_player,
            "hand": list(self.hands[player]) if player is not None else [],
            "hand_counts": [len(h) for h in self.hands],
            "table": [list(t) for t in self.table],
            "stock_count": len(self.stock),
            "scores": list(self.scores),
            "last_round": dict(self.rounds[-1]) if self.rounds else None,
        }

    def result(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": [dict(r) for r in self.rounds],
        }

    def determinize(self, player: int, rng: random.Random) -> State:
        world = self._copy(random.Random(rng.getrandbits(64)))
        assert isinstance(world, TopCardState)
        unseen = [c for p in range(self.players) if p != player for c in self.hands[p]]
        unseen += self.stock
        rng.shuffle(unseen)
        for p in range(self.players):
            if p != player:
                size = len(self.hands[p])
                world.hands[p], unseen = sorted(unseen[:size]), unseen[size:]
        world.stock = unseen
        return world

    def zones(self) -> dict[str, list[str]]:
        out = {f"hand{p}": list(h) for p, h in enumerate(self.hands)}
        out.update({f"table{p}": list(t) for p, t in enumerate(self.table)})
        out["stock"] = list(self.stock)
        return out

    def deck(self) -> list[str]:
        return list(DECK)
