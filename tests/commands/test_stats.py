"""/stats through the simulated client: an evening's numbers and luck in both languages, the
chart read back from its pixels, a hidden roll in no number of a player's, a forgotten player
gone, a CSV that re-reads to the same numbers, and a chart that fails without losing the reply.
"""

from __future__ import annotations

import io
import threading

from PIL import Image

import cogs.utils.charts as charts
from cogs.utils.odds_chart import odds_picture
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_jaime, make_ser_carol
from wire import i18n
from wire.chart import BAD, GOOD, WIDTH, bar_boxes, height_of
from wire.degrees import degrees_of
from wire.odds import compute_odds
from wire.stats import OUTCOME_ORDER as OUTCOMES
from wire.stats import LoggedRoll, summarise
from wire.stats_csv import read_rolls_csv
from wire.stats_text import luck_sentence, stats_chart

FACES = (3, 17, 12, 20)
"""Bob's evening: checks of d20 + 2 against 12."""


async def evening(world, actor, faces=FACES, *, private: bool = False) -> None:
    for face in faces:
        world.dice.push(face)
        await actor.slash(world.channel, "check", attr=1, skill=1, vs=12, private=private)


def expected_stats(faces=FACES):
    rolls = []
    for face in faces:
        result = degrees_of(face + 2, 12)
        rolls.append(
            LoggedRoll("check", face, "rolled", face + 2, 12, result.success, result.capped)
        )
    return summarise(rolls)


async def test_an_evening_in_english(world):
    await evening(world, world.bob)
    result = await world.bob.slash(world.channel, "stats")
    assert result.response.ephemeral
    embed = embed_of(result)
    expected = expected_stats()
    assert embed["title"] == "Dice statistics: bob"
    assert embed["description"] == luck_sentence("Bob", expected.luck)
    assert embed["description"].startswith("Bob rolled better than ")
    assert field(embed, "Rolls") == "4: 4 checks"
    assert field(embed, "Successes / failures") == "3 / 1"
    assert field(embed, "Natural 1s / 20s") == "0 / 1"
    assert "mean percentile" in field(embed, "Luck")
    await _chart_shows(result, expected)


async def _chart_shows(result, expected) -> None:
    """The picture decodes, is 800 pixels wide, and its bars stand as high as the counts."""
    [png] = [a for a in result.response.attachments if a.filename == "stats.png"]
    image = Image.open(io.BytesIO(await png.read())).convert("RGB")
    spec = stats_chart(expected, "")
    assert image.size == (WIDTH, height_of(spec))
    for bar, box in zip(spec.bars, bar_boxes(spec), strict=True):
        x = (box.left + box.right) // 2
        colour = GOOD if bar.good else BAD
        painted = [y for y in range(box.bottom) if image.getpixel((x, y)) == colour]
        if bar.value:
            # From its highest pixel in the bar's colour down to the axis (the expected mark,
            # 3 pixels, may cross it).
            assert abs((box.bottom - min(painted)) - (box.bottom - box.top)) <= 4, bar.label
            assert bar.shown == str(expected.degrees[OUTCOMES[spec.bars.index(bar)]])
        else:
            assert painted == [], bar.label
    assert embed_of_image(result)


def embed_of_image(result) -> bool:
    return embed_of(result).get("image", {}).get("url") == "attachment://stats.png"


async def test_an_evening_in_german(world, client_languages):
    client_languages.set(world.bob, "de")
    await evening(world, world.bob)
    embed = embed_of(await world.bob.slash(world.channel, "stats"))
    expected = expected_stats()
    with i18n.speaking("de"):
        sentence = luck_sentence("Bob", expected.luck)
    assert embed["title"] == "Würfelstatistik: bob"
    assert embed["description"] == sentence
    assert " % der Abende wie dieser." in sentence.replace("\xa0", " ")
    assert field(embed, "Würfe") == "4: 4 Proben"
    assert field(embed, "Erfolge / Misserfolge") == "3 / 1"


