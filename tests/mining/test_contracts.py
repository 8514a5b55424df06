"""Contract attempts: declaring, revealing one tile at a time, Omnidium, mismatches, Mineral Replacement,
and bidding up (the rulebook's two worked examples are exact tests here)."""

from __future__ import annotations

import pytest

from deltav.core.errors import IllegalAction
from deltav.games.mining.messages import BidUp, Declare, Pass, Prospect, Replace, Reveal
from deltav.games.mining.phases import PHASES
from deltav.games.mining.scenarios import STATION
from deltav.games.mining.visibility import squares_of
from tests.mining.helpers import new, place, play, put_rocket, types


def attempt(st, contract: str):
    """Player 0 (to move) prospects and then declares ``contract``."""
    while PHASES[st.phase] == "pirate-window":
        play(st, st.current_players()[0], Pass())
    play(st, 0, Prospect())
    if PHASES[st.phase] == "reveal-choice":
        play(st, 0, Pass())
    while PHASES[st.phase] == "meteor-window":
        play(st, st.current_players()[0], Pass())
    return play(st, 0, Declare(contract))


def settle(st) -> list:
    """Every opponent lets the bid-up window pass; returns the events."""
    ev = []
    while PHASES[st.phase] == "bid-up-window":
        ev += play(st, st.current_players()[0], Pass())
    return ev


def counter(st, bribe: str) -> int:
    return st.cfg.counter_index[bribe]


def test_a_one_mineral_contract_is_fulfilled_and_rockets_return_to_the_station():
    st = new()
    tiles = place(st, {10: ("alphatite", 5)})
    put_rocket(st, 0, 10)
    attempt(st, "C01")
    ev = play(st, 0, Reveal(10))
    assert types(ev) == ["tile-revealed"] and PHASES[st.phase] == "bid-up-window"
    ev = settle(st)
    assert types(ev)[1:3] == ["rockets-to-station", "contract-fulfilled"]
    assert st.collected[0] == [(tiles[10], 0)] and st.contract_owners[0] == 0 and st.squares[10] == -1
    assert st.rockets_at(0, STATION) == 2 and st.rockets_at(0, 10) == 0
    assert st.scores() == [5, 0] and st.current == 1


def test_a_mismatch_fails_and_flips_the_tiles_back_as_public_knowledge():
    st = new()
    place(st, {10: ("alphatite", 3), 11: ("gammatite", 2)})
    attempt(st, "C05")  # Alphatite + Betamite
    play(st, 0, Reveal(10))
    assert squares_of(st.view(1))[10]["status"] == "revealed"
    ev = play(st, 0, Reveal(11))
    assert PHASES[st.phase] == "replace"
    ev = play(st, 0, Pass())
    failed = [e for e in ev if e.TYPE == "attempt-failed"][0]
    assert failed.flipped_back == (10, 11) and failed.reason == "mismatch"
    assert st.squares[10] >= 0 and squares_of(st.view(1))[11]["tile"]["kind"] == "gammatite"
    assert squares_of(st.view(None))[10]["status"] == "face_down"
    assert st.contract_owners[4] == -1 and st.current == 1


def test_omnidium_is_wild():
    st = new()
    place(st, {10: ("omnidium", 4), 11: ("betamite", 1)})
    attempt(st, "C05")
    play(st, 0, Reveal(10))
    play(st, 0, Reveal(11))
    settle(st)
    assert st.contract_owners[4] == 0 and st.scores()[0] == 5


def test_rulebook_example_mineral_replacement():
    """John tries Alphatite + Deltamite, reveals Betamite, spends his Alphatite bribe: the Betamite counts as
    Alphatite of equal value, and he goes on to reveal the Deltamite."""
    st = new()
    place(st, {10: ("betamite", 4), 11: ("deltamite", 2)})
    attempt(st, "C07")
    play(st, 0, Reveal(10))
    legal = st.legal_actions(0)
    assert Replace("b0-alphatite") in legal and Replace("b0-deltamite") in legal
    assert Replace("b0-gammatite") not in legal and Replace("b0-omnidium") in legal
    ev = play(st, 0, Replace("b0-alphatite"))
    assert types(ev) == ["bribe-spent", "mineral-replaced"]
    assert PHASES[st.phase] == "reveal"
    play(st, 0, Reveal(11))
    settle(st)
    assert st.contract_owners[6] == 0
    assert st.view(None)["collected"][0][0] == {"id": st.cfg.ids[st.collected[0][0][0]], "kind": "betamite", "value": 4,
                                                "counted_as": "alphatite"}
    assert st.scores()[0] == 4 + 2 - 2  # tile values, minus 2 for the spent bribe


