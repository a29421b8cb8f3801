"""Free dice expressions for `/roll` (2d6+3, 4d6kh3, d100): what is outside WIRE's rules.

Parsing and evaluating is avrae's `d20` library: a tested grammar with keep/drop, rerolls,
explosions and a result tree, instead of a parser of our own. It is tooling for the table, not
WIRE rules, so it lives here and never in `wire/`. This module adds what a public bot needs
around it, with no Discord in it:

- limits checked on the parsed tree before anything is rolled (length, dice, die size), and on
  what is rolled (rerolls and explosions count), so no expression can keep the bot busy or grow a
  reply past Discord's limits;
- the bot's own randomness: d20 rolls with the `random` module's global generator, so its die is
  given ours (the OS's in production, a scripted one in tests);
- the result tree as text where user text (an annotation such as `[fire]`) is inert and the
  only markdown is the bot's own: a strike through dropped dice, the total in bold.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import d20
from d20 import diceast

from cogs.utils.errors import UserError
from cogs.utils.text import code, inert
from wire import i18n
from wire.i18n import N_, tr

EXPRESSION_MAX = 100
"""Characters in an expression: any real roll is far shorter."""
MAX_DICE = 100
"""Dice in one roll, rerolls and explosions included."""
MAX_SIDES = 1000
MAX_TOTAL = 10**9
"""Beyond any dice roll; it keeps arithmetic on long numbers out of the roll log's integers."""
EXAMPLES = N_("`2d6+3`, `4d6kh3` (keep the highest 3) or `d100`")


class DiceError(UserError):
    """An expression refused: the message names the problem and shows examples."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem} " + tr("Try {examples}.", examples=tr(EXAMPLES)))


@dataclass(frozen=True, slots=True)
class FreeRoll:
    expression: str
    """As rolled: lower case, surrounding spaces removed."""
    total: int
    shown: str
    """The result tree for an embed: each die, dropped ones struck through, the total in bold."""
    plain: str
    """The same without escapes or bold, for the roll log."""
    dice: int
    """How many dice were rolled, rerolls and explosions included."""


class _Context(d20.RollContext):
    """d20's roll counter, carrying the generator the dice come from."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(max_rolls=MAX_DICE)
        self.rng = rng


class _Die(d20.Die):
    """A die that rolls with the context's generator, not the `random` module's.

    `randint(1, sides)` as the rules core's d20 does, so a test's scripted faces reach both.
    The static check has refused `d%` and sides below 1 before any die is made.
    """

    __slots__ = ()

    def _add_roll(self) -> None:
        context: _Context = self._context
        context.count_roll()
        self.values.append(d20.Literal(context.rng.randint(1, self.size)))


class _Dice(d20.Dice):
    """Dice made of `_Die`, also when an explosion adds one."""

    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int, context: _Context | None = None) -> _Dice:
        return cls(
            num, size, [_Die.new(size, context=context) for _ in range(num)], context=context
        )

    def roll_another(self) -> None:
        self.values.append(_Die.new(self.size, context=self._context))


class _Roller(d20.Roller):
    def _eval_dice(self, node: diceast.Dice) -> _Dice:
        return _Dice.new(node.num, node.size, context=self.context)


_STRIKE, _BOLD = "\ue000", "\ue001"
"""Stand-ins for the bot's own markdown while the line is made inert as a whole."""


class _Text(d20.SimpleStringifier):
    """The result tree as one line: `4d6kh3 (~~1~~, 4, 5, 6) + 3 = 18`, dropped dice struck.

    The line is made with stand-ins for the strike and the bold total, so that `shown` can pass
    the whole line through `inert` (a `*` or `<` in the expression could start formatting or a
    mention; an annotation such as `[fire]` is the user's own words) and only then put the
    bot's markdown in.
    """

    def __init__(self) -> None:
        super().__init__()
        self._nodes[_Dice] = self._str_dice
        self._nodes[_Die] = self._str_die
        self._in_dropped = False

    def stringify(self, the_roll: d20.Number) -> str:
        self._in_dropped = False
        return super().stringify(the_roll)

    def _stringify(self, node: d20.Number) -> str:
        if not node.kept and not self._in_dropped:
            self._in_dropped = True
            inside = self._nodes[type(node)](node)
            self._in_dropped = False
            inside = f"{_STRIKE}{inside}{_STRIKE}"
        else:
            inside = self._nodes[type(node)](node)
        if node.annotation:
            annotation = node.annotation.replace(_STRIKE, "").replace(_BOLD, "")
            return f"{inside} {annotation}"
        return inside

    def _str_expression(self, node: d20.Expression) -> str:
        return f"{self._stringify(node.roll)} = {_BOLD}{int(node.total)}{_BOLD}"

    def _str_literal(self, node: d20.Literal) -> str:
        history = " -> ".join(_number(v) for v in node.values)
        return history + ("!" if node.exploded else "")

    def _str_dice(self, node: d20.Dice) -> str:
        faces = ", ".join(self._stringify(die) for die in node.values)
        return f"{node.num}d{node.size}{self._str_ops(node.operations)} ({faces})"

    def _str_die(self, node: d20.Die) -> str:
        return ", ".join(self._stringify(value) for value in node.values)

    @staticmethod
    def shown(line: str) -> str:
        return inert(line).replace(_STRIKE, "~~").replace(_BOLD, "**")

    @staticmethod
    def plain(line: str) -> str:
        return line.replace(_STRIKE, "~~").replace(_BOLD, "")


