"""The seeded random number generator a game state owns, and its dice helpers.

One small generator (SplitMix64, Steele et al. 2014) whose whole state is one 64-bit integer, so a clone is
a copy of an int and ``to_json`` is a short string: search clones states millions of times. The generator is
fully specified here, so a seed gives the same dice on every platform and every Python version.

This module owns randomness only; it knows nothing of games.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of a 64-bit integer."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *salt: int | str) -> int:
    """A seed for a sub-stream (a game of a series, a bot's seat), stable across runs and platforms."""
    z = mix64(seed & _MASK)
    for s in salt:
        if isinstance(s, str):
            for ch in s.encode():
                z = mix64(((z ^ ch) + _GOLDEN) & _MASK)
        else:
            z = mix64(((z ^ (s & _MASK)) + _GOLDEN) & _MASK)
    return z


class Rng:
    """A seeded generator with dice helpers. Draws are exact: ``below(n)`` uses rejection, never a biased
    modulo. Its state is part of a game's ``to_json`` so clones and replays roll the same dice."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = mix64(seed & _MASK)

    # --- state -------------------------------------------------------------------------------------
    def clone(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def to_json(self) -> str:
        return format(self.state, "016x")

    @classmethod
    def from_json(cls, text: str) -> Rng:
        r = cls.__new__(cls)
        try:
            value = int(text, 16)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"rng state must be a hex string, got {text!r}") from exc
        if not 0 <= value <= _MASK:
            raise ValueError("rng state out of range")
        r.state = value
        return r

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __repr__(self) -> str:
        return f"Rng(state=0x{self.state:016x})"

    # --- draws -------------------------------------------------------------------------------------
    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        # Lemire's multiply-shift with rejection of the short final interval: exact and usually one draw.
        # (next64 inlined: this is the hottest draw of every search)
        threshold = (1 << 64) % n
        s = self.state
        while True:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            m = (z ^ (z >> 31)) * n
            if (m & _MASK) >= threshold:
                self.state = s
                return m >> 64

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both ends included)."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def chance(self, p: float) -> bool:
        return self.random() < p

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence) -> None:
        """Fisher-Yates in place, from the end: ``j = below(i + 1)`` for each ``i`` (the draw inlined: a
        determinizer shuffles every hidden tile of every sampled world)."""
        s = self.state
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            threshold = (1 << 64) % n
            while True:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                m = (z ^ (z >> 31)) * n
                if (m & _MASK) >= threshold:
                    break
            j = m >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self.state = s

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]

    def fork(self, *salt: int | str) -> Rng:
        """An independent generator derived from this one's state and a salt; this one is not advanced."""
        r = Rng.__new__(Rng)
        r.state = derive_seed(self.state, *salt)
        return r

    # --- dice --------------------------------------------------------------------------------------
    def d6(self) -> int:
        return self.below(6) + 1

    def d10(self) -> int:
        return self.below(10) + 1

    def d100(self) -> int:
        """1..100 (a percentile roll; 100 stands for the '00' face)."""
        return self.below(100) + 1

    def roll(self, count: int, sides: int) -> int:
        """The sum of ``count`` dice with ``sides`` faces each."""
        total = 0
        for _ in range(count):
            total += self.below(sides) + 1
        return total

    def two_d6(self) -> int:
        return self.below(6) + self.below(6) + 2

    def dice(self, count: int, sides: int) -> list[int]:
        """The individual faces of ``count`` dice (for events that show each die)."""
        return [self.below(sides) + 1 for _ in range(count)]
