"""The end-of-night report and the evening's pictures, computed from the ledger and the hand
records alone, in integer cents.

The ledger has five kinds of account: the cashier, each player's bankroll (``player:<id>``),
each player's stack at a table (``stack:<table>:<id>``), each table (``table:<id>``, the
house at that table) and the cash each table's dealer took for walk-ins' chips (``cash:<table>``,
a cashier at the table: chips it sells are buy-ins, chips it takes back cash-outs). Because every transfer is a double entry, the balances sum to zero, and
so a player's net for the evening (what they cashed out plus the chips they still hold, less
what they bought) summed over every player is exactly minus the house's result (the tables'
balances). The report states both sides and the ledger audit of ``syndicate admin check``, so
a reader can see they agree rather than take it on trust.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ..core import money
from .errors import NotFound
from .ledger import CASHIER, HOUSE_FLOAT, Ledger, is_bot, is_walk_in, now
from .night import Charity, charity
from .night import html_parts as night_html
from .night import text_lines as night_text
from .ports import Store
from .shifts import Standing, standings
from .values import Entry, LedgerAccount
from .walkins import aliases, cash_findings, table_cash


def owner(key: str) -> int | None:
    """The player account id behind a bankroll or stack ledger key, else None."""
    parts = key.split(":")
    if parts[0] == "player" and len(parts) == 2:
        return int(parts[1])
    if parts[0] == "stack" and len(parts) == 3:
        return int(parts[2])
    return None


@dataclass(frozen=True, slots=True)
class PlayerLine:
    account: int
    name: str
    buy_ins: int  # chips sold by the cashier
    cash_outs: int  # chips bought back by the cashier
    chips: int  # still held: bankroll plus stacks at tables
    net: int  # cash_outs + chips - buy_ins
    hands: int  # settled hands dealt to them
    walk_in: bool = False  # seated by a dealer by name, with no sign-in (and not linked to an account)
    start: int = 0  # their first buy-in: what they started the evening with (part of buy_ins)


@dataclass(frozen=True, slots=True)
class TableLine:
    table: int
    name: str
    game: str
    status: str
    dealer: str
    hands: int  # settled
    voided: int
    house_result: int  # the settled hands' result: positive, the house is ahead
    cash_expected: int = 0  # cash its dealer should hold for walk-ins' chips: minus ``cash:<table>``
    cash_counted: int | None = None  # the last count of that cash
    cash_difference: int | None = None  # that count less what was expected when it was made
    in_play: int = 0  # chips of the hand in play in the table's account: not yet the house's


@dataclass(frozen=True, slots=True)
class DealerLine:
    """A dealer's evening: by the hands they dealt themselves (the hand's dealer when its cards
    came out, not the table's dealer now), and the time they held a table (their shifts)."""

    dealer: str
    tables: int  # where they dealt a settled hand
    hands: int  # settled hands they dealt
    house_result: int  # the house's result of those hands
    seconds: int = 0  # time dealing at a table tonight (docs/dealer.md, "Shifts, breaks and handovers")


@dataclass(frozen=True, slots=True)
class Totals:
    buy_ins: int
    cash_outs: int
    chips_held: int  # by every player, bankrolls and stacks
    players_net: int  # the sum of the players' nets
    house_result: int  # the tables' settled results
    float_result: int  # the bots' float: its balance plus the chips bots hold, less what the admin put in
    cashier: int  # the cashier's balance: cash-outs less buy-ins
    table_cash: int  # the tables' cash accounts: minus the cash the dealers should hold
    ledger_total: int  # the sum of every balance: 0
    hands: int
    voided: int
    in_play: int = 0  # chips in hands still in play (the tables' balances less their results)


