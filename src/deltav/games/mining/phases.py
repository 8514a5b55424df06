"""The phase codes of a mining turn and the small constant tables every rules module shares.

A turn runs: (pirate window) -> action phase -> (meteor window) -> contract attempt phase -> end of turn (see
docs/mining.md, "Decisions"). ``state.phase`` holds one of the ``P_*`` codes; ``state.ret`` holds where a
sub-decision returns to (a phase, or one of the ``R_*`` continuations). This module holds constants only.
"""

from __future__ import annotations

from deltav.games.mining.scenarios import ACQUISITION, SABOTAGE, SCAN, SQUARES

(P_PIRATE, P_ACTION, P_MOVING, P_SURVEY, P_SCAN, P_LOOKREV, P_SAB_TARGET, P_SAB_MOVE, P_ALIEN_MOVE,
 P_ALIEN_STEAL, P_METEOR, P_ATTEMPT, P_REVEAL, P_REPLACE, P_BIDUP, P_BID_REVEAL, P_BID_REPLACE, P_OVER) = range(18)
PHASES = ("pirate-window", "action", "moving", "survey", "scan", "reveal-choice", "sabotage-target",
          "sabotage-move", "alien-move", "alien-steal", "meteor-window", "attempt", "reveal", "replace",
          "bid-up-window", "bid-up-reveal", "bid-up-replace", "over")
# where a sub-decision returns to (``ret``): a phase, or one of these continuations
R_AFTER_ACTION, R_FAIL, R_BID_FAIL = 100, 101, 102
RETURNS = {P_ACTION: "action", P_ATTEMPT: "attempt", P_REVEAL: "reveal", R_AFTER_ACTION: "after-action",
           R_FAIL: "fail-attempt", R_BID_FAIL: "fail-bid-up", -1: "none"}
RETURN_CODES = {v: k for k, v in RETURNS.items()}
PHASE_CODES = {v: k for k, v in enumerate(PHASES)}

BIT = tuple(1 << s for s in range(SQUARES))
WINDOWS = (P_PIRATE, P_METEOR, P_BIDUP)
OWN_TURN_INCIDENTS = (SCAN, SABOTAGE, ACQUISITION)