async def test_a_player_never_counts_a_hidden_roll(world):
    await evening(world, world.bob)
    await evening(world, world.carol, (1, 1), private=True)
    player = embed_of(await world.bob.slash(world.channel, "stats", table=True))
    assert field(player, "Rolls") == "4: 4 checks"
    assert field(player, "Natural 1s / 20s") == "0 / 1"
    assert player["title"] == "Dice statistics: the table"
    about_carol = embed_of(await world.bob.slash(world.channel, "stats", player=world.carol))
    assert field(about_carol, "Rolls") == "0"
    # Carol sees her own; the GM sees everyone's.
    assert field(embed_of(await world.carol.slash(world.channel, "stats")), "Rolls") == (
        "2: 2 checks"
    )
    gm = embed_of(await world.alice.slash(world.channel, "stats", table=True))
    assert field(gm, "Rolls") == "6: 6 checks"
    assert field(gm, "Natural 1s / 20s") == "2 / 1"
    # Posted to the channel, even the GM's answer holds no hidden roll.
    shown = await world.alice.slash(world.channel, "stats", table=True, public=True)
    assert not shown.response.ephemeral
    assert field(embed_of(shown), "Rolls") == "4: 4 checks"


async def test_a_forgotten_player_is_gone(world):
    await evening(world, world.bob)
    await evening(world, world.carol, (5, 6))
    ask = await world.carol.slash(world.channel, "privacy forget-me")
    await world.carol.click(ask.response, label="Delete all my data")
    gm = embed_of(await world.alice.slash(world.channel, "stats", table=True))
    assert field(gm, "Rolls") == "4: 4 checks"


async def test_a_csv_reads_back_to_the_same_numbers(world):
    await evening(world, world.bob)
    result = await world.bob.slash(world.channel, "stats", csv=True)
    [attachment] = [a for a in result.response.attachments if a.filename == "rolls.csv"]
    rolls = read_rolls_csv((await attachment.read()).decode("utf-8"))
    again = summarise(rolls)
    assert again == expected_stats()
    assert {roll.who for roll in rolls} == {str(world.bob.id)}
    embed = embed_of(result)
    assert embed["description"] == luck_sentence("Bob", again.luck)


async def test_a_failed_chart_loses_nothing(world, monkeypatch):
    await evening(world, world.bob)

    def broken(spec):
        raise MemoryError("no room for a picture")

    monkeypatch.setattr(charts, "render", broken)
    result = await world.bob.slash(world.channel, "stats")
    embed = embed_of(result)
    assert field(embed, "Rolls") == "4: 4 checks"
    assert "could not be drawn" in embed["footer"]["text"]
    assert result.response.attachments == []
    assert "image" not in embed


async def test_bad_input_is_answered(world):
    result = await world.bob.slash(world.channel, "stats", since="yesterday")
    assert result.response.ephemeral and "2026-12-03" in result.response.content
    both = await world.bob.slash(world.channel, "stats", table=True, player=world.carol)
    assert "one of character, player or table" in both.response.content
    fight = await world.bob.slash(world.channel, "stats", span="fight")
    assert "No fight has run in this channel" in fight.response.content


async def test_a_slow_chart_is_not_waited_for(monkeypatch):
    # Below the simulated client (whose clock is virtual): the reply's wait for its chart.
    gate = threading.Event()

    def stuck(spec):
        gate.wait(5)  # released below, so the worker thread ends with the test
        return b""

    monkeypatch.setattr(charts, "render", stuck)
    try:
        assert (
            await charts.chart_file(stats_chart(expected_stats(), ""), "x.png", seconds=0.05)
            is None
        )
    finally:
        gate.set()
    monkeypatch.undo()
    drawn = await charts.chart_file(stats_chart(expected_stats(), ""), "x.png")
    assert drawn is not None and drawn.filename == "x.png"


async def test_the_rolls_of_this_channels_fight(world):
    await evening(world, world.bob, (2,))  # before the fight: not counted
    await world.alice.slash(world.channel, "fight start", name="Ambush")
    await evening(world, world.bob, (19, 4))
    await world.alice.slash(world.channel, "fight end")
    await evening(world, world.bob, (7,))  # after it: not counted
    embed = embed_of(await world.bob.slash(world.channel, "stats", span="fight"))
    assert field(embed, "Rolls") == "2: 2 checks"


