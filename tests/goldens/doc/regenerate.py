"""Regenerate the rulebook goldens of tests/test_rulebook.py: each shipped
edition written by `splendor-rules doc` as Markdown and as HTML.

    python tests/goldens/doc/regenerate.py           # rewrite the files
    python tests/goldens/doc/regenerate.py --check   # exit 1 if any file differs

Run it after a change meant to change a rulebook (a rule file, the English
printer, a page layout), then read the diff. The test compares the editions
this folder holds goldens for (its list comes from the files here, so an
edition added to editions/ breaks nothing until its goldens are written).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FORMATS = ("md", "html")


def expected(edition: str, format: str) -> str:
    """The rulebook of a shipped edition, as the golden holds it."""
    from splendor_rules.compiler.frontend.lookup import find_edition
    from splendor_rules.compiler.tools.rulebook import make_rulebook, render_rulebook

    return render_rulebook(make_rulebook(find_edition(edition)), format)


def main(check: bool) -> int:
    from splendor_rules.compiler.frontend.pipeline import edition_files

    changed = []
    for path in edition_files():
        for format in FORMATS:
            golden = HERE / f"{path.stem}.{format}"
            text = expected(path.stem, format)
            if not golden.is_file() or golden.read_text(encoding="utf-8") != text:
                changed.append(golden.name)
                if not check:
                    golden.write_text(text, encoding="utf-8")
    verb = "differ" if check else "rewritten"
    print(f"{len(changed)} {verb}: {', '.join(changed)}" if changed else "all current")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