def test_replacement_bribes_stay_spent_after_a_failure():
    st = new()
    place(st, {10: ("betamite", 4), 11: ("gammatite", 2)})
    attempt(st, "C07")
    play(st, 0, Reveal(10))
    play(st, 0, Replace("b0-alphatite"))
    play(st, 0, Reveal(11))
    play(st, 0, Pass())
    assert st.spent >> counter(st, "b0-alphatite") & 1 and st.scores()[0] == -2


def test_an_incident_revealed_in_an_attempt_ends_it_and_goes_to_hand():
    st = new()
    place(st, {10: ("alphatite", 3), 11: ("meteor_storm",)})
    put_rocket(st, 1, 12)
    attempt(st, "C05")
    play(st, 0, Reveal(10))
    ev = play(st, 0, Reveal(11))
    assert "incident-taken" in types(ev) and "attempt-failed" in types(ev)
    assert [t for t, _ in st.hands[0]] == [st.cfg.id_index[st.cfg.ids[st.hands[0][0][0]]]]
    assert st.current == 1


def test_incident_ends_attempt_option_off_lets_the_attempt_continue():
    st = new(incident_ends_attempt=False)
    place(st, {10: ("alphatite", 3), 11: ("meteor_storm",), 12: ("betamite", 2)})
    attempt(st, "C05")
    play(st, 0, Reveal(10))
    play(st, 0, Reveal(11))
    assert PHASES[st.phase] == "reveal"
    play(st, 0, Reveal(12))
    settle(st)
    assert st.contract_owners[4] == 0


def test_revealing_under_an_opponent_or_the_alien_is_illegal():
    st = new()
    put_rocket(st, 1, 10)
    st.alien = 11
    attempt(st, "C01")
    for sq, rule in ((10, "mining.reveal.opponent"), (11, "mining.reveal.alien"), (STATION, "mining.reveal.not_face_down")):
        before = st.to_json()
        with pytest.raises(IllegalAction) as err:
            st.apply_action(0, Reveal(sq))
        assert err.value.rule == rule and st.to_json() == before


def test_overmatch_is_a_mismatch_by_default_and_can_be_ignored():
    st = new()
    place(st, {10: ("betamite", 3), 11: ("betamite", 2)})
    attempt(st, "C05")
    play(st, 0, Reveal(10))
    play(st, 0, Reveal(11))
    assert PHASES[st.phase] == "replace"
    st2 = new(overmatch="ignored")
    place(st2, {10: ("betamite", 3), 11: ("betamite", 2), 12: ("alphatite", 1)})
    attempt(st2, "C05")
    play(st2, 0, Reveal(10))
    play(st2, 0, Reveal(11))
    assert PHASES[st2.phase] == "reveal"
    ev = play(st2, 0, Reveal(12)) + settle(st2)
    done = [e for e in ev if e.TYPE == "contract-fulfilled"][0]
    assert done.points == 4 and st2.squares[11] >= 0 and st2.public >> 11 & 1


def test_the_contract_attempt_is_mandatory_by_default():
    """Rulebook: "During your turn, you must ... 1. Take an action AND 2. Try to fulfill a contract"."""
    st = new()
    play(st, 0, Prospect())
    assert Pass() not in st.legal_actions(0)
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply_action(0, Pass())
    assert err.value.rule == "mining.attempt.mandatory"
    assert st.to_json() == before
    st2 = new(mandatory_contract_attempt=False)  # the option lets a user make it optional
    play(st2, 0, Prospect())
    assert Pass() in st2.legal_actions(0)


def test_a_mandatory_attempt_may_still_pass_when_nothing_can_be_declared():
    st = new()
    play(st, 0, Prospect())
    st.stormed = True  # a Meteor Storm stopped the attempt
    st._legal = None
    assert st.legal_actions(0) == [Pass()]


# --- bidding up --------------------------------------------------------------------------------------------

def fulfil_c09(st):
    """Player 0 (Greg) fulfils Betamite + Gammatite + Deltamite from squares 10, 11, 12."""
    place(st, {10: ("betamite", 3), 11: ("gammatite", 1), 12: ("deltamite", 2), 13: ("gammatite", 5),
               14: ("alphatite", 4), 15: ("omnidium", 2)})
    attempt(st, "C09")
    for s in (10, 11, 12):
        play(st, 0, Reveal(s))


