"""A tiny game that exercises every part of the protocol (a simultaneous node, a die, private cards, a
determinizer), registered for the test suite only, so the core machinery and the conformance suite are tested
independently of the real games.

Rules: each player is dealt one secret card from six (values 1..6). Both then bid 0..2 at once, secretly; the
higher bidder moves first (ties: player 0), and each bid is paid from a purse of 2. Players then alternate
steps of 1 or 2; a rolled 6 adds one more. The first to reach 10 wins; after 40 steps the higher card wins.

Text: the toy writes its own wording in ``ToyGame.describer`` (what a game's ``text.py`` does): players by the
seats' names, from the event alone (a dealt card is told to its holder only, as the event's audience is). It
also shows the other hooks of a finished match and its start: ``full_view`` (both cards), ``match_summary`` (a
scores table and a statistic counted from the events) and ``briefing``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from deltav.core import Codec, Event, IllegalAction, Option, Result, Rng, ScenarioInfo, State, register_game, value
from deltav.core.errors import StateError
from deltav.core.fields import CLONE, COPY, LIST, SHARE, TO_JSON, TO_JSON_OR_NONE, Field, Fields, declare
from deltav.core.phases import Phase, PhaseTable
from deltav.core.protocol import Game, generic_text, player_names
from deltav.core.shape import read
from deltav.core.values import Action


@value("bid")
class Bid(Action):
    amount: int


@value("step")
class Step(Action):
    size: int


@value("dealt")
class Dealt(Event):
    player: int
    card: str
    to: tuple[int, ...] | None = None


@value("bid_placed")
class BidPlaced(Event):
    player: int


@value("bids_revealed")
class BidsRevealed(Event):
    bids: tuple[int, ...]
    first: int


@value("moved")
class Moved(Event):
    player: int
    size: int
    roll: int
    position: int


@value("won")
class Won(Event):
    player: int | None
    reason: str


CARDS = ("c1", "c2", "c3", "c4", "c5", "c6")


def _bid_legal(state, player):
    return [Bid(a) for a in range(3)]


def _bid_apply(state, player, action):
    if not 0 <= action.amount <= 2:
        raise IllegalAction("toy.bid.range", "bids are 0..2")
    state.bids[player] = action.amount
    events: list[Event] = [BidPlaced(player)]
    if None not in state.bids:
        state.turn = 1 if state.bids[1] > state.bids[0] else 0
        state.phase = "race"
        events.append(BidsRevealed(tuple(state.bids), state.turn))
    return events


def _race_legal(state, player):
    return [Step(1), Step(2)]


def _race_apply(state, player, action):
    if action.size not in (1, 2):
        raise IllegalAction("toy.step.size", "steps are 1 or 2")
    roll = state.rng.d6()
    state.pos[player] += action.size + (1 if roll == 6 else 0)
    state.steps += 1
    events: list[Event] = [Moved(player, action.size, roll, state.pos[player])]
    if state.pos[player] >= 10:
        state.res = Result((player,), "reached 10")
    elif state.steps >= 40:
        best = 0 if state.cards[0] > state.cards[1] else 1
        state.res = Result((best,), "higher card")
    state.turn = 1 - player
    if state.res is not None:
        events.append(Won(state.res.winners[0], state.res.reason))
    return events


#: The toy's phases (``deltav.core.phases``): who decides, the rules of each phase, the kinds of action it takes
#: and where a decision leads. ``ToyState``'s protocol methods are the table's.
PHASES = PhaseTable("phase", (
    Phase("bid", players=lambda s: tuple(p for p in range(2) if s.bids[p] is None), legal=_bid_legal,
          apply=_bid_apply, kinds=(Bid,), wrong_kind=lambda s, p, a: IllegalAction("toy.phase", "bid first"),
          then=("bid", "race")),
    Phase("race", players=lambda s: (s.turn,), legal=_race_legal, apply=_race_apply, kinds=(Step,),
          wrong_kind=lambda s, p, a: IllegalAction("toy.phase", "the bidding is over"), then=("race",)),
), terminal="res")


class ResultJson(TypedDict):
    winners: list[int]
    reason: str
    scores: list[float] | None


#: The toy's fields, declared once (``deltav.core.fields``): ``clone``, ``to_json``, loading and the JSON shape
#: ``STATE_JSON`` follow. ``res`` is saved as "result" (``result()`` is the protocol's method).
FIELDS = Fields(
    Field("cards", list[Literal[CARDS] | None], COPY, LIST, LIST),
    Field("bids", list[int | None], COPY, LIST, LIST),
    Field("pos", list[int], COPY, LIST, LIST),
    Field("turn", Literal[0, 1]),
    Field("steps", int),
    Field("phase", Literal["bid", "race"]),
    Field("res", ResultJson | None, SHARE, TO_JSON_OR_NONE, lambda v, doc: Result.from_json(v) if v else None,
          json="result"),
    Field("rng", str, CLONE, TO_JSON, lambda v, doc: Rng.from_json(v)),
    Field("options", load_default={"scenario": "standard"}),  # not saved: the toy has one scenario
    Field("num_players", load_default=2),
)
STATE_JSON = FIELDS.typed_dict("ToyStateJson")


class ToyState(State):
    phases = PHASES
    __slots__ = FIELDS.slots  # clone and to_json: derived from the declaration (declare(), below the class)

    def __init__(self, options, rng: Rng):
        self.options = options
        self.num_players = 2
        self.rng = rng
        self.cards = [None, None]
        self.bids = [None, None]
        self.pos = [0, 0]
        self.turn = 0
        self.steps = 0
        self.phase = "bid"
        self.res: Result | None = None

    current_players = PHASES.current_players
    legal_actions = PHASES.legal_actions
    apply_action = PHASES.apply_action
    check_turn = PHASES.check_turn

    def is_terminal(self):
        return self.res is not None

    def turn_count(self):
        return self.steps

    def result(self):
        return self.res

    def view(self, player):
        return {
            "phase": self.phase,
            "card": self.cards[player] if player is not None else None,
            "bid_made": [b is not None for b in self.bids],
            "bids": list(self.bids) if self.phase != "bid" else ([self.bids[player]] if player is not None else []),
            "positions": list(self.pos),
            "turn": self.turn,
            "steps": self.steps,
            "result": self.res.to_json() if self.res else None,
        }

    def secret_tokens(self, player):
        return {c for p, c in enumerate(self.cards) if p != player}

    def full_view(self):
        """Everything (a finished match's replay): view(None) with both cards (``cards``) and the bids made."""
        return {**self.view(None), "cards": list(self.cards), "bids": list(self.bids)}


declare(ToyState, FIELDS)


@register_game
class ToyGame(Game):
    id = "toy"
    title = "Toy race (test only)"
    has_hidden_information = True
    has_simultaneous_moves = True
    options = (Option("scenario", str, "standard", "the only scenario", choices=("standard",)),)
    actions = Codec([Bid, Step])
    events = Codec([Dealt, BidPlaced, BidsRevealed, Moved, Won])

    @classmethod
    def scenarios(cls):
        return [ScenarioInfo("standard", "Standard", (2,), "A race to 10 with a secret card and a bid.")]

    @classmethod
    def max_decisions(cls, options):
        return 42

    @classmethod
    def describer(cls, options, names=None):
        who = player_names(names, 2)

        def text(v):
            obj = v.to_json() if hasattr(v, "to_json") else dict(v)
            kind = obj.get("type")
            try:
                if kind == "bid":
                    return f"bid {obj['amount']}"
                if kind == "step":
                    return f"step {obj['size']}"
                if kind == "bid_placed":
                    return f"{who[obj['player']]} placed a bid"
                if kind == "bids_revealed":
                    return f"bids {' and '.join(map(str, obj['bids']))}: {who[obj['first']]} moves first"
                if kind == "moved":
                    return f"{who[obj['player']]} steps {obj['size']} (rolled {obj['roll']}) to {obj['position']}"
                if kind == "won":
                    return f"{who[obj['player']]} wins: {obj['reason']}"
            except (KeyError, IndexError, TypeError):
                pass
            return generic_text(cls, v)  # anything else (or malformed): the plain form

        return text

    @classmethod
    def briefing(cls, options, seat, names=None):
        """The toy's briefing: the default (title, the scenario's summary) with each side's forces and goal."""
        out = super().briefing(options, seat, names)
        for side in out["sides"]:
            side["forces"] = ["one secret card", "a purse of 2 for the bid"]
            side["goal"] = "reach 10 first"
        out["wins"] = "The first to reach 10 wins; after 40 steps the higher card wins."
        if seat is not None:
            out["notes"] = [f"You are {out['sides'][seat]['name']}: bid high to move first."]
        return out

    @classmethod
    def match_summary(cls, state, events, names):
        """The result screen's table (each seat's position and card) on top of the default stats (what a game's
        ``summary.py`` does): the dice rolled counted from the events."""
        base = super().match_summary(state, events, names)
        rolls = [0, 0]
        for e in events:
            if isinstance(e, Moved):
                rolls[e.player] += 1
        scores = {"title": "The race", "columns": ["Player", "Position", "Card"],
                  "rows": [[names[p], state.pos[p], state.cards[p]] for p in range(2)]}
        return {"scores": scores, "stats": [*base["stats"], {"label": "Dice rolled", "values": rolls}],
                "notes": ["a rolled 6 adds one step"]}

    @classmethod
    def new_initial_state(cls, options=None, seed=0):
        s = ToyState(cls.resolve_options(options), Rng(seed))
        deck = list(CARDS)
        s.rng.shuffle(deck)
        s.cards = deck[:2]
        return s

    @classmethod
    def state_from_json(cls, obj):
        return FIELDS.build(ToyState, read(STATE_JSON, obj, error=StateError))

    @classmethod
    def determinize(cls, view, player, rng):
        s = ToyState({"scenario": "standard"}, Rng(rng.next64()))
        others = [c for c in CARDS if c != view["card"]]
        s.cards = [None, None]
        s.cards[player] = view["card"]
        s.cards[1 - player] = rng.choice(others)
        if view["phase"] == "bid":
            s.bids = [None, None]
            s.bids[player] = view["bids"][0] if view["bids"] else None
            if view["bid_made"][1 - player]:
                s.bids[1 - player] = rng.below(3)
        else:
            s.bids = list(view["bids"])
        s.pos, s.turn, s.steps, s.phase = list(view["positions"]), view["turn"], view["steps"], view["phase"]
        s.res = Result.from_json(view["result"]) if view["result"] else None
        return s
ToyState.game = ToyGame
