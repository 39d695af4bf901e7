"""The checks every game's table rules share: an override's JSON type must be its setting's."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..errors import BadRequest


def check_types(rules: type, overrides: Mapping[str, Any], *, money_text: tuple[str, ...] = (),
                nullable: tuple[str, ...] = ()) -> None:
    """A boolean setting takes only a JSON boolean and a whole-number one only a JSON integer:
    Python would take ``"false"`` as true and ``1.0`` or ``true`` as 1, and the table would keep
    whatever was sent. The ``money_text`` keys may also be text ("$5"); a ``nullable`` whole
    number may also be null."""
    defaults = {f.name: f.default for f in dataclasses.fields(rules) if f.init}
    for key, v in overrides.items():
        default = defaults.get(key)
        if isinstance(default, bool):
            if not isinstance(v, bool):
                raise BadRequest("overrides", f"{key} is a JSON boolean (true or false), got {type(v).__name__}")
        elif isinstance(default, int) or key in nullable:
            if key in money_text and isinstance(v, str):
                continue
            if isinstance(v, bool) or not isinstance(v, int) and not (v is None and key in nullable):
                raise BadRequest("overrides", f"{key} is a JSON integer, got {type(v).__name__}")