@dataclass(frozen=True, slots=True)
class Report:
    event: str
    event_id: int
    generated_at: datetime
    players: list[PlayerLine]
    tables: list[TableLine]
    dealers: list[DealerLine]
    winners: list[PlayerLine]
    totals: Totals
    audit: list[str]  # the problems `syndicate admin check` finds: none
    entries: list[Entry] = field(repr=False)
    #: what `syndicate admin check` says of the tables' cash: (problems, warnings)
    cash: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    #: the door's donations and chips, and the prize draws (a charity night); None: neither
    charity: Charity | None = None
    #: chips have no cash value at this event: buy-ins are chips issued, cash-outs chips converted
    play_money: bool = False

    @property
    def heads(self) -> tuple[str, str]:
        """What the chips in and out of the players' bankrolls are called tonight."""
        return ("Chips issued", "Chips converted") if self.play_money else ("Buy-ins", "Cash-outs")

    @property
    def agrees(self) -> bool:
        """The players' nets are minus the house's result, the ledger sums to zero and the
        audit found nothing."""
        t = self.totals
        return (not self.audit and t.ledger_total == 0
                and t.players_net == -(t.house_result + t.in_play + t.float_result))

    def to_json(self, *, with_entries: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": self.event, "event_id": self.event_id, "generated_at": self.generated_at.isoformat(),
            "units": "cents",
            "players": [asdict(p) for p in self.players], "tables": [asdict(t) for t in self.tables],
            "dealers": [asdict(d) for d in self.dealers], "winners": [asdict(w) for w in self.winners],
            "totals": asdict(self.totals), "audit": list(self.audit), "agrees": self.agrees,
            "cash_problems": list(self.cash[0]), "cash_warnings": list(self.cash[1]),
            "ledger_lines": len(self.entries), "play_money": self.play_money,
            "charity": None if self.charity is None else {**asdict(self.charity), "donations": self.charity.donations},
        }
        if with_entries:
            out["entries"] = [_entry_json(e) for e in self.entries]
        return out


def _entry_json(e: Entry) -> dict[str, Any]:
    return {"transaction": e.transaction_id, "entry": e.entry_id, "at": e.at.isoformat(), "kind": e.kind,
            "memo": e.memo, "hand": e.hand_id, "from": e.source_key, "from_name": e.source_name,
            "to": e.dest_key, "to_name": e.dest_name, "amount": e.amount}


