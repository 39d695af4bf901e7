"""The README's promises stay true: its code runs and its quick start is two commands."""

import re
from pathlib import Path

README = (Path(__file__).parents[1] / "README.md").read_text()


def test_readme_python_example_runs(capsys):
    block = re.search(r"```python\n(.*?)```", README, re.DOTALL)
    assert block, "the README has a Python example"
    exec(compile(block.group(1), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "{1:" in out  # it printed the results


def test_quick_start_is_two_commands():
    block = re.search(r"## Quick start.*?```sh\n(.*?)```", README, re.DOTALL)
    assert block
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["./run", "./run test"]
    ci = (Path(__file__).parents[1] / ".ci" / "run").read_text()
    assert "./run test" in ci
