"""The messages a live table sends its clients (docs/protocol.md): what an error or a refusal
looks like, and each message's JSON text, encoded once however many clients it goes to.

They live in the card room, not the transport, because a table's owner in one process encodes
the messages for the clients of another (:mod:`syndicate.room.cluster`): the text is made where
the message is, and a socket only writes it out.
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import orjson

from ..errors import BadRequest, Conflict

#: The version of the live-play protocol (docs/protocol.md): an action that changed the table is
#: answered by the sender's next state, which carries the action's id as ``ack``.
PROTOCOL_VERSION = 2


#: What a table that stopped on a server error tells its clients (rule ``table_unavailable``).
UNAVAILABLE = "this table stopped on a server error; it comes back on restart"


def error(action_id: str | None, rule: str, message: str, version: int) -> dict[str, Any]:
    """The answer to an action the table refused, at the table's ``version``."""
    return {"type": "error", "id": action_id, "rule": rule, "message": message, "version": version}


def refusal(message: dict[str, Any], rule: str, text: str, version: int | None = None) -> dict[str, Any]:
    """The error answering a client's ``message`` that was not applied: with the message's id
    when it had a string one (so the client knows which action it answers)."""
    action_id = message.get("id")
    out: dict[str, Any] = {"type": "error", "id": action_id if isinstance(action_id, str) else None,
                           "rule": rule, "message": text}
    if version is not None:
        out["version"] = version
    return out


#: The fields of an action that are whole numbers: seat numbers, chips in cents, the table's
#: version, a count of bots. ``2.0 == 2`` and ``true == 1`` in Python, so a comparison would take
#: them: each must be the JSON integer itself.
WHOLE_NUMBERS = ("seat", "amount", "version", "count")


def check_whole_numbers(message: dict[str, Any]) -> None:
    """Refuse (rule: the field's name) an action whose whole-number field is a float, a
    boolean or text. A field left out, or null where the action allows it, is the action's
    own business."""
    for name in WHOLE_NUMBERS:
        value = message.get(name)
        if value is not None and type(value) is not int:
            shown = json.dumps(value)[:40] if isinstance(value, bool | float | str) else type(value).__name__
            raise BadRequest(name, f"{name} is a whole number, written as a JSON integer such as 2: not {shown}")


def running(route: Any) -> Any:
    """``route`` (a table's runner), unless it stopped on a server error (Conflict)."""
    if route.stopped:
        raise Conflict("table_unavailable", UNAVAILABLE)
    return route


#: Texts of messages already encoded, by the object's id (each entry keeps its object alive, so
#: its id is not reused while it is there): the 512 newest, or during a broadcast
#: (:func:`sharing`) that broadcast's own.
_encoded: OrderedDict[int, tuple[object, str]] = OrderedDict()
_broadcast: dict[int, tuple[object, str]] | None = None


ACKED = "+ack"  # the mark of an Encoded message's kind when it answers an action


class Encoded(dict[str, Any]):
    """A message already encoded (by a table's owner in another process): only its ``type``,
    and whether it carries an ``ack`` (:func:`kind_of`), are read here, for the outbox's
    replacement of superseded states."""

    def __init__(self, kind: str, text: str) -> None:
        if kind.endswith(ACKED):
            super().__init__(type=kind.removesuffix(ACKED), ack=True)
        else:
            super().__init__(type=kind)
        self.text = text


def kind_of(message: dict[str, Any]) -> str:
    """What an :class:`Encoded` copy of ``message`` needs to know of it: its type, marked when
    it answers an action (a state with ``ack``), which must reach the
    client even when a newer state follows it."""
    kind = message.get("type", "")
    return kind + ACKED if "ack" in message else kind


def superseded(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether ``new`` makes a waiting ``old`` useless: both are states (full snapshots) and
    ``old`` answers no action."""
    return new.get("type") == "state" and old.get("type") == "state" and "ack" not in old


def dumps(value: Any) -> str:
    """Compact JSON text, as ``json.dumps(value, separators=(",", ":"))`` reads it back, made by
    orjson: a state is encoded for each of a table's players on every change, and the standard
    library's encoder would be the largest single cost of a broadcast (docs/benchmarks.md).
    Integer keys become strings, as the standard library makes them; text outside ASCII is
    written as UTF-8 rather than escaped, which is the same JSON. What orjson refuses (an
    integer beyond 64 bits) the standard library writes."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"))


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Within: the messages of one broadcast. A message sent to several clients (the
    spectators') is still encoded once, but the messages are cached only for the broadcast's
    length, not among the 512 newest: most go to one client each, and kept alive they outlived
    the collector's young generation and filled the older ones, whose collections would pause
    the server under load. Encoding once the parts every viewer's message shares (orjson
    fragments) does not pay (docs/benchmarks.md)."""
    global _broadcast
    outer, _broadcast = _broadcast, {}
    try:
        yield
    finally:
        _broadcast = outer


def encode(msg: dict[str, Any]) -> str:
    """JSON text of a message, encoded once however many watchers it goes to: the table sends
    the same object to all watchers, so it is encoded once (the cache keeps each object alive,
    so its id is not reused while it is cached). In a broadcast (:func:`sharing`), its messages
    are cached only for its length."""
    if isinstance(msg, Encoded):
        return msg.text
    texts = _encoded if _broadcast is None else _broadcast
    hit = texts.get(id(msg))
    if hit is not None and hit[0] is msg:
        return hit[1]
    text = dumps(msg)
    texts[id(msg)] = (msg, text)
    if texts is _encoded:
        while len(_encoded) > 512:
            _encoded.popitem(last=False)
    return text