def build(store: Store, event_id: int, *, at: datetime | None = None) -> Report:
    """The report of event ``event_id`` as the ledger and the hand records stand, read in one
    transaction (so the figures are of one moment), audited by :meth:`Ledger.audit`."""
    with store.transaction() as repo:
        event = repo.event(event_id)
        if event is None:
            raise NotFound("event", f"no event {event_id}")
        accounts = repo.accounts(event_id)
        ledger_accounts = repo.ledger_accounts(event_id)
        entries = repo.event_entries(event_id)
        tables = repo.tables(event_id)
        hands = repo.hands(event_id, limit=10**9)
        dealt = repo.hand_players(event_id)
        cash = {tc.table: tc for tc in table_cash(repo, event_id)}
        door, draws = repo.door_payments(event_id), repo.prize_draws(event_id)
        shifts = standings(repo.shift_events(event_id), at or now())
    audit = Ledger(store).audit(event_id)
    names = {a.id: a.name for a in accounts}
    # A walk-in linked to a player's account is that player: their lines are one.
    alias = aliases(accounts)
    walk_ins = {a.id for a in accounts if is_walk_in(a)}

    def owner_of(key: str) -> int | None:
        pid = owner(key)
        return alias.get(pid, pid) if pid is not None else None
    # Bots play the house's float, not chips of their own: what they win or lose is the house's.
    bots = {a.id for a in accounts if is_bot(a)}
    status = {h.id: h.status for h in hands}

    players: dict[int, dict[str, int]] = {}

    def line(pid: int) -> dict[str, int]:
        return players.setdefault(pid, {"buy_ins": 0, "cash_outs": 0, "chips": 0, "hands": 0, "start": -1})

    for a in ledger_accounts:
        pid = owner_of(a.key)
        if pid is not None and pid not in bots:
            line(pid)["chips"] += a.balance
    float_in = 0
    for e in entries:
        src, dst = owner_of(e.source_key), owner_of(e.dest_key)
        if e.source_key == CASHIER and e.dest_key == HOUSE_FLOAT:
            float_in += e.amount
        elif e.source_key == HOUSE_FLOAT and e.dest_key == CASHIER:
            float_in -= e.amount
        if dst in bots or src in bots:
            continue
        if _sells(e.source_key) and dst is not None:
            p = line(dst)
            p["buy_ins"] += e.amount
            if p["start"] < 0:
                p["start"] = e.amount
        elif _sells(e.dest_key) and src is not None:
            line(src)["cash_outs"] += e.amount
    for hand_id, account_id, _seat in dealt:
        if status.get(hand_id) == "settled" and account_id not in bots:
            line(alias.get(account_id, account_id))["hands"] += 1
    player_lines = sorted(
        (PlayerLine(pid, names.get(pid, f"account {pid}"), p["buy_ins"], p["cash_outs"], p["chips"],
                    p["cash_outs"] + p["chips"] - p["buy_ins"], p["hands"], pid in walk_ins, max(p["start"], 0))
         for pid, p in players.items()),
        key=lambda p: (-p.net, p.name))

    balances = {a.key: a.balance for a in ledger_accounts}
    playing = in_play(entries, hands)
    table_lines = []
    for t in tables:
        mine = [h for h in hands if h.table_id == t.id]
        pot = playing.get(t.id, 0)
        table_lines.append(TableLine(
            t.id, t.name, t.game, t.status, names.get(t.dealer_id, f"account {t.dealer_id}"),
            sum(1 for h in mine if h.status == "settled"), sum(1 for h in mine if h.status == "voided"),
            balances.get(f"table:{t.id}", 0) - pot, *(_cash_cells(cash[t.id]) if t.id in cash else (0, None, None)),
            in_play=pot))
    dealer_lines = _dealers(hands, {t.id: t.dealer_id for t in tables}, entries, shifts, names)

    cashier = balances.get(CASHIER, 0)
    float_held = balances.get(HOUSE_FLOAT, 0) + sum(
        a.balance for a in ledger_accounts if (pid := owner(a.key)) is not None and pid in bots)
    totals = Totals(
        buy_ins=sum(p.buy_ins for p in player_lines), cash_outs=sum(p.cash_outs for p in player_lines),
        chips_held=sum(p.chips for p in player_lines), players_net=sum(p.net for p in player_lines),
        house_result=sum(a.balance for a in ledger_accounts if a.kind == "table") - sum(playing.values()),
        float_result=float_held - float_in, cashier=cashier,
        table_cash=sum(a.balance for a in ledger_accounts if a.key.startswith("cash:")),
        ledger_total=sum(a.balance for a in ledger_accounts),
        hands=sum(t.hands for t in table_lines), voided=sum(t.voided for t in table_lines),
        in_play=sum(playing.values()))
    winners = [p for p in player_lines if p.net > 0][:3]
    return Report(event.name, event.id, at or datetime.now(UTC), player_lines, table_lines, dealer_lines,
                  winners, totals, audit, entries, cash_findings(list(cash.values())),
                  charity(door, draws, entries, names, event.play_money), event.play_money)


def _dealers(hands: list[Any], table_dealer: dict[int, int], entries: list[Entry], shifts: dict[int, Standing],
             names: dict[int, str]) -> list[DealerLine]:
    """Each dealer's settled hands (a hand stored before the room kept its dealer counts for its
    table's dealer), their tables and the house's result of them, and their time at tables."""
    result: dict[int, int] = {}
    for e in entries:
        if e.hand_id is not None:
            result[e.hand_id] = (result.get(e.hand_id, 0) + (e.amount if e.dest_key.startswith("table:") else 0)
                                 - (e.amount if e.source_key.startswith("table:") else 0))
    lines: dict[int, list[Any]] = {d: [set(), 0, 0] for d in set(table_dealer.values())}
    for h in hands:
        if h.status == "settled":
            line = lines.setdefault(h.dealer_id or table_dealer.get(h.table_id, 0), [set(), 0, 0])
            line[0].add(h.table_id)
            line[1] += 1
            line[2] += result.get(h.id, 0)
    for d, s in shifts.items():
        if s.dealt:
            lines.setdefault(d, [set(), 0, 0])
    return sorted((DealerLine(names.get(d, f"account {d}"), len(t), n, r,
                              int(shifts[d].dealt.total_seconds()) if d in shifts else 0)
                   for d, (t, n, r) in lines.items()), key=lambda d: d.dealer)


def hours(seconds: int) -> str:
    """Time dealt as hours and minutes: "1 h 05"."""
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d}"


