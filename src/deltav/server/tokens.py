"""Room codes and seat tokens. Tokens are random (``secrets``) and only their sha256 hashes are stored.

This module owns the formats only (no database, no rooms).
"""

from __future__ import annotations

import hashlib
import secrets

#: Room-code letters: capitals without the ambiguous I, O, Q (1, 0, O), U and V (each other): 21 letters, so
#: 21**5 = 4.1 million codes.
CODE_ALPHABET = "ABCDEFGHJKLMNPRSTWXYZ"
CODE_LENGTH = 5


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str | None:
    """A room code as typed by a person (any case, surrounding spaces), or None if it cannot be one."""
    code = text.strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def new_token() -> str:
    """32 URL-safe characters (192 random bits), never starting with ``-``: a token is pasted into command lines
    (``deltav agent --token T``), where a leading dash would read as an option."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
