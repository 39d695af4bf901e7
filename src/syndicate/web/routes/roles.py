"""The authorization table: which roles may do each action (``syndicate.room.roles``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ...room.roles import PERMISSIONS, ROLES

router = APIRouter()


@router.get("/api/roles", tags=["accounts"])
def roles() -> dict[str, Any]:
    """The authorization table: which roles may do each action."""
    return {"roles": list(ROLES), "actions": {k: sorted(v) for k, v in PERMISSIONS.items()}}
