"""Print the board JSON of a tactical scenario (deltav.games.tactical.board) for the client build.

Usage (from web/): ``PYTHONPATH=../src python tools/export_board.py [scenario]``; build.mjs runs it and embeds the
output in the demo page. Owns nothing but this command line.
"""

from __future__ import annotations

import json
import sys

from deltav.games.tactical.board import board


def main(argv: list[str]) -> int:
    options = {"scenario": argv[0]} if argv else None
    json.dump(board(options), sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
