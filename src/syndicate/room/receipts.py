"""Printable receipts, two copies a page (the guest's and the house's), each numbered: a payment
at the door (``D-<receipt>``) and a walk-in's cash at a table (``T-<ledger transaction>``), for
the records a charity night keeps (docs/door.md). HTML with print CSS and no script."""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime

from ..core import money
from .errors import Forbidden, NotFound
from .ledger import cash_key
from .ports import Store
from .roles import allowed, require
from .values import Account

#: The ledger kinds of cash changing hands at a table.
TABLE_CASH = {"walk_in_buy_in": "chips sold for cash", "walk_in_cash_out": "chips bought back for cash"}


@dataclass(frozen=True, slots=True)
class Receipt:
    number: str
    event: str
    at: datetime
    lines: list[tuple[str, str]]  # (what, said)


def door_receipt(store: Store, actor: Account, receipt: int) -> Receipt:
    require(actor.role, "run_door")
    with store.transaction() as repo:
        event = repo.event(actor.event_id)
        p = next((p for p in repo.door_payments(actor.event_id) if p.id == receipt), None)
        if event is None or p is None:
            raise NotFound("receipt", f"no door receipt {receipt} in this event")
        guest, by = repo.account(p.account_id), repo.account(p.by)
    assert guest is not None and by is not None
    return Receipt(f"D-{p.id}", event.name, p.at, [
        ("Guest", guest.name), ("Paid", f"{money.format(p.paid)} ({'comp: nothing paid' if p.method == 'comp' else p.method})"),
        ("Chips issued", money.format(p.chips)), ("Taken by", by.name)])


def table_receipt(store: Store, actor: Account, transaction: int) -> Receipt:
    """A walk-in's cash at a table: for the admin and pit bosses, and the table's own dealer."""
    with store.transaction() as repo:
        event = repo.event(actor.event_id)
        entries = [e for e in repo.event_entries(actor.event_id) if e.transaction_id == transaction]
        tables = {cash_key(t.id): t for t in repo.tables(actor.event_id)}
    e = next((e for e in entries if e.kind in TABLE_CASH and (e.source_key in tables or e.dest_key in tables)), None)
    if event is None or e is None:
        raise NotFound("receipt", f"no cash at a table in ledger transaction {transaction} of this event")
    table = tables.get(e.source_key) or tables.get(e.dest_key)
    assert table is not None
    if not allowed(actor.role, "view_any_ledger") and table.dealer_id != actor.id:
        raise Forbidden("view_cash", "a table's cash receipts are for its dealer, the pit bosses and the admin")
    walk_in = e.dest_name if e.kind == "walk_in_buy_in" else e.source_name
    return Receipt(f"T-{transaction}", event.name, e.at, [
        ("Table", f"{table.name} ({table.id})"), ("Player", walk_in), ("What", TABLE_CASH[e.kind]),
        ("Amount", money.format(e.amount)), ("Ledger", e.memo)])


def html_page(r: Receipt, *, stylesheet: str) -> str:
    def copy(whose: str) -> str:
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in r.lines)
        return (f'<section class="receipt" aria-label="{whose}"><h2>Receipt {html.escape(r.number)}</h2>'
                f'<p class="muted">{html.escape(r.event)}, {r.at:%Y-%m-%d %H:%M} UTC: {whose}</p>'
                f'<table class="data report"><tbody>{rows}</tbody></table></section>')
    return "\n".join([
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Receipt {html.escape(r.number)}</title>", f'<link rel="stylesheet" href="{html.escape(stylesheet)}">',
        '</head><body class="report-page"><main>', copy("the guest's copy"), '<hr class="cut">',
        copy("the house's copy"), "</main></body></html>"]) + "\n"
