"""A message's JSON text (issue 16: made by orjson) reads back as the message, as the standard
library's text of it did: integer keys become strings, text outside ASCII survives, and what
orjson cannot write (an integer beyond 64 bits) is still written."""

from __future__ import annotations

import json

from syndicate.room.live.messages import dumps, encode


def test_the_text_reads_back_as_the_standard_librarys() -> None:
    value = {"type": "state", "seats": [{"seat": 1, "player": "Zoë 🂡", "stack": 12_345}],
             "results": {1: -500, 2: 0}, "clock": None, "rate": 1.5, "legal": ("hit", "stand"), "ok": True}
    text = dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert " " not in text.replace("Zoë 🂡", "")  # compact, like separators=(",", ":")


def test_an_integer_beyond_64_bits_is_still_written() -> None:
    value = {"type": "error", "amount": 10**30}
    assert json.loads(dumps(value)) == value


def test_one_message_object_is_encoded_once() -> None:
    msg = {"type": "state", "version": 1}
    assert encode(msg) is encode(msg)
    assert json.loads(encode(msg)) == msg
