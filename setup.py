"""Build: compile the hot modules with mypyc (see compiled_modules.txt).

Everything else about the package is in pyproject.toml. ``SYNDICATE_PURE=1`` skips the
compilation, leaving a pure-Python install that behaves the same.
"""

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext


class ParallelBuildExt(build_ext):
    """Compile the extensions on every core (setuptools' default is one at a time)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

here = Path(__file__).parent
modules = [
    line.strip()
    for line in (here / "compiled_modules.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
ext_modules = []
if os.environ.get("SYNDICATE_PURE") != "1":
    from mypyc.build import mypycify

    # Errors in modules the compiled ones merely import are not the build's business.
    ext_modules = mypycify(["--follow-imports=silent", *modules], opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_ext": ParallelBuildExt})
