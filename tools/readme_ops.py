"""Write the README's op list from the op registry: ``python tools/readme_ops.py``.

The list between the README's ``<!-- ops:start -->`` and ``<!-- ops:end -->``
markers is generated: one line per op family (``unigrad/ops/<family>.py``) with
every public function it declares. ``tests/test_readme_and_demo.py`` fails
when the README and the registry disagree; this script brings them back in line.

Example:
    >>> from tools.readme_ops import render
    >>> "`cumprod`" in render()
    True
"""

from __future__ import annotations

import pathlib
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
START, END = "<!-- ops:start -->", "<!-- ops:end -->"


def families() -> list[tuple[str, list[str]]]:
    """``(family, sorted public names)`` in the registry's order."""
    import unigrad.ops as ops
    return [(family, sorted(name for name in ops._public_names(getattr(ops, family))
                            if not name.startswith("_")))
            for family in ops._FAMILY_NAMES]


def render() -> str:
    """The generated Markdown list (without the markers)."""
    lines = []
    for family, names in families():
        if not names:
            continue
        text = f"- {family.replace('_', ' ')}: " + " ".join(f"`{name}`" for name in names)
        lines.append(textwrap.fill(text, width=90, subsequent_indent="  ",
                                   break_on_hyphens=False))
    return "\n".join(lines)


def current() -> str:
    """The list now in the README."""
    text = README.read_text()
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n")


def main() -> int:
    text = README.read_text()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{START}\n{render()}\n{END}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
