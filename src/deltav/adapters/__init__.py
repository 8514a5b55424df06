"""Adapters to research frameworks (the optional extra ``deltav[rl]``): PettingZoo (``deltav.adapters.pettingzoo``),
Gymnasium (``deltav.adapters.gymnasium``) and OpenSpiel (``deltav.adapters.openspiel``). The engines stay free of
these dependencies; the integer actions and observations come from each game's ``encoding`` module. See
docs/research.md."""
