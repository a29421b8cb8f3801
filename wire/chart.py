"""Charts as PNG images: bars (each with an optional expected mark) and a line, drawn with Pillow.

Pure drawing: the caller hands every word and number already in the reader's language
(`ChartSpec`), so the picture says what the embed says, and this module knows no Discord, no
database and no language. The image has a background of its own (a light card with a border),
so it reads the same in Discord's dark and light themes, and is 800 pixels wide, which a phone
shows whole. Its size is fixed and its data bounded (a line of at most `LINE_POINTS` points), so
the time and memory of a drawing are bounded too; bench/bench_stats.py measures them.

Pillow is imported when a chart is drawn: the rules core and the CLI work without it. Its own
font has ASCII letters only, so the words are drawn in DejaVu Sans (or WIRE_CHART_FONT) where
found; without such a font they are spelt in ASCII ("fuer") rather than drawn as boxes.
"""

from __future__ import annotations

import io
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

WIDTH = 800
MARGIN = 24
TITLE_SIZE = 22
TEXT_SIZE = 15
BAR_PANEL = 300
LINE_PANEL = 240
LINE_POINTS = 400
"""A longer line is thinned to this many points (the picture has fewer pixels than that)."""
AXIS_LEFT = 64
"""The plot's left edge: room for the axis labels."""

BACKGROUND = (247, 247, 249)
BORDER = (208, 215, 222)
INK = (31, 35, 40)
MUTED = (87, 96, 106)
GRID = (225, 228, 232)
GOOD = (45, 164, 78)
BAD = (207, 34, 46)
EXPECTED = (31, 35, 40)
LINE = (9, 105, 218)


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    expected: float | None = None
    good: bool = True
    """Drawn in the success colour, else the failure colour."""
    shown: str = ""
    """The value as text above the bar ("3", "12 %"); empty: none."""


@dataclass(frozen=True, slots=True)
class ChartSpec:
    """Everything a chart shows, in the reader's words."""

    title: str
    bars: tuple[Bar, ...]
    bar_title: str
    legend: tuple[str, ...] = ()
    """(rolled, expected) captions, or none."""
    line: tuple[float, ...] = ()
    """Values from 0 to 1 in order; empty: no line panel."""
    line_title: str = ""
    line_ticks: tuple[tuple[float, str], ...] = ()
    """(value 0 to 1, label) on the line's axis: ("0 %", "50 %", "100 %")."""


@dataclass(frozen=True, slots=True)
class BarBox:
    """Where a bar stands in the picture (for tests that read the image back)."""

    left: int
    right: int
    bottom: int
    top: int


def height_of(spec: ChartSpec) -> int:
    return MARGIN + TITLE_SIZE + 12 + BAR_PANEL + (LINE_PANEL if spec.line else 0) + MARGIN


def _bar_area(spec: ChartSpec) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the bars' plot area."""
    top = MARGIN + TITLE_SIZE + 12 + TEXT_SIZE + 10 + TEXT_SIZE + 8
    bottom = MARGIN + TITLE_SIZE + 12 + BAR_PANEL - TEXT_SIZE - 12
    return AXIS_LEFT, top, WIDTH - MARGIN, bottom


def _scale(spec: ChartSpec) -> float:
    highest = max((max(b.value, b.expected or 0.0) for b in spec.bars), default=0.0)
    return highest if highest > 0 else 1.0


def bar_boxes(spec: ChartSpec) -> list[BarBox]:
    """Each bar's rectangle: its height is its value against the highest value or expectation."""
    left, top, right, bottom = _bar_area(spec)
    slot = (right - left) / max(len(spec.bars), 1)
    scale = _scale(spec)
    boxes = []
    for i, bar in enumerate(spec.bars):
        x0 = int(left + i * slot + slot * 0.18)
        x1 = int(left + (i + 1) * slot - slot * 0.18)
        y = bottom - round((bottom - top) * bar.value / scale)
        boxes.append(BarBox(x0, x1, bottom, y))
    return boxes


def thinned(values: Sequence[float], most: int = LINE_POINTS) -> list[float]:
    """At most `most` of `values`, evenly spaced, the first and the last kept."""
    if len(values) <= most:
        return list(values)
    step = (len(values) - 1) / (most - 1)
    return [values[round(i * step)] for i in range(most)]


FONT_ENV = "WIRE_CHART_FONT"
"""A TrueType font file for the charts' words, over the usual places below."""
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  # Debian, Ubuntu (fonts-dejavu-core)
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  # Fedora
    "/usr/share/fonts/TTF/DejaVuSans.ttf",  # Arch
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",  # macOS
    "/Library/Fonts/Arial Unicode.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
)
"""Fonts with every letter of the catalogued languages (ä, ö, ü, ß, the no-break space)."""
_PLAIN = str.maketrans(
    {"\xa0": " ", "\u202f": " ", "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe",
     "Ü": "Ue", "ß": "ss"}
)  # fmt: skip


