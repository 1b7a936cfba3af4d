"""A colour to draw each token kind with, from the edition's own words.

The language gives a token kind no colour value, so one is found in its
names: the first of its name, its title (letters only) and the data values
a card table's colour map sends to it (`{yellow: mind}`: mind is drawn
yellow) that is a CSS colour name (matplotlib's table of the CSS4 names)
gives it. A kind none of them names takes a colour derived from its name
(a hue from the name's SHA-256, fixed saturation and lightness), the same
in every run and on every machine. The ink of a pip (black or white) is
the one that reads best on its fill.
"""

from __future__ import annotations

import colorsys
import hashlib
from collections.abc import Mapping, Sequence

from attrs import frozen
from matplotlib.colors import CSS4_COLORS


@frozen
class Swatch:
    fill: str  # "#rrggbb"
    ink: str  # the text colour on it
    named: str | None  # the CSS name it came from, None if derived


def _derived(name: str) -> str:
    hue = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:2], "big") % 360
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.5, 0.55)
    return "#" + "".join(f"{round(c * 255):02x}" for c in (red, green, blue))


def _ink(fill: str) -> str:
    red, green, blue = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#000000" if luminance > 0.5 else "#ffffff"


def swatch(name: str, title: str = "", aliases: Sequence[str] = ()) -> Swatch:
    """The colour of a token kind named `name` (see the module's text)."""
    letters = "".join(c for c in title.lower() if c.isalpha())
    for candidate in (name.lower(), letters, *(a.lower() for a in aliases)):
        if candidate in CSS4_COLORS:
            fill = str(CSS4_COLORS[candidate]).lower()
            return Swatch(fill, _ink(fill), candidate)
    fill = _derived(name)
    return Swatch(fill, _ink(fill), None)


def palette(
    kinds: Sequence[tuple[str, str]], aliases: Mapping[str, Sequence[str]]
) -> dict[str, Swatch]:
    """A swatch per token kind, given as (name, title), with the data values
    that name each."""
    return {name: swatch(name, title, aliases.get(name, ())) for name, title in kinds}