def in_play(entries: Iterable[Entry], hands: Iterable[Any]) -> dict[int, int]:
    """The chips each table's account holds for hands still in play (bets, antes, a pot): the
    players', not yet the house's. A hand's moves count in the house's result once it is settled."""
    playing = {h.id: h.table_id for h in hands if h.status == "playing"}
    out: dict[int, int] = {}
    for e in entries:
        table = playing.get(e.hand_id) if e.hand_id is not None else None
        if table is None:
            continue
        key = f"table:{table}"
        delta = (e.amount if e.dest_key == key else 0) - (e.amount if e.source_key == key else 0)
        if delta:
            out[table] = out.get(table, 0) + delta
    return out


def _sells(key: str) -> bool:
    """Chips sold from here are buy-ins: the cashier's window, or a table's cash (walk-ins)."""
    return key == CASHIER or key.startswith("cash:")


def _cash_cells(tc: Any) -> tuple[int, int | None, int | None]:
    return tc.expected, tc.counted, tc.difference


# -- the pictures: time series ----------------------------------------------------------------
def _series(entries: Iterable[Entry], keys: dict[str, Any], labels: dict[Any, str],
            start: dict[Any, int] | None = None) -> dict[str, Any]:
    """Step series of the running balance of groups of ledger accounts, one point per ledger
    transaction that changed one of them: ``{"times": [unix seconds], "series": [{"key",
    "label", "values": [cents]}]}``, every series aligned on the same times (what a chart
    draws). ``keys`` maps a ledger key to its group; moves inside one group are not changes."""
    value = dict.fromkeys(labels, 0) | (start or {})
    times: list[float] = []
    values: dict[Any, list[int]] = {g: [] for g in labels}
    last_txn = None
    for e in entries:
        src, dst = keys.get(e.source_key), keys.get(e.dest_key)
        if src == dst:
            continue
        if src is not None:
            value[src] -= e.amount
        if dst is not None:
            value[dst] += e.amount
        t = e.at.timestamp()
        if e.transaction_id == last_txn:  # one point per transaction
            for g in labels:
                values[g][-1] = value[g]
            continue
        last_txn = e.transaction_id
        times.append(t)
        for g in labels:
            values[g].append(value[g])
    return {"times": times, "units": "cents",
            "series": [{"key": g, "label": labels[g], "values": values[g]} for g in labels]}


def house_series(store: Store, event_id: int) -> dict[str, Any]:
    """The house's result over time at each table: a hand counts once it is settled (or voided),
    all its moves at the time of its last one; the chips of a hand still in play are not the
    house's, so the line does not rise with a pot and fall at its award."""
    with store.transaction() as repo:
        tables = repo.tables(event_id)
        entries = repo.event_entries(event_id)
        hands = repo.hands(event_id, limit=10**9)
    labels = {t.id: f"{t.name} (table {t.id})" for t in tables}
    return _series(_settled_only(entries, hands), {f"table:{t.id}": t.id for t in tables}, labels)


def _settled_only(entries: list[Entry], hands: Iterable[Any]) -> list[Entry]:
    """``entries`` with each finished hand's moves together at its last transaction, and those
    of hands still in play left out."""
    status = {h.id: h.status for h in hands}
    last: dict[int, Entry] = {}
    for e in entries:
        if e.hand_id is not None:
            last[e.hand_id] = e
    held: dict[int, list[Entry]] = {}
    out: list[Entry] = []
    for e in entries:
        h = e.hand_id
        if h is None:
            out.append(e)
        elif status.get(h) == "playing":
            continue
        elif last[h].transaction_id != e.transaction_id:
            held.setdefault(h, []).append(e)
        else:
            end = last[h]
            out.extend(replace(x, transaction_id=end.transaction_id, at=end.at) for x in held.pop(h, []))
            out.append(e)
    return out


def _player_keys(accounts: Iterable[LedgerAccount]) -> dict[str, int]:
    return {a.key: pid for a in accounts if (pid := owner(a.key)) is not None}