@lru_cache(maxsize=8)
def font_file() -> str | None:
    """The first font file found (WIRE_CHART_FONT first); None: Pillow's own font, which has
    ASCII letters only."""
    candidates = [os.environ.get(FONT_ENV, ""), *FONT_FILES]
    return next((path for path in candidates if path and os.path.isfile(path)), None)


def plain(text: str) -> str:
    """`text` in the letters Pillow's own font has: "für" as "fuer", a no-break space as a
    space, any other letter without its accent, else "?"."""
    folded = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(c if c.isascii() else "?" for c in folded if not unicodedata.combining(c))


def _plain_spec(spec: ChartSpec) -> ChartSpec:
    return replace(
        spec,
        title=plain(spec.title),
        bars=tuple(replace(b, label=plain(b.label), shown=plain(b.shown)) for b in spec.bars),
        bar_title=plain(spec.bar_title),
        legend=tuple(plain(text) for text in spec.legend),
        line_title=plain(spec.line_title),
        line_ticks=tuple((value, plain(text)) for value, text in spec.line_ticks),
    )


def _fonts() -> tuple[object, object, bool]:
    """(title font, text font, whether they have every letter)."""
    from PIL import ImageFont

    path = font_file()
    if path is not None:
        try:
            return ImageFont.truetype(path, TITLE_SIZE), ImageFont.truetype(path, TEXT_SIZE), True
        except OSError:
            pass
    return ImageFont.load_default(size=TITLE_SIZE), ImageFont.load_default(size=TEXT_SIZE), False


def render(spec: ChartSpec) -> bytes:
    """The chart as PNG bytes."""
    from PIL import Image, ImageDraw

    title_font, font, every_letter = _fonts()
    if not every_letter:
        spec = _plain_spec(spec)
    height = height_of(spec)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=BORDER, width=2)
    draw.text((MARGIN, MARGIN), spec.title, fill=INK, font=title_font)
    _draw_bars(draw, spec, font)
    if spec.line:
        _draw_line(draw, spec, font, MARGIN + TITLE_SIZE + 12 + BAR_PANEL)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _draw_bars(draw, spec: ChartSpec, font) -> None:
    left, top, right, bottom = _bar_area(spec)
    heading = MARGIN + TITLE_SIZE + 12
    draw.text((MARGIN, heading), spec.bar_title, fill=INK, font=font)
    if len(spec.legend) == 2:
        _legend(draw, font, heading + TEXT_SIZE + 8, spec.legend)
    draw.line((left, bottom, right, bottom), fill=MUTED, width=1)
    scale = _scale(spec)
    slot = (right - left) / max(len(spec.bars), 1)
    for bar, box in zip(spec.bars, bar_boxes(spec), strict=True):
        if bar.value > 0:
            draw.rectangle(
                (box.left, box.top, box.right, box.bottom - 1), fill=GOOD if bar.good else BAD
            )
        if bar.expected is not None:
            y = bottom - round((bottom - top) * bar.expected / scale)
            draw.line((box.left - 4, y, box.right + 4, y), fill=EXPECTED, width=3)
        centre = (box.left + box.right) / 2
        _centred(draw, font, centre, bottom + 6, bar.label, MUTED, slot)
        if bar.shown:
            _centred(draw, font, centre, box.top - TEXT_SIZE - 4, bar.shown, INK, slot)


def _legend(draw, font, y: int, legend: tuple[str, ...]) -> None:
    x = AXIS_LEFT
    draw.rectangle((x, y + 3, x + 14, y + 15), fill=GOOD)
    x += 20
    draw.text((x, y), legend[0], fill=MUTED, font=font)
    x += int(draw.textlength(legend[0], font=font)) + 24
    draw.line((x, y + 9, x + 18, y + 9), fill=EXPECTED, width=3)
    draw.text((x + 24, y), legend[1], fill=MUTED, font=font)


def _centred(draw, font, x: float, y: int, text: str, fill, room: float) -> None:
    while text and draw.textlength(text, font=font) > room and len(text) > 1:
        text = text[:-1]
    draw.text((x - draw.textlength(text, font=font) / 2, y), text, fill=fill, font=font)


def _draw_line(draw, spec: ChartSpec, font, top: int) -> None:
    draw.text((MARGIN, top), spec.line_title, fill=INK, font=font)
    left, right = AXIS_LEFT, WIDTH - MARGIN
    y0, y1 = top + TEXT_SIZE + 14, top + LINE_PANEL - 14

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * min(max(value, 0.0), 1.0)

    for value, label in spec.line_ticks:
        y = y_of(value)
        draw.line((left, y, right, y), fill=GRID, width=1)
        width = draw.textlength(label, font=font)
        draw.text((left - 8 - width, y - TEXT_SIZE / 2 - 1), label, fill=MUTED, font=font)
    points = thinned(spec.line)
    if len(points) == 1:
        points = points * 2
    step = (right - left) / (len(points) - 1)
    draw.line([(left + i * step, y_of(v)) for i, v in enumerate(points)], fill=LINE, width=3)