async def test_odds_come_as_a_picture_with_the_text_kept(world):
    result = await world.bob.slash(world.channel, "odds check", vs=13, attr=3, skill=5)
    embed = embed_of(result)
    assert embed["image"]["url"] == "attachment://odds.png"
    assert "```" in field(embed, "Each result")  # the text bars stay, for screen readers
    [png] = result.response.attachments
    image = Image.open(io.BytesIO(await png.read())).convert("RGB")
    odds = compute_odds(3 + 5 - 13)
    spec = odds_picture(embed["title"], odds)
    assert image.size == (WIDTH, height_of(spec))
    tallest = max(odds.outcomes.values())
    for outcome, bar, box in zip(OUTCOMES, spec.bars, bar_boxes(spec), strict=True):
        x = (box.left + box.right) // 2
        colour = GOOD if outcome.success else BAD
        painted = [y for y in range(box.bottom) if image.getpixel((x, y)) == colour]
        chance = odds.outcomes.get(outcome, 0)
        drawn = box.bottom - min(painted) if painted else 0
        full = box.bottom - bar_boxes(spec)[spec.bars.index(max(spec.bars, key=_value))].top
        assert abs(drawn - full * float(chance / tallest)) <= 2, bar.label


def _value(bar):
    return bar.value


async def test_the_rolls_of_the_last_session_or_a_given_one(world):
    ch = world.channel
    refused = await world.bob.slash(ch, "stats", span="session")
    assert refused.response.ephemeral and "has not played a session yet" in refused.response.content
    plan = {"date": "2027-01-05", "time": "19:30"}
    await world.alice.slash(ch, "session plan", title="Warrens", **plan)
    await evening(world, world.bob, (2,))  # before the session: not counted
    await world.alice.slash(ch, "session start")
    await evening(world, world.bob, (19, 4))
    await evening(world, world.bob, (9,), private=True)
    running = embed_of(await world.bob.slash(ch, "stats", span="session"))
    assert field(running, "Rolls") == "3: 3 checks"  # the running session, their own hidden one
    await world.alice.slash(ch, "session end")
    await evening(world, world.bob, (7,))  # after it: not counted
    await world.alice.slash(ch, "session plan", title="Tunnels", date="2027-01-12", time="19:30")
    await world.alice.slash(ch, "session start")
    await evening(world, world.bob, (11,))
    last = embed_of(await world.bob.slash(ch, "stats", span="session", table=True))
    assert field(last, "Rolls") == "1: 1 check"
    given = embed_of(await world.carol.slash(ch, "stats", session="Warrens", table=True))
    assert field(given, "Rolls") == "2: 2 checks"  # Bob's hidden roll is not Carol's to count
    unknown = await world.bob.slash(ch, "stats", session="Nope")
    assert unknown.response.ephemeral and "No session" in unknown.response.content


async def test_an_attack_settled_by_the_defence_buttons_has_its_luck(world):
    # Jaime's 15 + 8 = 23 waits for Ser Carol's defence; her Block 12 + 6 = 18 settles it: the
    # attack's odds are those of d20 + 8 against 18 (the attacker wins ties), its result 2 DoS.
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    waiting = embed_of(await world.bob.slash(world.channel, "stats"))
    assert waiting["description"] == luck_sentence("Bob", None)  # no luck while it waits
    world.dice.push(12)
    await world.carol.click(attack.response, label="Block")
    embed = embed_of(await world.bob.slash(world.channel, "stats"))
    expected = summarise([LoggedRoll("attack", 15, "rolled", 23, 18, True, 2)])
    assert expected.luck is not None
    assert embed["description"] == luck_sentence("Bob", expected.luck)
    assert field(embed, "Successes / failures") == "1 / 0"
    carol = embed_of(await world.carol.slash(world.channel, "stats"))
    defence = summarise([LoggedRoll("defend", 12, "rolled", 18, 23, False, 2)])
    assert carol["description"] == luck_sentence("Carol", defence.luck)