def chips_series(store: Store, event_id: int, players: list[int] | None = None, *, leaders: int = 5) -> dict[str, Any]:
    """Each player's chips over the evening (bankroll plus stacks, after each transaction that
    changed them): those of ``players``, or of the ``leaders`` players holding the most chips
    now (ties by name)."""
    with store.transaction() as repo:
        ledger_accounts = repo.ledger_accounts(event_id)
        entries = repo.event_entries(event_id)
        accounts = repo.accounts(event_id)
    names = {a.id: a.name for a in accounts}
    bots = {a.id for a in accounts if is_bot(a)}
    alias = aliases(accounts)  # a linked walk-in's chips are the player's
    keys = {k: alias.get(p, p) for k, p in _player_keys(ledger_accounts).items() if p not in bots}
    if players is None:
        chips: dict[int, int] = {}
        for a in ledger_accounts:
            if a.key in keys:
                chips[keys[a.key]] = chips.get(keys[a.key], 0) + a.balance
        players = sorted(chips, key=lambda p: (-chips[p], names.get(p, "")))[:leaders]
    wanted = set(players)
    labels = {p: names.get(p, f"account {p}") for p in players}
    out = _series((e for e in entries if keys.get(e.source_key) in wanted or keys.get(e.dest_key) in wanted),
                  {k: p for k, p in keys.items() if p in wanted}, labels)
    return out


# -- the forms: text, CSV, HTML -----------------------------------------------------------------
CSV_COLUMNS = ("transaction", "entry", "at", "kind", "memo", "hand", "from", "from_name", "to", "to_name",
               "amount_cents", "amount")


def ledger_csv(report: Report) -> str:
    """The whole ledger, one row per entry (amounts in cents and in dollars, as text)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for e in report.entries:
        w.writerow((e.transaction_id, e.entry_id, e.at.isoformat(), e.kind, e.memo,
                    "" if e.hand_id is None else e.hand_id, e.source_key, e.source_name, e.dest_key,
                    e.dest_name, e.amount, money.format(e.amount)))
    return buf.getvalue()


PLAYER_CSV_COLUMNS = ("player", "account", "walk_in", "start", "bought", "won_lost", "cashed_out", "now", "hands",
                      "start_cents", "bought_cents", "won_lost_cents", "cashed_out_cents", "now_cents")


def players_csv(report: Report) -> str:
    """Each player's evening on one row: what they started with (their first buy-in), what they
    bought after it, what they won or lost, what they cashed out and what they hold now, so that
    start + bought + won_lost − cashed_out = now; in dollars and in cents. Walk-ins are marked."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(PLAYER_CSV_COLUMNS)
    for p in sorted(report.players, key=lambda x: x.name.lower()):
        cells = (p.start, p.buy_ins - p.start, p.net, p.cash_outs, p.chips)
        w.writerow((p.name, p.account, "yes" if p.walk_in else "no", *map(money.format, cells), p.hands, *cells))
    return buf.getvalue()


def _m(cents: int) -> str:
    return money.format(cents)


def _who(p: PlayerLine) -> str:
    """A player's name as the report prints it: a walk-in is marked."""
    return f"{p.name} (walk-in)" if p.walk_in else p.name


