"""Quick match: a queue of players waiting for strangers, per title and scenario, kept in the server's database.

``POST /queue`` puts a player in the queue of a game and its options (the default scenario, or one the player
picks; for a game with a ``players`` option, that seat count) and answers a *ticket*, a secret only the player
holds (the database keeps its sha256, like seat tokens; it travels in request bodies, never in an address).
``POST /queue/poll`` is the player's poll: each poll
says the player is still there and runs a pairing pass over its queue; the answer is ``waiting`` (the seconds
waited, how many wait for the same match, and after ``Settings.queue_offer_seconds`` the offer to play a bot
now) or ``matched`` with the room code, the seat and the seat's token. ``POST /queue/cancel`` cancels;
``POST /queue/bots`` agrees to start a match of 3 or more seats with bots in the seats still empty.

Pairing (:meth:`Matchmaker.pair`): the entries of one queue (game + options) that polled within
``queue_stale_seconds``, oldest first. The oldest waiting player is always in the next match; the others are
the next arrivals, or, when at least ``queue_band_pool`` people wait for that match, the next arrivals of the
oldest's rating band (the leaderboard's rating of the player's name in that game, :func:`band`), then of the
nearest bands. When the seats are not all filled but every person waiting (two or more) has agreed to bots and
the oldest has waited ``queue_offer_seconds``, the match starts with the bot level the oldest chose in the empty
seats. Seats are dealt at random (``secrets.SystemRandom``, the server's seed source), so nobody can choose to
move first by arriving first. The room is made through the hub's own path (``Hub.create`` then ``Hub.join`` for
each further seat, so the rated-client bookkeeping is the usual one); each seat's token is derived from the
player's ticket (:func:`seat_token`: the ticket itself, whose hash the seat keeps), so no token is stored in
clear, and the poll hands it over.

Several processes share the queue through the database: a pairing takes its entries with one conditional update
(all or none; the database decides between processes), so two processes never put one player in two rooms. An
entry taken by a process that died before writing its room is given back after ``queue_stale_seconds``. A
restart loses no one's place (the rows stay; a client polling again within ``queue_stale_seconds`` is still
there); an entry whose client stopped polling is dropped, and its ticket then answers ``unknown_ticket`` (the
client says the place was lost and offers to join again).

This module owns the queue and the pairing; rooms and their rules stay the hub's and the rooms'; it knows no HTTP
(``app`` maps the routes here).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from deltav.server.match import ClientError
from deltav.server.store import QueueRow
from deltav.server.tokens import new_token, token_hash

if TYPE_CHECKING:
    from deltav.server.hub import Hub
    from deltav.server.leaderboard import Leaderboard

log = logging.getLogger("deltav.server")

#: The width of a rating band: Glicko-2 points (two-player ladders) or openskill mu (free-for-all ladders).
BAND_WIDTH = {"glicko2": 200.0, "openskill": 5.0}
#: The rating of a player the ladder does not know yet.
DEFAULT_RATING = {"glicko2": 1500.0, "openskill": 25.0}
#: Matched entries are kept this long after the last poll (a poll whose answer was lost is answered again).
MATCHED_KEEP_SECONDS = 600.0
#: How often a process drops the expired entries (on a poll, at most this often).
EXPIRE_SECONDS = 1.0
#: How often a join folds newly finished matches into the ratings its band is read from.
RATINGS_SECONDS = 10.0


def seat_token(ticket: str) -> str:
    """The seat token of a queue ticket's seat: the ticket itself (one secret the player already holds; the
    pairing, run on whichever player's poll, knows only its hash, which is what a seat keeps of its token)."""
    return ticket