def _number(value: int | float) -> str:
    """1.5 stays 1.5; 2.0 reads 2."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_OUTSIDE_BRACKETS = re.compile(r"\[[^\]]*\]|[^\[]+")


def normal(expression: str) -> str:
    """The expression as the grammar reads it: `4D6KH3` works too (annotations keep their case)."""
    return _OUTSIDE_BRACKETS.sub(
        lambda m: m[0] if m[0].startswith("[") else m[0].lower(), expression.strip()
    )


def parse(expression: str) -> diceast.Expression:
    """The expression's tree, refused (DiceError) if it is not one or breaks a limit."""
    text = normal(expression)
    if not text:
        raise DiceError(tr("Give a dice expression."))
    if len(text) > EXPRESSION_MAX:
        raise DiceError(
            tr(
                "That expression is {length} characters long; the limit is {limit}.",
                length=len(text),
                limit=EXPRESSION_MAX,
            )
        )
    try:
        tree = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise DiceError(
            tr(
                "{expression} is not a dice expression: {where}.",
                expression=code(text),
                where=_where(text, exc),
            )
        ) from None
    except d20.RollError as exc:  # the parser's other refusals
        raise DiceError(
            tr("{expression} is not a dice expression ({why}).", expression=code(text), why=exc)
        ) from None
    _check_dice(tree)
    return tree


def _where(text: str, error: d20.RollSyntaxError) -> str:
    """Where the grammar stopped, in a player's words rather than the parser's token names."""
    got = str(error.got)
    if getattr(error.got, "type", None) == "$END" or not got:
        return tr("it ends too early")
    column = error.col if isinstance(error.col, int) else 0
    return tr("unexpected {got} at character {column}", got=code(got[:20]), column=column)


def _check_dice(tree: diceast.Node) -> None:
    """Refuse before rolling: more than MAX_DICE dice, or a die with too many or no sides."""
    count = 0
    pending: list[diceast.Node] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, diceast.Dice):
            if node.size == "%":
                raise DiceError(tr("`d%` is not supported: roll `d100` for a percentage."))
            if not 1 <= node.size <= MAX_SIDES:
                raise DiceError(
                    tr("A die has 1 to {most} sides, not {sides}.", most=MAX_SIDES, sides=node.size)
                )
            count += node.num
        pending.extend(node.children)
    if count > MAX_DICE:
        raise DiceError(
            tr(
                "That is {count} dice; at most {most} can be rolled at once.",
                count=count,
                most=MAX_DICE,
            )
        )


def roll(expression: str, rng: random.Random) -> FreeRoll:
    """Roll a free dice expression with `rng`; DiceError names what is wrong with it."""
    tree = parse(expression)
    context = _Context(rng)
    try:
        result = _Roller(context).roll(tree)
        total = result.total
        if abs(total) > MAX_TOTAL:
            raise DiceError(
                tr(
                    "The total is too large to show (more than {most}).",
                    most=i18n.number(MAX_TOTAL),
                )
            )
        line = _Text().stringify(result.expr)
    except d20.TooManyRolls:
        raise DiceError(
            tr(
                "Rerolls and explosions went past {most} dice: loosen the condition "
                "(`rr1` rerolls only 1s, `e6` explodes only 6s).",
                most=MAX_DICE,
            )
        ) from None
    except d20.RollError as exc:  # dividing by zero, a minimum on a set without dice
        raise DiceError(
            tr("{expression} cannot be rolled: {why}", expression=code(normal(expression)), why=exc)
        ) from None

    return FreeRoll(normal(expression), total, _Text.shown(line), _Text.plain(line), context.rolls)