def text(report: Report) -> str:
    t = report.totals
    out = [f"{report.event}: the end-of-night report ({report.generated_at:%Y-%m-%d %H:%M} UTC)", ""]
    bought, sold = report.heads
    if report.play_money:
        out[-1:-1] = ["Chips have no cash value tonight: amounts are chips, counted in dollars."]
    out.append(f"{'Player':<20} {bought:>14} {sold:>15} {'Chips held':>11} {'Net':>11} {'Hands':>6}")
    for p in report.players:
        out.append(f"{_who(p)[:20]:<20} {_m(p.buy_ins):>14} {_m(p.cash_outs):>15} {_m(p.chips):>11} "
                   f"{_m(p.net):>11} {p.hands:>6}")
    out.append(f"{'All players':<20} {_m(t.buy_ins):>14} {_m(t.cash_outs):>15} {_m(t.chips_held):>11} "
               f"{_m(t.players_net):>11} {'':>6}")
    out += ["", f"{'Table':<26} {'Game':<9} {'Dealer':<14} {'Hands':>6} {'Voided':>6} {'House':>11}"]
    for tl in report.tables:
        out.append(f"{(tl.name + f' ({tl.table})')[:26]:<26} {tl.game:<9} {tl.dealer[:14]:<14} {tl.hands:>6} "
                   f"{tl.voided:>6} {_m(tl.house_result):>11}")
    out += ["", f"{'Dealer':<20} {'Dealt':>8} {'Tables':>6} {'Hands':>6} {'House':>11}"]
    for d in report.dealers:
        out.append(f"{d.dealer[:20]:<20} {hours(d.seconds):>8} {d.tables:>6} {d.hands:>6} {_m(d.house_result):>11}")
    counted = [tl for tl in report.tables if tl.cash_expected or tl.cash_counted is not None]
    if counted:
        what = "Donations at tables" if report.play_money else "Table cash (walk-ins)"
        out += ["", f"{what:<26} {'Expected':>11} {'Counted':>11} {'Difference':>11}"]
        for tl in counted:
            out.append(f"{(tl.name + f' ({tl.table})')[:26]:<26} {_m(tl.cash_expected):>11} "
                       f"{_m(tl.cash_counted) if tl.cash_counted is not None else 'not yet':>11} "
                       f"{_m(tl.cash_difference) if tl.cash_difference is not None else '':>11}")
    if report.charity is not None:
        out += night_text(report.charity)
    out += ["", "Winners: " + (", ".join(f"{_who(w)} {_m(w.net)}" for w in report.winners) or "none")]
    out += ["", f"House result {_m(t.house_result)}; the players' nets sum to {_m(t.players_net)}; "
                f"the bots' float {_m(t.float_result)};{_in_play(t)} every balance sums to {_m(t.ledger_total)} "
                f"({len(report.entries)} ledger lines).",
            "Ledger audit (syndicate admin check): " + ("; ".join(report.audit) or "ledger sound"),
            "The totals agree." if report.agrees else "THE TOTALS DO NOT AGREE."]
    problems, warnings = report.cash
    out += [f"Table cash: {p}" for p in problems] + [f"Table cash (warning): {w}" for w in warnings]
    return "\n".join(out) + "\n"


def _in_play(t: Totals) -> str:
    """The chips of hands still in play, when there are any: the players', not yet the house's."""
    return f" {_m(t.in_play)} in hands still in play;" if t.in_play else ""


def _cell(x: Any, num: bool = False) -> str:
    return f'<td class="num">{html.escape(str(x))}</td>' if num else f"<td>{html.escape(str(x))}</td>"