def test_rulebook_example_bid_up():
    """Greg fulfils B+G+D; Brian bids up with his Gammatite counter; Greg reveals a Gammatite: he collects the
    contract and all four tiles, and Brian's Gammatite counter stays spent."""
    st = new()
    fulfil_c09(st)
    assert PHASES[st.phase] == "bid-up-window" and st.current_players() == [1]
    legal = st.legal_actions(1)
    # "Brian could only spend a Betamite, Gammatite, or Deltamite bribe counter" (not Alphatite, not Omnidium)
    bids = {a.bribe for a in legal if isinstance(a, BidUp)}
    assert bids == {"b1-betamite", "b1-gammatite", "b1-deltamite"}
    play(st, 1, BidUp("b1-gammatite"))
    assert st.current_players() == [0] and PHASES[st.phase] == "bid-up-reveal"
    ev = play(st, 0, Reveal(13))
    done = [e for e in ev if e.TYPE == "contract-fulfilled"][0]
    assert len(done.tiles) == 4 and done.points == 3 + 1 + 2 + 5
    assert st.spent >> counter(st, "b1-gammatite") & 1
    assert st.scores() == [11, -2]


def test_a_failed_bid_up_fails_the_contract_and_leaves_the_bidder_counter_unspent():
    st = new()
    fulfil_c09(st)
    play(st, 1, BidUp("b1-gammatite"))
    play(st, 0, Reveal(14))  # Alphatite: no match
    assert PHASES[st.phase] == "bid-up-replace"
    assert st.legal_actions(0) == [Replace("b0-gammatite"), Pass()]
    ev = play(st, 0, Pass())
    failed = [e for e in ev if e.TYPE == "attempt-failed"][0]
    assert failed.flipped_back == (10, 11, 12, 14)
    assert not st.spent >> counter(st, "b1-gammatite") & 1
    assert st.contract_owners[8] == -1 and st.collected[0] == [] and st.squares[10] >= 0


def test_the_fulfiller_may_answer_a_bid_up_with_an_own_bribe_of_that_mineral():
    st = new()
    fulfil_c09(st)
    play(st, 1, BidUp("b1-gammatite"))
    play(st, 0, Reveal(14))
    play(st, 0, Replace("b0-gammatite"))
    assert st.contract_owners[8] == 0 and len(st.collected[0]) == 4
    assert st.spent >> counter(st, "b0-gammatite") & 1 and st.spent >> counter(st, "b1-gammatite") & 1


def test_omnidium_tile_answers_any_bid_and_an_omnidium_bid_needs_omnidium():
    st = new()
    fulfil_c09(st)
    play(st, 1, BidUp("b1-gammatite"))
    play(st, 0, Reveal(15))
    assert st.contract_owners[8] == 0
    st = new(omnidium_bid_up="reveal_omnidium")
    fulfil_c09(st)
    play(st, 1, BidUp("b1-omnidium"))
    play(st, 0, Reveal(13))  # Gammatite does not answer an Omnidium bid
    assert PHASES[st.phase] == "bid-up-replace"


def test_an_omnidium_bribe_may_not_bid_up_by_default():
    """Rulebook: a bid-up bribe must match a mineral on the contract; no contract lists Omnidium."""
    st = new()
    fulfil_c09(st)
    assert BidUp("b1-omnidium") not in st.legal_actions(1)
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply_action(1, BidUp("b1-omnidium"))
    assert err.value.rule == "mining.bid_up.omnidium"
    assert st.to_json() == before
    with pytest.raises(IllegalAction) as err:
        st.apply_action(1, BidUp("b1-alphatite"))
    assert err.value.rule == "mining.bid_up.mineral"


def test_a_player_holding_only_an_omnidium_counter_is_not_asked_to_bid_up():
    st = new(players=3)
    for m in ("alphatite", "betamite", "gammatite", "deltamite"):
        st.spent |= 1 << counter(st, f"b1-{m}")
    fulfil_c09(st)
    assert st.queue == (2,)


def test_first_player_clockwise_wins_the_bid_up_window():
    st = new(players=3)
    fulfil_c09(st)
    assert st.queue == (1, 2)
    play(st, 1, BidUp("b1-betamite"))
    assert st.current_players() == [0]  # player 2 is never asked
    st = new(players=3)
    fulfil_c09(st)
    play(st, 1, Pass())
    assert st.current_players() == [2]
    play(st, 2, Pass())
    assert st.contract_owners[8] == 0 and len(st.collected[0]) == 3


def test_players_without_a_matching_counter_are_not_asked():
    st = new(players=3)
    for m in ("betamite", "gammatite", "deltamite", "omnidium"):
        st.spent |= 1 << counter(st, f"b1-{m}")
    fulfil_c09(st)
    assert st.queue == (2,)
    st = new(players=3, skip_empty_windows=False)
    for m in ("betamite", "gammatite", "deltamite", "omnidium"):
        st.spent |= 1 << counter(st, f"b1-{m}")
    fulfil_c09(st)
    assert st.queue == (1, 2) and st.legal_actions(1) == [Pass()]
    play(st, 1, Pass())
    assert st.current_players() == [2] and BidUp("b2-gammatite") in st.legal_actions(2)


def test_bid_up_can_be_switched_off():
    st = new(bid_up=False)
    fulfil_c09(st)
    assert st.contract_owners[8] == 0
