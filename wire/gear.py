"""What a character carries, what it weighs, what its coins come to, and what runs out.

WIRE's rules site gives the weight rule as two derived attributes, never bought with CP:
maximum load = (Strength + Resolve) x 2 kg and maximum lift = (Strength + Resolve) x 10 kg. What
being over the maximum load does the sources do not say, so the rules here measure and flag, and
never penalise (docs/gear.md): a GM may put a condition on the character.

Weights are whole grams, so sums are exact (0.1 kg + 0.2 kg is 300 g, never 0.30000000000000004).
Money is a whole number of the campaign's smallest coin; a `Currency` names its coins and how
many of one make the next, shows an amount in the largest coins that fit and reads it back.
A counter (arrows 12/20) never goes below 0 nor above its maximum.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from enum import StrEnum

from wire.errors import RulesError
from wire.i18n import N_, number, tr

LOAD_KG_PER_POINT = 2
"""Maximum load: (Strength + Resolve) x 2 kg."""
LIFT_KG_PER_POINT = 10
"""Maximum lift: (Strength + Resolve) x 10 kg."""
GRAMS_PER_KG = 1000

MAX_ITEMS = 100
"""Different items on one character: a long list still fits a few embed pages."""
MAX_QUANTITY = 10_000
MAX_WEIGHT_G = 1_000_000
"""Heaviest single item: a tonne."""
MAX_AMOUNT = 10**12
"""The most of the smallest coin a purse, a payment or a grant holds."""
MAX_COUNTER = 1000
MAX_COUNTERS = 25
"""Counters on one character: one select menu's worth."""
MAX_COINS = 6
MAX_RATE = 1000


def strength_and_resolve(attributes: dict[str, int]) -> tuple[int, int]:
    """Strength and Resolve off a sheet (German "Stärke" and "Entschlossenheit" too), 0 if
    absent: the one stat look-up every rule uses (wire/sheet.py)."""
    from wire.sheet import find_stat  # wire.sheet imports much; this module stays light

    found = [find_stat(attributes, name) for name in ("Strength", "Resolve")]
    strength, resolve = (f[1] if f else 0 for f in found)
    return strength, resolve


def max_load_g(strength: int, resolve: int) -> int:
    """(Strength + Resolve) x 2 kg, in grams; never below 0."""
    return max(0, strength + resolve) * LOAD_KG_PER_POINT * GRAMS_PER_KG


def max_lift_g(strength: int, resolve: int) -> int:
    """(Strength + Resolve) x 10 kg, in grams; never below 0."""
    return max(0, strength + resolve) * LIFT_KG_PER_POINT * GRAMS_PER_KG


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    quantity: int = 1
    grams: int = 0
    """Weight of one, in grams."""
    note: str = ""
    carried: bool = True
    """False: stored elsewhere (a cart, an inn), so it weighs nothing on the character."""
    id: int = 0

    @property
    def total_g(self) -> int:
        return self.quantity * self.grams


@dataclass(frozen=True, slots=True)
class Load:
    """The carried weight against the maximum load; over it is flagged, never penalised."""

    carried_g: int
    max_load_g: int
    max_lift_g: int

    @property
    def over(self) -> bool:
        return self.carried_g > self.max_load_g

    def line(self) -> str:
        text = tr(
            "{carried} of {limit} carried (lift {lift})",
            carried=kilograms(self.carried_g),
            limit=kilograms(self.max_load_g),
            lift=kilograms(self.max_lift_g),
        )
        return f"{text}, {tr('over the maximum load')}" if self.over else text


def carried_g(items: list[Item] | tuple[Item, ...]) -> int:
    """What the carried items weigh together (stored ones weigh nothing here)."""
    return sum(item.total_g for item in items if item.carried)


def load_of(attributes: dict[str, int], items: list[Item] | tuple[Item, ...]) -> Load:
    strength, resolve = strength_and_resolve(attributes)
    return Load(carried_g(items), max_load_g(strength, resolve), max_lift_g(strength, resolve))


