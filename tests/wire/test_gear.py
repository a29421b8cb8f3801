"""The weight rule, the currency's arithmetic and counters (wire/gear.py), with properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire import i18n
from wire.errors import RulesError
from wire.gear import (
    MAX_AMOUNT,
    Counter,
    Currency,
    Item,
    carried_g,
    give,
    kilograms,
    load_of,
    parse_currency,
    parse_kg,
    pay,
)

WIRE = settings.get_profile("wire")
GOLD = Currency(("copper", "silver", "gold"), (10, 10))

currencies = st.builds(
    lambda n, rates: Currency(tuple(f"c{chr(97 + i)}" for i in range(n)), tuple(rates[: n - 1])),
    st.integers(1, 5),
    st.lists(st.integers(2, 100), min_size=4, max_size=4),
)
amounts = st.integers(0, MAX_AMOUNT)
items = st.builds(
    Item,
    name=st.just("x"),
    quantity=st.integers(0, 10_000),
    grams=st.integers(0, 1_000_000),
    carried=st.booleans(),
)


def test_the_load_rule_reads_strength_and_resolve_in_english_and_german() -> None:
    sword = Item("Sword", 1, 1500)
    load = load_of({"Strength": 3, "Resolve": 2}, [sword, Item("Rope", 2, 750)])
    assert (load.carried_g, load.max_load_g, load.max_lift_g) == (3000, 10_000, 50_000)
    german = load_of({"Stärke": 3, "Entschlossenheit": 2}, [sword])
    assert german.max_load_g == 10_000 and german.max_lift_g == 50_000
    assert load_of({}, [sword]).max_load_g == 0  # absent stats count 0, and it is over
    assert load_of({}, [sword]).over and not load.over


def test_stored_items_weigh_nothing_on_the_character() -> None:
    assert carried_g([Item("Tent", 1, 8000, carried=False), Item("Rope", 1, 1000)]) == 1000


def test_the_load_line_flags_over_the_maximum_and_speaks_german() -> None:
    over = load_of({"Strength": 1}, [Item("Anvil", 1, 2500)])
    assert over.line() == "2.5 kg of 2 kg carried (lift 10 kg), over the maximum load"
    with i18n.speaking("de"):
        assert over.line() == ("2,5 kg von 2 kg getragen (heben 10 kg), über der Höchstlast")


def test_weights_are_read_in_kilograms_to_the_gram() -> None:
    assert parse_kg("0.5") == parse_kg("0,5") == parse_kg("0.5 kg") == 500
    assert kilograms(1250) == "1.25 kg" and kilograms(2000) == "2 kg"
    for bad in ("heavy", "-1", "0.0001", "1001"):
        with pytest.raises(RulesError):
            parse_kg(bad)


def test_a_purse_shows_in_the_largest_coins_and_reads_back() -> None:
    assert GOLD.show(345) == "3 gold 4 silver 5 copper"
    assert GOLD.show(300) == "3 gold"
    assert GOLD.show(0) == "0 copper"
    assert GOLD.parse("3 gold 4 silver") == 340
    assert GOLD.parse("3g, 4s and 5") == 345
    assert GOLD.parse("12") == 12
    assert Currency().show(7) == "7 coin"
    with i18n.speaking("de"):
        assert Currency().show(7) == "7 Münze"


def test_german_coin_names_are_the_campaigns_own() -> None:
    taler = parse_currency("Heller 12 Groschen 20 Taler")
    assert taler.values == (1, 12, 240)
    assert taler.parse("1 Taler 2 Groschen") == 264
    assert taler.show(264) == "1 Taler 2 Groschen"


@pytest.mark.parametrize("bad", ["gold", "3 platinum", "3 s", "", "3 gold x"])
def test_amounts_that_are_not_coins_are_refused_naming_the_coins(bad: str) -> None:
    ambiguous = Currency(("copper", "silver", "sovereign"), (10, 10))
    with pytest.raises(RulesError, match="copper, silver"):
        ambiguous.parse(bad)


@pytest.mark.parametrize(
    "text", ["copper 10", "copper 1 silver", "copper x silver", "a 10 A", "3copper 10 silver"]
)
def test_bad_currencies_are_refused(text: str) -> None:
    with pytest.raises(RulesError):
        parse_currency(text)


@WIRE
@given(currencies, amounts)
def test_a_purse_shown_in_coins_reads_back_to_the_same_amount(
    currency: Currency, amount: int
) -> None:
    assert currency.parse(currency.show(amount)) == amount


@WIRE
@given(currencies, amounts)
def test_each_coin_shown_is_fewer_than_makes_the_next(currency: Currency, amount: int) -> None:
    counts = {name: count for count, name in currency.split(amount)}
    for rate, name in zip(currency.rates, currency.coins, strict=False):
        assert counts.get(name, 0) < rate


@WIRE
@given(amounts, amounts, amounts)
def test_giving_preserves_the_total_and_never_goes_below_zero(
    payer: int, receiver: int, amount: int
) -> None:
    if amount > payer:
        with pytest.raises(RulesError):
            give(payer, receiver, amount)
        return
    after = give(payer, receiver, amount)
    assert sum(after) == payer + receiver and min(after) >= 0


def test_paying_a_negative_amount_is_refused() -> None:
    with pytest.raises(RulesError):
        pay(10, -1)


@WIRE
@given(st.lists(items, max_size=20), st.lists(items, max_size=20))
def test_load_sums_over_the_carried_items(left: list[Item], right: list[Item]) -> None:
    assert carried_g(left + right) == carried_g(left) + carried_g(right)
    assert carried_g(left) == sum(i.quantity * i.grams for i in left if i.carried)


def test_a_counter_is_spent_to_zero_and_no_further() -> None:
    arrows = Counter("Arrows", 1, 20)
    assert arrows.spent() == 0
    with pytest.raises(RulesError, match="Arrows is at 0"):
        Counter("Arrows", 0, 20).spent()


def test_a_currency_describes_its_rates() -> None:
    assert GOLD.describe() == "10 copper = 1 silver, 10 silver = 1 gold"
    assert Currency().describe() == "coin"
