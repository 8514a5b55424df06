"""Small test games implementing the protocol, so the search agents are tested without the real games.

They are deliberately *not* registered (registering would add them to the conformance suite's registry).

- :class:`NimGame`: multi-heap Nim, normal play (who takes the last object wins), 2 or 3 players. Perfect
  information; the determinizer rebuilds the state from the view.
- :class:`GambleGame`: a hidden card 0..2 is dealt (player 1 sees it, player 0 does not). Player 0 takes
  ``safe`` (+0.5) or ``gamble`` and then guesses the card (+1 right, -1 wrong). In every *sampled world* the
  card is known, so determinized search (PIMC) is fooled into gambling (strategy fusion); information-set
  search sees that a guess is right one time in three (-1/3) and plays safe.
- :class:`MatrixGame`: a zero-sum matrix game played simultaneously for ``rounds`` rounds; picks are secret
  until both are in. ``biased_rps`` has the equilibrium (1/4, 1/2, 1/4); ``mixed2`` has (3/7, 4/7) for the row
  player and (2/7, 5/7) for the column player; ``dominant`` has a saddle point at (0, 0).
"""

from __future__ import annotations

from deltav.core import Codec, Event, IllegalAction, Option, Result, Rng, ScenarioInfo, State, value
from deltav.core.protocol import Game
from deltav.core.values import Action

# --- Nim ---------------------------------------------------------------------------------------------------


@value("take")
class Take(Action):
    heap: int
    count: int


@value("took")
class Took(Event):
    player: int
    heap: int
    count: int


class NimState(State):
    __slots__ = ("num_players", "heaps", "turn", "winner", "rng")

    def __init__(self, heaps, turn, n, winner=None, rng=None):
        self.heaps = list(heaps)
        self.turn = turn
        self.num_players = n
        self.winner = winner
        self.rng = rng or Rng(0)

    def current_players(self):
        return () if self.winner is not None else (self.turn,)

    def legal_actions(self, player):
        if self.winner is not None or player != self.turn:
            return []
        return [Take(i, k) for i, h in enumerate(self.heaps) for k in range(1, h + 1)]

    def apply_action(self, player, action):
        self.check_turn(player)
        if not isinstance(action, Take):
            raise IllegalAction("nim.action", "only take")
        if not 0 <= action.heap < len(self.heaps):
            raise IllegalAction("nim.heap", "no such heap")
        if not 1 <= action.count <= self.heaps[action.heap]:
            raise IllegalAction("nim.count", "take 1 up to the heap's size")
        self.heaps[action.heap] -= action.count
        if not any(self.heaps):
            self.winner = player
        self.turn = (self.turn + 1) % self.num_players
        return [Took(player, action.heap, action.count)]

    def is_terminal(self):
        return self.winner is not None

    def result(self):
        return Result((self.winner,), "took the last object") if self.winner is not None else None

    def view(self, player):
        return {"heaps": list(self.heaps), "turn": self.turn, "players": self.num_players, "winner": self.winner}

    def clone(self):
        s = NimState.__new__(NimState)
        s.heaps = self.heaps[:]
        s.turn = self.turn
        s.num_players = self.num_players
        s.winner = self.winner
        s.rng = self.rng.clone()
        return s

    def to_json(self):
        return {**self.view(None), "rng": self.rng.to_json()}


class NimGame(Game):
    id = "test-nim"
    title = "Nim (test game)"
    min_players = 2
    max_players = 3
    options = (
        Option("scenario", str, "standard", "the only scenario", choices=("standard",)),
        Option("players", int, 2, "number of players", minimum=2, maximum=3),
        Option("heaps", str, "1,3,5", "heap sizes", free_choice=True),
    )
    actions = Codec([Take])
    events = Codec([Took])

    @classmethod
    def scenarios(cls):
        return [ScenarioInfo("standard", "Standard", (2, 3))]

    @classmethod
    def max_decisions(cls, options):
        return sum(int(x) for x in options["heaps"].split(","))

    @classmethod
    def new_initial_state(cls, options=None, seed=0):
        o = cls.resolve_options(options)
        return NimState([int(x) for x in o["heaps"].split(",")], 0, o["players"], rng=Rng(seed))

    @classmethod
    def state_from_json(cls, obj):
        return NimState(obj["heaps"], obj["turn"], obj["players"], obj["winner"], Rng.from_json(obj["rng"]))

    @classmethod
    def determinize(cls, view, player, rng):
        return NimState(view["heaps"], view["turn"], view["players"], view["winner"], Rng(rng.next64()))


