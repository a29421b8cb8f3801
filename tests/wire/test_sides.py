"""The guess of who is likely whose opponent (wire.sides): a stable split, nobody dropped."""

from __future__ import annotations

from wire.sides import likely_opponents, opponents_first


def test_a_player_character_s_likely_opponents_are_the_npcs_and_the_other_way_round():
    assert likely_opponents(False, True) and likely_opponents(True, False)
    assert not likely_opponents(False, False) and not likely_opponents(True, True)


def test_the_split_keeps_everyone_in_the_order_given():
    fight = [("Ser Carol", False), ("Orc", True), ("Jaime", False), ("Goblin 1", True)]
    as_player = opponents_first(False, fight, lambda c: c[1])
    assert [n for n, _ in as_player.opponents] == ["Orc", "Goblin 1"]
    assert [n for n, _ in as_player.others] == ["Ser Carol", "Jaime"]
    as_npc = opponents_first(True, fight, lambda c: c[1])
    assert [n for n, _ in as_npc.ordered()] == ["Ser Carol", "Jaime", "Orc", "Goblin 1"]
    assert opponents_first(True, [], lambda c: c[1]).ordered() == []