def kilograms(grams: int) -> str:
    """ "2.5 kg" ("2,5 kg" in German): up to three decimals, none that are 0."""
    value = (Decimal(grams) / GRAMS_PER_KG).normalize()
    decimals = max(0, -value.as_tuple().exponent)  # type: ignore[operator]
    return f"{number(value, decimals)} kg"


def parse_kg(text: str) -> int:
    """A weight typed in kg ("0.5", "0,5", "2 kg") as grams; refused clearly when it is not
    one, negative, finer than a gram or heavier than a tonne."""
    cleaned = text.strip().lower().removesuffix("kg").strip().replace(",", ".")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise RulesError(
            tr("{text} is not a weight: write kilograms, e.g. 0.5 or 2.", text=text)
        ) from None
    grams = value * GRAMS_PER_KG
    if not value.is_finite() or grams != grams.to_integral_value():
        raise RulesError(
            tr("Write a weight to the gram at most (0.001 kg), not {text}.", text=text)
        )
    whole = int(grams.to_integral_value(ROUND_HALF_UP))
    if not 0 <= whole <= MAX_WEIGHT_G:
        raise RulesError(
            tr(
                "An item weighs 0 to {limit}, not {text}.",
                limit=kilograms(MAX_WEIGHT_G),
                text=text,
            )
        )
    return whole


# ---- money ----------------------------------------------------------------------------------
DEFAULT_COIN = N_("coin")
COIN_NAME = re.compile(r"[^\d\s,;+]{1,20}")


@dataclass(frozen=True, slots=True)
class Currency:
    """Coin names, smallest first, and `rates[i]`: how many of coin i make one of coin i + 1
    (copper, silver, gold at 10 and 10: names ("copper", "silver", "gold"), rates (10, 10))."""

    names: tuple[str, ...] = ()
    rates: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.rates) != max(0, len(self.names) - 1):
            raise RulesError(tr("Give one rate fewer than coins: how many of one make the next."))
        if len(self.names) > MAX_COINS:
            raise RulesError(tr("A currency has at most {limit} coins.", limit=MAX_COINS))
        for rate in self.rates:
            if not 2 <= rate <= MAX_RATE:
                raise RulesError(tr("A rate is 2 to {high}, not {rate}.", high=MAX_RATE, rate=rate))
        keys = [n.casefold() for n in self.names]
        if len(set(keys)) != len(keys) or not all(COIN_NAME.fullmatch(k) for k in keys):
            raise RulesError(
                tr("Coin names are single words without digits, each different (copper, silver).")
            )

    @property
    def coins(self) -> tuple[str, ...]:
        """The coin names in use (the default currency's one coin in the reader's language)."""
        return self.names or (tr(DEFAULT_COIN),)

    @property
    def values(self) -> tuple[int, ...]:
        """What each coin is worth in the smallest, smallest first."""
        worth, found = 1, [1]
        for rate in self.rates:
            worth *= rate
            found.append(worth)
        return tuple(found)

    def split(self, amount: int) -> list[tuple[int, str]]:
        """(count, coin) for the largest sensible coins, largest first, zeros left out."""
        parts, rest = [], amount
        for value, name in reversed(list(zip(self.values, self.coins, strict=True))):
            count, rest = divmod(rest, value)
            if count:
                parts.append((count, name))
        return parts

    def show(self, amount: int) -> str:
        """ "3 gold 4 silver"; nothing at all is "0" of the smallest coin."""
        parts = self.split(amount) or [(0, self.coins[0])]
        return " ".join(f"{count} {name}" for count, name in parts)

    def parse(self, text: str) -> int:
        """An amount typed as coins ("3 gold 4 silver", "3g, 4s", "34": a bare number is the
        smallest coin) in the smallest coin; a name may be shortened while it is unambiguous."""
        tokens = re.findall(r"(\d+)\s*([^\d\s,;+]*)", text)
        leftover = re.sub(r"(\d+)\s*([^\d\s,;+]*)", "", text)
        if not tokens or re.sub(r"[\s,;+]|\band\b|\bund\b", "", leftover):
            raise RulesError(self._parse_fix(text))
        total = 0
        for count, word in tokens:
            total += int(count) * self.values[self._coin(word, text)]
        if total > MAX_AMOUNT:
            raise RulesError(tr("{text} is more than a purse holds.", text=text))
        return total

    def _coin(self, word: str, text: str) -> int:
        if not word:
            return 0
        folded = word.casefold().rstrip(".")
        names = [n.casefold() for n in self.coins]
        if folded in names:
            return names.index(folded)
        matches = [i for i, n in enumerate(names) if n.startswith(folded) or folded.startswith(n)]
        if len(matches) == 1:
            return matches[0]
        raise RulesError(self._parse_fix(text))

    def _parse_fix(self, text: str) -> str:
        return tr(
            "{text} is not an amount: write a number and a coin ({coins}), e.g. {example}.",
            text=text,
            coins=", ".join(self.coins),
            example=self.show(self.values[-1] + 1) if len(self.coins) > 1 else f"3 {self.coins[0]}",
        )

    def describe(self) -> str:
        """ "10 copper = 1 silver, 10 silver = 1 gold", or the one coin's name."""
        if not self.names or len(self.names) == 1:
            return self.coins[0]
        return ", ".join(
            f"{rate} {low} = 1 {high}"
            for rate, low, high in zip(self.rates, self.names[:-1], self.names[1:], strict=True)
        )


