"""Charts (wire/chart.py) tested by what they show: the image decodes, has its size, carries a
background of its own, and its bars and line stand where the numbers put them."""

from __future__ import annotations

import io
import random

from PIL import Image

from tests.wire.test_stats import _evening
from wire import i18n
from wire.chart import (
    BACKGROUND,
    GOOD,
    LINE,
    LINE_POINTS,
    WIDTH,
    Bar,
    ChartSpec,
    bar_boxes,
    height_of,
    render,
    thinned,
)
from wire.stats import summarise
from wire.stats_text import stats_chart


def picture(spec: ChartSpec) -> Image.Image:
    return Image.open(io.BytesIO(render(spec))).convert("RGB")


def test_bars_stand_as_high_as_their_values():
    spec = ChartSpec(
        title="Three bars",
        bars=(Bar("a", 1), Bar("b", 4, expected=2), Bar("c", 0)),
        bar_title="counts",
    )
    image = picture(spec)
    assert image.size == (WIDTH, height_of(spec))
    assert image.getpixel((5, 5)) == BACKGROUND  # its own background, dark theme or light
    boxes = bar_boxes(spec)
    heights = []
    for box in boxes:
        x = box.left + 3
        painted = [y for y in range(box.bottom) if image.getpixel((x, y)) == GOOD]
        heights.append(box.bottom - min(painted) if painted else 0)
    assert heights[2] == 0
    assert abs(heights[1] / heights[0] - 4) < 0.1


def test_the_line_panel_only_with_a_line_and_thinned():
    rolls = _evening(random.Random(2), 3000, loaded=False)
    stats = summarise(rolls)
    spec = stats_chart(stats, "Evening")
    assert len(spec.line) == 3000
    assert len(thinned(spec.line)) == LINE_POINTS
    assert thinned(spec.line)[-1] == spec.line[-1]
    image = picture(spec)
    assert image.size == (WIDTH, height_of(spec))
    blue = sum(1 for x in range(WIDTH) for y in range(image.height - 240, image.height)
               if image.getpixel((x, y)) == LINE)  # fmt: skip
    assert blue > 300
    without = ChartSpec("t", spec.bars, "b")
    assert height_of(without) < height_of(spec)


def test_german_labels_draw():
    stats = summarise(_evening(random.Random(4), 30, loaded=False))
    with i18n.speaking("de"):
        spec = stats_chart(stats, "Würfelstatistik: Ærwyn")
    assert spec.bars[0].label == "5 MG" and spec.bars[-1].label == "5 EG"
    assert [label for _, label in spec.line_ticks] == ["0\xa0%", "50\xa0%", "100\xa0%"]
    assert picture(spec).size[0] == WIDTH


def test_every_german_letter_is_drawn_or_spelt_plainly(monkeypatch):
    from PIL import ImageFont

    import wire.chart as chart

    spec = ChartSpec("Würfelstatistik: Jürgen", (Bar("5 MG", 2, shown="30\xa0%"),), "Größe")
    path = chart.font_file()
    assert path is not None, "no font with German letters found: set WIRE_CHART_FONT"
    font = ImageFont.truetype(path, 16)
    missing = bytes(font.getmask("\uffff"))
    assert all(bytes(font.getmask(letter)) != missing for letter in "äöüßÄÖÜ")
    # Without such a font, the words are spelt in ASCII instead of drawn as boxes.
    assert chart.plain("Würfelstatistik: Größe 30\xa0%") == "Wuerfelstatistik: Groesse 30 %"
    monkeypatch.setattr(chart, "font_file", lambda: None)
    plainly = chart._plain_spec(spec)
    assert plainly.title == "Wuerfelstatistik: Juergen" and plainly.bars[0].shown == "30 %"
    assert render(spec) == render(plainly)