NimState.game = NimGame


# --- the gamble (hidden information) ------------------------------------------------------------------------


@value("safe")
class Safe(Action):
    pass


@value("gamble")
class Gamble(Action):
    pass


@value("guess")
class Guess(Action):
    card: int


@value("chose")
class Chose(Event):
    what: str


@value("revealed")
class Revealed(Event):
    card: int
    guess: int


CARD_NAMES = ("card-zero", "card-one", "card-two")


class GambleState(State):
    def __init__(self, card, phase="choose", guess=None, rng=None):
        self.num_players = 2
        self.card = card
        self.phase = phase  # choose, guess, done
        self.guess = guess
        self.safe = False
        self.rng = rng or Rng(0)

    def current_players(self):
        return () if self.phase == "done" else (0,)

    def legal_actions(self, player):
        if player != 0 or self.phase == "done":
            return []
        if self.phase == "choose":
            return [Safe(), Gamble()]
        return [Guess(k) for k in range(3)]

    def apply_action(self, player, action):
        self.check_turn(player)
        if self.phase == "choose":
            if isinstance(action, Safe):
                self.safe = True
                self.phase = "done"
                return [Chose("safe")]
            if isinstance(action, Gamble):
                self.phase = "guess"
                return [Chose("gamble")]
            raise IllegalAction("gamble.choose", "choose safe or gamble first")
        if not isinstance(action, Guess):
            raise IllegalAction("gamble.guess", "guess the card")
        if not 0 <= action.card < 3:
            raise IllegalAction("gamble.guess.range", "cards are 0..2")
        self.guess = action.card
        self.phase = "done"
        return [Revealed(self.card, action.card)]

    def is_terminal(self):
        return self.phase == "done"

    def result(self):
        if self.phase != "done":
            return None
        if self.safe or self.guess == self.card:
            return Result((0,), "safe" if self.safe else "guessed right")
        return Result((1,), "guessed wrong")

    def returns(self):
        if self.phase != "done":
            return [0.0, 0.0]
        if self.safe:
            return [0.5, -0.5]
        return [1.0, -1.0] if self.guess == self.card else [-1.0, 1.0]

    def view(self, player):
        v = {"phase": self.phase, "safe": self.safe, "guess": self.guess}
        if player == 1 or self.phase == "done":
            v["card"] = CARD_NAMES[self.card]
        return v

    def secret_tokens(self, player):
        return set() if player == 1 or self.phase == "done" else {CARD_NAMES[self.card]}

    def clone(self):
        s = GambleState(self.card, self.phase, self.guess, self.rng.clone())
        s.safe = self.safe
        return s

    def to_json(self):
        return {"card": self.card, "phase": self.phase, "guess": self.guess, "safe": self.safe,
                "rng": self.rng.to_json()}


class GambleGame(Game):
    id = "test-gamble"
    title = "The gamble (test game)"
    has_hidden_information = True
    options = (Option("scenario", str, "standard", "the only scenario", choices=("standard",)),)
    actions = Codec([Safe, Gamble, Guess])
    events = Codec([Chose, Revealed])
    determinize_calls: list = []  # (view, player) of every determinize call, for the tests

    @classmethod
    def max_decisions(cls, options):
        return 2

    @classmethod
    def new_initial_state(cls, options=None, seed=0):
        rng = Rng(seed)
        return GambleState(rng.below(3), rng=rng)

    @classmethod
    def state_from_json(cls, obj):
        s = GambleState(obj["card"], obj["phase"], obj["guess"], Rng.from_json(obj["rng"]))
        s.safe = obj["safe"]
        return s

    @classmethod
    def determinize(cls, view, player, rng):
        cls.determinize_calls.append((view, player))
        card = CARD_NAMES.index(view["card"]) if "card" in view else rng.below(3)
        s = GambleState(card, view["phase"], view["guess"], Rng(rng.next64()))
        s.safe = view["safe"]
        return s


GambleState.game = GambleGame


# --- simultaneous matrix game -----------------------------------------------------------------------------


