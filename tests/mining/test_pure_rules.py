"""Pure rule functions: contract matching with wild Omnidium, survey lines, scoring and tie-breaks."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from deltav.games.mining import contracts as cm
from deltav.games.mining import scoring, survey
from deltav.games.mining.scenarios import OMNIDIUM

A, B, G, D, O = 0, 1, 2, 3, OMNIDIUM


def test_omnidium_is_wild_and_may_fill_different_requirements():
    need, size = (1, 2, 1, 1), 5  # C12: Alphatite, Betamite x2, Gammatite, Deltamite
    assert cm.satisfies(need, size, [O, O, O, O, O])
    assert cm.satisfies(need, size, [B, O, B, G, D])
    assert cm.fits(need, size, [O, O], A)
    assert not cm.fits((1, 0, 0, 0), 1, [O], A)  # already complete


def test_surplus_mineral_is_a_mismatch():
    need, size = (0, 2, 0, 0), 2
    assert cm.fits(need, size, [B], B)
    assert not cm.fits(need, size, [B, B], B)
    assert not cm.fits((1, 1, 0, 0), 2, [A], A)  # a second Alphatite for Alphatite+Betamite
    assert not cm.fits((1, 1, 0, 0), 2, [], G)
    assert not cm.fits((1, 1, 0, 0), 2, [], 5)  # incidents never match


@given(st.lists(st.integers(0, 4), max_size=6), st.lists(st.integers(0, 3), min_size=1, max_size=5))
def test_satisfies_is_the_multiset_condition(revealed, contract):
    need = tuple(contract.count(m) for m in range(4))
    size = len(contract)
    have = Counter(revealed)
    expected = len(revealed) == size and all(have[m] <= need[m] for m in range(4))
    assert cm.satisfies(need, size, revealed) == expected


@given(st.lists(st.integers(0, 4), max_size=6), st.lists(st.integers(0, 3), min_size=1, max_size=5))
def test_incremental_fits_agrees_with_satisfies_in_any_order(revealed, contract):
    need = tuple(contract.count(m) for m in range(4))
    size = len(contract)
    got: list[int] = []
    ok = True
    for m in revealed:
        if not cm.fits(need, size, got, m):
            ok = False
            break
        got.append(m)
    assert (ok and cm.complete(size, got)) == cm.satisfies(need, size, revealed)


def test_bid_matching():
    assert cm.bid_matches(G, G) and cm.bid_matches(G, O) and not cm.bid_matches(G, B)
    assert cm.bid_matches(O, O) and not cm.bid_matches(O, A)


def _mask(*squares):
    return sum(1 << s for s in squares)


def test_survey_picks_stay_in_one_row_or_column():
    eligible = (1 << 49) - 1 & ~(1 << 24)
    assert len(survey.candidates([], eligible, True)) == 48
    after_one = survey.candidates([0], eligible, True)
    assert set(after_one) == {1, 2, 3, 4, 5, 6, 7, 14, 21, 28, 35, 42}
    assert set(survey.candidates([0, 3], eligible, True)) == {1, 2, 4, 5, 6}  # the row is fixed
    assert survey.candidates([0, 3, 5], eligible, True) == []
    assert not survey.can_stop([0, 3], eligible, True)
    assert survey.can_stop([0, 3, 5], eligible, True)


def test_short_lines_allowed_only_when_the_line_has_fewer_than_three():
    eligible = _mask(0, 1, 9, 16)  # row 0 holds 0,1; column 2 holds 9,16; column 0 holds 0
    assert survey.can_stop([0, 1], eligible, True)
    assert not survey.can_stop([0, 1], eligible, False)
    assert not survey.available(eligible, False)
    assert survey.available(eligible, True)
    assert survey.can_stop([9, 16], eligible, True)
    eligible |= _mask(5)
    assert not survey.can_stop([0, 1], eligible, True)  # row 0 now has three eligible tiles
    assert survey.candidates([0, 1], eligible, True) == [5]


def test_scores_subtract_two_per_spent_bribe():
    assert scoring.score([3, 4, 5], 2) == 8
    assert scoring.score([], 1) == -2


def test_tie_breaks():
    assert scoring.winners([10, 12], [3, 1], [0, 0]) == (1,)
    assert scoring.winners([12, 12], [3, 1], [0, 5]) == (0,)  # most contracts
    assert scoring.winners([12, 12], [2, 2], [1, 3]) == (1,)  # then most unspent bribes
    assert scoring.winners([12, 12, 3], [2, 2, 9], [3, 3, 5]) == (0, 1)  # shared
    assert scoring.winners([12, 12], [2, 2], [3, 3], "draw") == ()
