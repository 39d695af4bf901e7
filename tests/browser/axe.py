"""axe-core over a page: the vendored axe.min.js is injected and run in the page itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """The page's axe violations of these impacts, one line each (rule, impact, the nodes)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, not added as a <script>: the pages' CSP
        # (script-src 'self') rightly refuses inline script, and the test must not weaken it.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' '))}))")
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:5])}" for v in found if v["impact"] in impacts]