def parse_currency(text: str) -> Currency:
    """A currency typed as "copper 10 silver 10 gold": coins smallest first, each number how
    many of the coin before make the next. One name alone is a one-coin currency."""
    words = text.replace(",", " ").split()
    names = tuple(w for i, w in enumerate(words) if i % 2 == 0)
    rates_text = [w for i, w in enumerate(words) if i % 2 == 1]
    if not names or len(words) % 2 == 0 or not all(r.isdigit() for r in rates_text):
        raise RulesError(
            tr(
                "Write the coins smallest first with how many of one make the next, "
                "e.g. copper 10 silver 10 gold."
            )
        )
    return Currency(names, tuple(int(r) for r in rates_text))


def pay(balance: int, amount: int) -> int:
    """The balance after paying `amount`; a purse never goes below 0."""
    if amount < 0:
        raise RulesError(tr("An amount is never negative."))
    if amount > balance:
        raise RulesError(tr("Not enough money: the purse holds less than that."))
    return balance - amount


def give(payer: int, receiver: int, amount: int) -> tuple[int, int]:
    """Both purses after `payer` gives `amount` to `receiver`: the total stays the same."""
    return pay(payer, amount), receiver + amount


# ---- counters -------------------------------------------------------------------------------
class Reset(StrEnum):
    """When a counter fills up again: only on a GM's word, at a fight's end or a session's."""

    GM = "gm"
    FIGHT = "fight"
    SESSION = "session"

    @property
    def label(self) -> str:
        return tr(RESET_LABELS[self])


RESET_LABELS = {
    Reset.GM: N_("on a GM's word"),
    Reset.FIGHT: N_("at a fight's end"),
    Reset.SESSION: N_("at a session's end"),
}


@dataclass(frozen=True, slots=True)
class Counter:
    name: str
    value: int
    maximum: int
    reset: Reset = Reset.GM
    id: int = 0

    def spent(self, count: int = 1) -> int:
        """The value after spending `count`; refused at 0 (a counter never goes below 0)."""
        if count > self.value:
            raise RulesError(
                tr(
                    "{name} is at {value}: there is not {count} to spend.",
                    name=self.name,
                    value=self.value,
                    count=count,
                )
            )
        return self.value - count

    def line(self) -> str:
        return f"{self.name} {self.value}/{self.maximum}"