MATRICES = {
    "biased_rps": ((0, -1, 2), (1, 0, -1), (-2, 1, 0)),
    "mixed2": ((3, -1), (-2, 1)),
    "dominant": ((1, 2), (0, 1)),
}


@value("pick")
class Pick(Action):
    choice: int


@value("picked")
class Picked(Event):
    player: int


@value("round_over")
class RoundOver(Event):
    picks: tuple[int, ...]
    payoff: int


class MatrixState(State):
    __slots__ = ("num_players", "matrix", "rounds", "round", "picks", "total", "rng", "name")

    def __init__(self, name, rounds, rng):
        self.num_players = 2
        self.name = name
        self.matrix = MATRICES[name]
        self.rounds = rounds
        self.round = 0
        self.picks = [None, None]
        self.total = 0
        self.rng = rng

    def current_players(self):
        if self.round >= self.rounds:
            return ()
        return tuple(p for p in (0, 1) if self.picks[p] is None)

    def legal_actions(self, player):
        if player not in self.current_players():
            return []
        n = len(self.matrix) if player == 0 else len(self.matrix[0])
        return [Pick(k) for k in range(n)]

    def apply_action(self, player, action):
        self.check_turn(player)
        if not isinstance(action, Pick):
            raise IllegalAction("matrix.action", "pick a row or column")
        n = len(self.matrix) if player == 0 else len(self.matrix[0])
        if not 0 <= action.choice < n:
            raise IllegalAction("matrix.range", f"choices are 0..{n - 1}")
        self.picks[player] = action.choice
        events: list[Event] = [Picked(player)]
        if None not in self.picks:
            pay = self.matrix[self.picks[0]][self.picks[1]]
            self.total += pay
            events.append(RoundOver(tuple(self.picks), pay))
            self.picks = [None, None]
            self.round += 1
        return events

    def is_terminal(self):
        return self.round >= self.rounds

    def result(self):
        if not self.is_terminal():
            return None
        if self.total == 0:
            return Result((), "draw")
        return Result((0,) if self.total > 0 else (1,), "payoff")

    def returns(self):
        scale = max(abs(x) for row in self.matrix for x in row) * self.rounds
        u = self.total / scale
        return [u, -u]

    def view(self, player):
        own = self.picks[player] if player is not None else None
        return {"matrix": self.name, "rounds": self.rounds, "round": self.round, "total": self.total,
                "picked": [x is not None for x in self.picks], "own_pick": own}

    def clone(self):
        s = MatrixState.__new__(MatrixState)
        s.num_players = 2
        s.name = self.name
        s.matrix = self.matrix
        s.rounds = self.rounds
        s.round = self.round
        s.picks = self.picks[:]
        s.total = self.total
        s.rng = self.rng.clone()
        return s

    def to_json(self):
        return {"matrix": self.name, "rounds": self.rounds, "round": self.round, "picks": list(self.picks),
                "total": self.total, "rng": self.rng.to_json()}


class MatrixGame(Game):
    id = "test-matrix"
    title = "Matrix game (test game)"
    has_simultaneous_moves = True
    has_hidden_information = True  # the other player's pick, until both are in
    options = (
        Option("scenario", str, "biased_rps", "the payoff matrix", choices=tuple(MATRICES)),
        Option("rounds", int, 1, "rounds played", minimum=1, maximum=10),
    )
    actions = Codec([Pick])
    events = Codec([Picked, RoundOver])

    @classmethod
    def max_decisions(cls, options):
        return 2 * options["rounds"]

    @classmethod
    def new_initial_state(cls, options=None, seed=0):
        o = cls.resolve_options(options)
        return MatrixState(o["scenario"], o["rounds"], Rng(seed))

    @classmethod
    def state_from_json(cls, obj):
        s = MatrixState(obj["matrix"], obj["rounds"], Rng.from_json(obj["rng"]))
        s.round, s.picks, s.total = obj["round"], list(obj["picks"]), obj["total"]
        return s

    @classmethod
    def determinize(cls, view, player, rng):
        s = MatrixState(view["matrix"], view["rounds"], Rng(rng.next64()))
        s.round, s.total = view["round"], view["total"]
        s.picks = [None, None]
        s.picks[player] = view["own_pick"]
        other = 1 - player
        if view["picked"][other]:
            n = len(s.matrix) if other == 0 else len(s.matrix[0])
            s.picks[other] = rng.below(n)
        return s


MatrixState.game = MatrixGame