def _table(caption: str, head: list[str], rows: list[list[Any]], nums: set[int], foot: list[Any] | None = None) -> str:
    num = ' class="num"'
    th = "".join(f"<th{num if i in nums else ''}>{html.escape(h)}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(_cell(c, i in nums) for i, c in enumerate(r)) + "</tr>" for r in rows)
    tf = ("<tfoot><tr>" + "".join(_cell(c, i in nums) for i, c in enumerate(foot)) + "</tr></tfoot>") if foot else ""
    return (f'<table class="data report"><caption>{html.escape(caption)}</caption><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody>{tf}</table>")


PRINT_CSS = """
body { font: 11pt/1.35 system-ui, sans-serif; color: #111; margin: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .2rem; } h2 { font-size: 1.1rem; margin: 1.2rem 0 .3rem; }
table.report { border-collapse: collapse; width: 100%; margin: .3rem 0 1rem; }
table.report caption { text-align: left; font-weight: 600; padding: .2rem 0; }
table.report th, table.report td { border-bottom: 1px solid #ccc; padding: .2rem .4rem; text-align: left; }
table.report .num { text-align: right; font-variant-numeric: tabular-nums; }
table.report tfoot td { font-weight: 700; border-top: 2px solid #111; }
.agree { font-weight: 700; } .muted { color: #555; }
@media print { body { margin: 0; } a { color: inherit; text-decoration: none; }
  table.report { page-break-inside: auto; } tr { page-break-inside: avoid; }
  h2 { page-break-after: avoid; } .no-print { display: none; } }
.receipt { max-width: 32rem; } hr.cut { border: 0; border-top: 2px dashed #555; margin: 1.5rem 0; }
@page { margin: 15mm; }
"""


def html_page(report: Report, *, stylesheet: str | None = None, csv_href: str | None = None,
              players_href: str | None = None) -> str:
    """A printable page: the tables of the report with print CSS. ``stylesheet`` links a CSS
    file (the server's, so a strict CSP needs no inline style); without it the CSS is in the
    page (a file written by ``syndicate report --format html``). No script either way."""
    t = report.totals
    style = (f'<link rel="stylesheet" href="{html.escape(stylesheet)}">' if stylesheet
             else f"<style>{PRINT_CSS}</style>")
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(report.event)} — end-of-night report</title>", style, "</head>",
        '<body class="report-page"><main>',
        f"<h1>{html.escape(report.event)}: the end-of-night report</h1>",
        f'<p class="muted">Made {report.generated_at:%Y-%m-%d %H:%M} UTC from the ledger '
        f"({len(report.entries)} lines) and {t.hands} settled hands ({t.voided} voided). Amounts in dollars"
        + ("; chips have no cash value tonight: the players' amounts are chips, the donations money.</p>"
           if report.play_money else ".</p>"),
    ]
    links = [f'<a href="{html.escape(href)}" download>{text}</a>' for href, text in (
        (csv_href, "The whole ledger as CSV"), (players_href, "Each player's summary as CSV")) if href]
    if links:
        parts.append(f'<p class="no-print">{" · ".join(links)}</p>')
    parts.append("<h2>Winners</h2>")
    parts.append("<ol>" + "".join(f"<li>{html.escape(_who(w))}: {_m(w.net)}</li>" for w in report.winners) + "</ol>"
                 if report.winners else "<p>No player finished ahead.</p>")
    if any(p.walk_in for p in report.players):
        parts.append('<p class="muted">(walk-in): seated by a dealer by name, with chips bought for cash at the '
                     "table" + (", a donation; their chips stay on their name for the prize draws.</p>"
                                if report.play_money else ".</p>"))
    parts.append(_table("Players", ["Player", *report.heads, "Chips held", "Net", "Hands"],
                        [[_who(p), _m(p.buy_ins), _m(p.cash_outs), _m(p.chips), _m(p.net), p.hands]
                         for p in report.players], {1, 2, 3, 4, 5},
                        ["All players", _m(t.buy_ins), _m(t.cash_outs), _m(t.chips_held), _m(t.players_net), ""]))
    parts.append(_table("Tables", ["Table", "Game", "Dealer", "Status", "Hands", "Voided", "House result"],
                        [[f"{x.name} ({x.table})", x.game, x.dealer, x.status, x.hands, x.voided,
                          _m(x.house_result)] for x in report.tables], {4, 5, 6},
                        ["All tables", "", "", "", t.hands, t.voided, _m(t.house_result)]))
    counted = [x for x in report.tables if x.cash_expected or x.cash_counted is not None]
    if counted:
        parts.append(_table("Donations taken at tables (walk-ins' chips)" if report.play_money
                            else "Table cash (walk-ins' chips)", ["Table", "Dealer", "Expected", "Counted", "Difference"],
                            [[f"{x.name} ({x.table})", x.dealer, _m(x.cash_expected),
                              "not yet" if x.cash_counted is None else _m(x.cash_counted),
                              "" if x.cash_difference is None else _m(x.cash_difference)] for x in counted],
                            {2, 3, 4}))
        parts += [f"<p>{html.escape(p)}</p>" for p in report.cash[0] + report.cash[1]]
    if report.charity is not None:
        parts += night_html(report.charity, _table)
    parts.append(_table("Dealers: the hands each dealt, and their time at tables", ["Dealer", "Dealt", "Tables",
                                                                                    "Hands", "House result"],
                        [[d.dealer, hours(d.seconds), d.tables, d.hands, _m(d.house_result)] for d in report.dealers],
                        {1, 2, 3, 4}))
    parts.append(f'<p class="agree">House result {_m(t.house_result)}; the players\' nets sum to '
                 f"{_m(t.players_net)}; the bots' float {_m(t.float_result)};{html.escape(_in_play(t))} every balance sums to "
                 f"{_m(t.ledger_total)}. Ledger audit: "
                 f"{html.escape('; '.join(report.audit) or 'ledger sound')}. "
                 f"{'The totals agree.' if report.agrees else 'THE TOTALS DO NOT AGREE.'}</p>")
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"
