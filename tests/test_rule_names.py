"""The rules the docs name are the rules the server names.

Every refusal carries a ``rule`` (docs/protocol.md); a host reads the docs to learn what a rule
means, so a rule quoted in the docs that the server never answers with is a wrong page. This
reads every rule name the docs quote ("rule `take_back`", "refused with `card`, `shoe_count`", a
table whose first column is the rule, a list of rules in parentheses) and checks that the server
can answer with it: the rules are read from the source, where each refusal is made (an error's
constructor, a function's ``rule`` argument, a permission checked by ``require``, an engine's
"rule: message" refusal).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "syndicate"
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]

NAME = r"`([a-z][a-z0-9_]*)`"
#: "rule `x`", "rules `x` and `y`", "refused with `x`, `y` or `z`"
CHAINED = re.compile(r"(?:\brules?|refused with(?: rule)?)\s+" + NAME + r"((?:(?:,|,? or|,? and)\s+" + NAME + r")*)")
#: a list in parentheses after "rules" or "the room's": "the engine's rules (`turn`, `stack`, …)"
LISTED = re.compile(r"(?:\brules|the room's) \(([^()]*)\)")
#: a table whose first column is the rule
TABLE_HEAD = re.compile(r"^\|\s*rule\s*\|", re.I)

#: Names the docs quote after the word "rule" that are not refusals: a Python keyword argument
#: in an example, a name of a rule setting (docs/rules.md's keys are checked by tests/test_rules.py).
NOT_REFUSALS: set[str] = set()


def quoted_rules() -> dict[str, list[str]]:
    """Each rule name the docs quote, with where."""
    found: dict[str, list[str]] = {}
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        in_table = False
        for i, line in enumerate(lines):
            if TABLE_HEAD.match(line):
                in_table = True
                continue
            if in_table:
                if not line.startswith("|"):
                    in_table = False
                else:
                    cell = line.split("|")[1]
                    for name in re.findall(NAME, cell):
                        found.setdefault(name, []).append(f"{path.name}:{i + 1}")
        flat = re.sub(r"\s+", " ", text)
        for m in CHAINED.finditer(flat):
            for name in [m.group(1), *re.findall(NAME, m.group(2))]:
                found.setdefault(name, []).append(f"{path.name}: {m.group(0)[:60]}")
        for m in LISTED.finditer(flat):
            for name in re.findall(NAME, m.group(1)):
                found.setdefault(name, []).append(f"{path.name}: {m.group(0)[:60]}")
    return {k: v for k, v in found.items() if k not in NOT_REFUSALS}


def _text(node: ast.AST) -> str | None:
    """A string constant, or the constant head of an f-string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value)
    return None


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def server_rules() -> set[str]:
    """Every rule the server's code can answer with."""
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in SRC.rglob("*.py")}
    # The refusals' constructors (the room's and the engines' errors and their subclasses) take
    # the rule first; any function with a parameter named ``rule`` takes it there.
    errors = {"RoomError", "RuleError"}
    takes_rule: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in errors and any(
                        isinstance(b, ast.Name) and b.id in errors for b in node.bases):
                    errors.add(node.name)
                    changed = True
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.args]
                if "rule" in names and node.name != "__init__":
                    takes_rule[node.name] = names.index("rule") - (1 if names and names[0] == "self" else 0)
    rules: set[str] = set()
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _called(node)
                at = 0 if name in errors else takes_rule.get(name or "")
                if at is not None and len(node.args) > at:
                    value = _text(node.args[at])
                    if value is not None and re.fullmatch(r"[a-z][a-z0-9_]*", value):
                        rules.add(value)
            elif isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "rule":
                        value = _text(v)
                        if value is not None:
                            rules.add(value)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                if "rule" in names and node.value is not None:  # rule = {400: "malformed_body", ...}[...]
                    rules.update(c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)
                                 and isinstance(c.value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", c.value))
                if "PERMISSIONS" in names and isinstance(node.value, ast.Dict):  # require(): the action is the rule
                    rules.update(k.value for k in node.value.keys if isinstance(k, ast.Constant))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.endswith("_refusal"):
                # the engines' "rule: message" refusals (blackjack/refusals.py's refuse)
                for ret in ast.walk(node):
                    head = _text(ret.value) if isinstance(ret, ast.Return) and ret.value is not None else None
                    m = re.match(r"([a-z][a-z0-9_]*): ", head or "")
                    if m:
                        rules.add(m.group(1))
        del path
    return rules


def test_the_collectors_find_what_they_should() -> None:
    """A check that cannot fail is no check: the collectors find known rules on both sides."""
    rules = server_rules()
    assert {"take_back", "card_not_needed", "table_dealer", "own_seat", "csrf", "rate_limit", "double_on",
            "stale_version", "play"} <= rules
    assert "blackjack" not in rules and "hit" not in rules
    quoted = quoted_rules()
    assert {"card_not_needed", "shoe_count", "table_dealer", "stale_version", "take_back"} <= set(quoted)


def test_every_rule_the_docs_name_is_one_the_server_answers_with() -> None:
    rules = server_rules()
    unknown = {name: where for name, where in quoted_rules().items() if name not in rules}
    assert unknown == {}, "rules quoted in the docs that the server never answers with: " + repr(unknown)
