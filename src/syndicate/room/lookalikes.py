"""Names that read alike: ``aIice`` (a capital I) for ``alice``, ``B0b`` for ``Bob``, ``rnike``
for ``mike``. Account names are public (the lobby, the leaderboard, the roster, a table), so a
name that looks like another account's would let its holder pass for that player.

Two names look alike when their *skeletons* agree: Unicode Technical Standard #39, section 4
("Confusable Detection"): ``skeleton(X) = NFD(map(NFD(X)))``, where ``map`` replaces each
character by the prototype of its class in Unicode's ``confusables.txt``. The classes come from
that file as the pinned ``confusable-homoglyphs`` package ships it (MIT; its ``confusables.json``
holds the file's pairs). Its pairs are undirected, so each class is rebuilt from them and
represented by one member: its prototype where that can be told (the member of several
characters, or the one the others map to), else its first by code point. Comparing skeletons
made with one representative per class is the standard's comparison whichever member it is.

Account names are found case-insensitively (:func:`syndicate.room.accounts.canonical_name`), so
the key a name is compared by is the skeleton of its case-folded skeleton (:func:`look_alike_key`):
``aIice`` (I reads as l) and ``ALICE`` meet ``alice``'s; ``Kai`` and ``Kal`` stay apart.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from functools import cache, lru_cache

_MARKS = str.maketrans("", "", "\u200e\u200f")  # the package wraps right-to-left characters in these


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → its class's representative (a string of one or more)."""
    from confusable_homoglyphs.utils import load  # type: ignore[import-untyped]

    pairs: dict[str, set[str]] = defaultdict(set)
    for key, found in load("confusables.json").items():
        a = key.translate(_MARKS)
        for entry in found:
            b = entry["c"].translate(_MARKS)
            if a and b and a != b:
                pairs[a].add(b)
                pairs[b].add(a)
    out: dict[str, str] = {}
    seen: set[str] = set()
    for start in pairs:
        if start in seen:
            continue
        members, todo = set(), [start]
        while todo:
            m = todo.pop()
            if m not in members:
                members.add(m)
                todo.extend(pairs[m] - members)
        seen |= members
        longer = [m for m in members if len(m) > 1]  # a source is one code point: a longer one is the prototype
        hubs = [m for m in members if len(pairs[m]) > 1]  # every source maps to the prototype alone
        rep = min(longer or hubs or members, key=lambda m: [ord(c) for c in m])
        for m in members:
            if len(m) == 1:
                out[m] = rep
    return out


def skeleton(text: str) -> str:
    """The TR39 skeleton of ``text``: equal for two strings a reader may take for each other."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


@lru_cache(maxsize=8192)
def look_alike_key(name: str) -> str:
    """What a name is compared by: the skeleton of its case-folded skeleton, after the account
    names' NFKC and trimming (``aIice``, ``ALICE`` and ``alice`` agree)."""
    shown = unicodedata.normalize("NFKC", name).strip()
    return skeleton(skeleton(shown).casefold())
