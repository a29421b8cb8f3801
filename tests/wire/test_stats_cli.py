"""Rolls as CSV and back (wire/stats_csv.py), and `python -m wire stats FILE` offline."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from wire import i18n
from wire.chart import WIDTH, height_of
from wire.cli import main
from wire.degrees import degrees_of
from wire.stats import LoggedRoll, summarise
from wire.stats_csv import read_rolls_csv, rolls_csv
from wire.stats_text import luck_sentence, stats_chart, stats_json

NAMES = ("Jaime", '=HYPERLINK("http://x")', "+1", "-Goblin", "@cmd", 'Ærwyn, "the" bold')


def an_evening(count: int = 40) -> list[LoggedRoll]:
    rng = random.Random(5)
    start = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)
    rolls = []
    for i in range(count):
        kind = rng.choice(["check", "attack", "defend"])
        die, mods, target = rng.randint(1, 20), rng.randint(0, 10), rng.randint(8, 20)
        result = degrees_of(die + mods, target, wins_ties=kind != "defend")
        source = "take10" if i % 9 == 0 else "rolled"
        die = 10 if source == "take10" else die
        total = die + mods
        result = degrees_of(total, target, wins_ties=kind != "defend")
        rolls.append(
            LoggedRoll(
                kind=kind,
                die=die,
                die_source=source,
                total=total,
                target=target,
                success=result.success,
                degrees=result.capped,
                damage=rng.randint(0, 9) if kind != "check" else None,
                when=start + timedelta(minutes=i),
                who=NAMES[i % len(NAMES)],
            )
        )
    rolls.append(LoggedRoll("roll", 0, "expression", 11, None, False, 0, who="Jaime"))
    return rolls


def test_a_csv_reads_back_to_the_same_rolls():
    rolls = an_evening()
    text = rolls_csv(rolls)
    assert read_rolls_csv(text) == rolls
    assert summarise(read_rolls_csv(text)) == summarise(rolls)


def test_names_that_look_like_formulas_stay_text():
    text = rolls_csv(an_evening())
    for name in NAMES[1:5]:
        assert f",'{name[0]}" in text or f",\"'{name[0]}" in text
    assert ",=" not in text and ",+" not in text and ",@" not in text


def test_the_chance_column_is_the_exact_odds():
    # Jaime's 15 + 8 against 13 needs 5 or more on the d20: 16 of 20 faces.
    jaime = LoggedRoll("attack", 15, "rolled", 23, 13, True, 5, who="Jaime")
    assert rolls_csv([jaime]).splitlines()[1].endswith(",0.8000")


def test_cli_json_matches_the_numbers(tmp_path, capsys):
    rolls = an_evening()
    path = tmp_path / "rolls.csv"
    path.write_text(rolls_csv(rolls), encoding="utf-8")
    assert main(["stats", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(stats_json(summarise(rolls)))
    )


def test_cli_in_german_with_a_chart(tmp_path, capsys):
    rolls = an_evening()
    path, png = tmp_path / "rolls.csv", tmp_path / "chart.png"
    path.write_text(rolls_csv(rolls), encoding="utf-8")
    try:
        assert (
            main(["--lang", "de", "stats", str(path), "--who", "Jaime", "--chart", str(png)]) == 0
        )
        stats = summarise(rolls)
        out = capsys.readouterr().out
        assert out.splitlines()[0] == luck_sentence("Jaime", stats.luck)
        assert "hat besser gewürfelt als" in out
        image = Image.open(io.BytesIO(png.read_bytes()))
        assert image.size == (WIDTH, height_of(stats_chart(stats, "")))
    finally:
        i18n.use(i18n.DEFAULT)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not,a,roll\n1,2,3\n", "not a roll export"),
        (
            "when,who,kind,die,die_source,modifiers,total,target,success,degrees,damage,chance\n"
            "2026-12-03T19:00:00+00:00,Jaime,check,x,rolled,2,12,10,1,1,,0.5\n",
            "line 2",
        ),
    ],
)
def test_a_bad_file_ends_in_one_line(tmp_path, capsys, content, says):
    path = tmp_path / "rolls.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["stats", str(path)])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and says in err
    with pytest.raises(SystemExit):
        main(["stats", str(tmp_path / "missing.csv")])
    assert "Cannot read" in capsys.readouterr().err
