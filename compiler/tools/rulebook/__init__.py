"""An edition as a rulebook in English (`splendor-rules doc`): its rules in
its reference's order, spelt out from the checked model (`book.py`, with
`declarations.py` and `english.py`), card and tile tables with coloured
pips (`palette.py`), and what it changes from its parent; written as
Markdown or as one self-contained HTML page (`render.py`).
"""

from splendor_rules.compiler.tools.rulebook.book import CannotDocument, Rulebook, make_rulebook
from splendor_rules.compiler.tools.rulebook.render import FORMATS, render_rulebook

__all__ = ["FORMATS", "CannotDocument", "Rulebook", "make_rulebook", "render_rulebook"]