def band(rating: float, system: str) -> int:
    return int(rating // BAND_WIDTH[system])


def queue_key(game: str, options: dict) -> str:
    return game + ":" + json.dumps(options, sort_keys=True, separators=(",", ":"))


class Matchmaker:
    """The quick-match queue of one server process (the queue itself is in the database: every process shares it)."""

    def __init__(self, hub: Hub, board: Leaderboard | None = None):
        self.hub = hub
        self.board = board
        self.random = secrets.SystemRandom()
        self._locks: dict[str, asyncio.Lock] = {}  # per queue key (a few dozen: games x scenarios x players)
        self._expired = 0.0  # when this process last dropped the expired entries
        self._rated = -RATINGS_SECONDS  # when it last folded the finished matches into the ratings (monotonic)

    @property
    def settings(self):
        return self.hub.settings

    # --- the player's requests -------------------------------------------------------------------------------
    async def join(self, client: str, game_id: str, scenario: str | None, players: int | None,
                   name: str | None, now: float | None = None) -> dict:
        """A new entry; its ticket and the first poll's answer. Refusals: ``unknown_game``, ``bad_options``,
        ``already_queued`` (409: this client's entries are at the limit), ``queue_full`` (503)."""
        now = time.time() if now is None else now
        game = self.hub.game(game_id)
        chosen: dict[str, Any] = {}
        if scenario is not None:
            chosen["scenario"] = scenario
        if players is not None:
            if not any(o["name"] == "players" for o in game.describe().get("options", [])):
                raise ClientError("bad_options", f"{game.id} has no 'players' option: its scenario sets the seats",
                                  field="players")
            chosen["players"] = players
        opts = self.hub.resolve_options(game, chosen)
        seats = game.num_players(opts)
        # the queue's options: what was chosen, resolved (the default scenario named), so equal choices meet
        key_opts = {k: opts[k] for k in ("scenario", "players") if k in opts}
        key = queue_key(game.id, key_opts)
        lim = self.settings.limits
        ticket = new_token()
        system = "glicko2" if seats == 2 else "openskill"
        entry = QueueRow(token_hash(ticket), client, game.id, key_opts, key, seats, name,
                         band(await self._rating(game.id, system, name), system), now, now)
        had, total = await self.hub.store.queue_add(entry, lim.queue_per_client, lim.queue_entries)
        if had >= lim.queue_per_client:
            raise ClientError("already_queued", f"this address is already waiting for a quick match (at most "
                                                f"{lim.queue_per_client} at a time): cancel it first (a place nobody "
                                                f"polls is dropped after {self.settings.queue_stale_seconds:g} s)", 409)
        if total >= lim.queue_entries:
            raise ClientError("queue_full", "the quick-match queue is full right now: try again in a minute, or "
                                            "play a bot", 503)
        log.info("quick match: %s joined the queue of %s", name or "a player", key, extra={"event": "queue_join"})
        out = await self._pair_and_answer(entry, ticket, now)
        return {"ticket": ticket, **out}

    async def _entry(self, ticket: Any) -> QueueRow:
        if not isinstance(ticket, str) or not 8 <= len(ticket) <= 200:
            raise ClientError("unknown_ticket", "that is not a quick-match ticket", 404)
        entry = await self.hub.store.queue_entry(token_hash(ticket))
        if entry is None:
            raise ClientError("unknown_ticket", "this place in the quick-match queue is gone (cancelled, or not "
                                                "polled for a while): join the queue again", 404)
        return entry

    async def poll(self, ticket: str, now: float | None = None) -> dict:
        """The player is still there: pair its queue, then where it stands."""
        now = time.time() if now is None else now
        entry = await self._entry(ticket)
        await self.hub.store.queue_touch(entry.ticket_hash, now)
        entry.seen_at = now
        return await self._pair_and_answer(entry, ticket, now)

    async def _pair_and_answer(self, entry: QueueRow, ticket: str, now: float) -> dict:
        if entry.state == "matched":
            return await self._answer(entry, ticket, now)
        made, waiting = await self.pair(entry.key, now)
        if made or all(e.ticket_hash != entry.ticket_hash for e in waiting):  # paired here or elsewhere: read it again
            entry = await self._entry(ticket)
            waiting = None
        return await self._answer(entry, ticket, now, waiting)

    async def agree_bots(self, ticket: str, bot: Any, now: float | None = None) -> dict:
        """The player agrees to start with bots in the seats still empty (3 or more seats)."""
        now = time.time() if now is None else now
        entry = await self._entry(ticket)
        if entry.state == "matched":
            return await self._answer(entry, ticket, now)
        if entry.seats < 3:
            raise ClientError("bad_request", "bots fill empty seats of matches of 3 or more seats; with 2, play a bot "
                                             "now instead (POST /rooms)")
        bots = self._bot_choices(entry.game)
        if bot not in bots:
            raise ClientError("bad_request", f"field 'bot' must be one of {', '.join(bots)}", field="bot")
        await self.hub.store.queue_touch(entry.ticket_hash, now, bots=bot)
        return await self.poll(ticket, now)

    async def cancel(self, ticket: str) -> dict:
        """Leave the queue. A player already put in a room is told the room instead (``already_matched``)."""
        entry = await self._entry(ticket)
        if await self.hub.store.queue_remove([entry.ticket_hash], unless_matched=True):
            return {"status": "cancelled"}
        entry = await self._entry(ticket)
        if entry.state == "matched":
            raise ClientError("already_matched", "too late to cancel: you were just put in a room", 409,
                              **await self._answer(entry, ticket, time.time()))
        raise ClientError("pairing", "you are being put in a room right now: poll again", 409)

    async def _answer(self, entry: QueueRow, ticket: str, now: float, waiting: list[QueueRow] | None = None) -> dict:
        """The poll's answer; ``waiting``: the queue's waiting entries as the pairing pass last read them."""
        if entry.state == "matched" and entry.room is not None:
            room = await self.hub.get(entry.room)
            return {"status": "matched", "game": entry.game, "code": entry.room, "seat": entry.seat,
                    "token": seat_token(ticket), "room": room.room_info() if room else None}
        waited = max(0.0, now - entry.joined_at)
        if waiting is None:
            waiting = await self.hub.store.queue_waiting(entry.key)
        others = [e for e in waiting if e.ticket_hash != entry.ticket_hash and e.state == "waiting"
                  and e.seen_at >= now - self.settings.queue_stale_seconds]
        offer = waited >= self.settings.queue_offer_seconds
        return {"status": "waiting", "game": entry.game, "options": entry.options, "seats": entry.seats,
                "waited": round(waited, 1), "waiting": len(others) + 1, "offer_seconds": self.settings.queue_offer_seconds,
                "bot_offer": {"bots": self._bot_choices(entry.game), "fill": entry.seats >= 3} if offer else None,
                "bots_agreed": entry.bots, "poll_seconds": self.settings.queue_poll_seconds}

    def _bot_choices(self, game_id: str) -> list[str]:
        from deltav.agents.registry import available_specs

        return [f"bot:{n}" for n in available_specs(game_id) if n != "random"]

    async def _rating(self, game_id: str, system: str, name: str | None) -> float:
        if self.board is None or not name:
            return DEFAULT_RATING[system]
        now = time.monotonic()
        if now - self._rated >= RATINGS_SECONDS:  # the bands need no rating newer than that
            self._rated = now
            await self.board.refresh(self.hub.store)
        lad = self.board.ladders.get((game_id, system))
        e = lad.entries.get(f"human:{name}") if lad is not None else None
        if e is None:
            return DEFAULT_RATING[system]
        return float(e.rating.r if system == "glicko2" else e.rating.mu)

    # --- pairing --------------------------------------------------------------------------------------------
    async def pair(self, key: str, now: float) -> tuple[int, list[QueueRow]]:
        """Make the matches the queue ``key`` can make now; returns how many rooms were made and the entries
        still waiting there (as last read)."""
        store = self.hub.store
        stale = self.settings.queue_stale_seconds
        if now - self._expired >= EXPIRE_SECONDS:  # not at every poll: a write the whole queue shares
            self._expired = now
            await store.queue_expire(now - stale, now - MATCHED_KEEP_SECONDS)
        # one pass per queue at a time in this process: concurrent passes would all race for the same oldest
        # entries (50 joins at once made 8 requests/s of it); other processes' passes the database arbitrates
        async with self._locks.setdefault(key, asyncio.Lock()):
            return await self._pair(key, now, stale)

    async def _pair(self, key: str, now: float, stale: float) -> tuple[int, list[QueueRow]]:
        store = self.hub.store
        made = 0
        waiting: list[QueueRow] = []
        for _ in range(50):  # bounded: each round makes a room or stops
            entries = await store.queue_waiting(key)
            stuck = [e.ticket_hash for e in entries if e.state == "pairing" and (e.claimed_at or 0) < now - stale]
            if stuck:  # the process pairing them died before writing their room
                await store.queue_release(stuck, stuck_before=now - stale)
                continue
            waiting = [e for e in entries if e.state == "waiting" and e.seen_at >= now - stale]
            group = self.choose(waiting, now)
            if group is None:
                return made, waiting
            people, bot = group
            if not await store.queue_claim([e.ticket_hash for e in people], now):
                continue  # another process took some of them: look again
            try:
                await self._make_room(people, bot)
            except Exception:
                await store.queue_release([e.ticket_hash for e in people])
                raise
            made += 1
        return made, waiting

    def choose(self, waiting: list[QueueRow], now: float) -> tuple[list[QueueRow], str | None] | None:
        """The next match of a queue (its people, and the bot of its empty seats, or None), or None."""
        if not waiting:
            return None
        first = waiting[0]
        n = first.seats
        if len(waiting) >= n:
            rest = waiting[1:]
            if len(waiting) >= self.settings.queue_band_pool:  # enough wait: the oldest's band first
                rest = sorted(rest, key=lambda e: (abs(e.band - first.band), e.joined_at))
            return [first, *rest[:n - 1]], None
        agreed = [e for e in waiting if e.bots]
        if n >= 3 and len(waiting) >= 2 and len(agreed) == len(waiting) \
                and now - first.joined_at >= self.settings.queue_offer_seconds:
            return list(waiting), first.bots
        return None

    async def _make_room(self, people: list[QueueRow], bot: str | None) -> None:
        first = people[0]
        n = first.seats
        seats = list(range(n))
        self.random.shuffle(seats)  # fair: arriving first chooses nothing
        human = sorted(seats[:len(people)])
        specs = ["human" if i in human else (bot or "human") for i in range(n)]
        dealt = dict(zip(seats, people, strict=False))  # seat -> entry
        out = None
        for seat in human:  # each seat held by its entry's ticket (the seat's token is the ticket: see seat_token)
            e = dealt[seat]
            if out is None:
                out = await self.hub.create(first.game, first.options, specs, None, seat, e.name, client=e.client,
                                            held_by=e.ticket_hash)
            else:
                await self.hub.join(out["code"], seat, e.name, client=e.client, held_by=e.ticket_hash)
        assert out is not None
        code = out["code"]
        await self.hub.store.queue_matched({dealt[s].ticket_hash: (code, s) for s in human})
        log.info("quick match: room %s made for %d people (%s)", code, len(people), first.key,
                 extra={"event": "queue_match", "room": code})

