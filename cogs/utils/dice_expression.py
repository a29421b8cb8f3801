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
  only markdown is the bot's own: a strike through dropped dice, the total in bold;
- dice written the German way, `4W6`, read as `4d6` in any language, and shown with the
  reader's letter (W in German); the roll log keeps `d`;
- a hint when `k3` ("keep the 3s", in d20's grammar) looks meant as "keep the highest 3".
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
from wire.i18n import N_, tr, trc

EXPRESSION_MAX = 100
"""Characters in an expression: any real roll is far shorter."""
MAX_DICE = 100
"""Dice in one roll, rerolls and explosions included."""
MAX_SIDES = 1000
MAX_TOTAL = 10**9
"""Beyond any dice roll; it keeps arithmetic on long numbers out of the roll log's integers."""
EXAMPLES = N_("`2d6+3`, `4d6kh3` (keep the highest 3) or `d100`")
_GERMAN_DIE = re.compile(r"(?<![a-z])w(?=[0-9%])")
"""A German die letter: `4w6`, `w20` (after `normal` lowered it); the grammar has no `w`."""
KEEP_VALUE = N_(
    "`{written}` keeps only the dice that show {value}. To keep the highest {value}, write "
    "`{meant}`."
)
DROP_VALUE = N_(
    "`{written}` drops only the dice that show {value}. To drop the lowest {value}, write "
    "`{meant}`."
)


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
    hint: str | None = None
    """What the roller probably meant, when the expression looks like a known slip (`k3`)."""


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


_STRIKE, _BOLD, _DIE = "\ue000", "\ue001", "\ue002"
"""Stand-ins for the bot's own markdown while the line is made inert as a whole, and for the
die letter ("d", "W" in German), put in by the language of who reads the line."""


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
        return f"{node.num}{_DIE}{node.size}{self._str_ops(node.operations)} ({faces})"

    def _str_die(self, node: d20.Die) -> str:
        return ", ".join(self._stringify(value) for value in node.values)

    @staticmethod
    def shown(line: str) -> str:
        letter = trc("dice", "d")
        return inert(line).replace(_STRIKE, "~~").replace(_BOLD, "**").replace(_DIE, letter)

    @staticmethod
    def plain(line: str) -> str:
        return line.replace(_STRIKE, "~~").replace(_BOLD, "").replace(_DIE, "d")


def _number(value: int | float) -> str:
    """1.5 stays 1.5; 2.0 reads 2."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_OUTSIDE_BRACKETS = re.compile(r"\[[^\]]*\]|[^\[]+")


def normal(expression: str) -> str:
    """The expression as the grammar reads it: `4D6KH3` and the German `4W6` work too
    (annotations keep their case and their letters)."""
    return _OUTSIDE_BRACKETS.sub(
        lambda m: m[0] if m[0].startswith("[") else _GERMAN_DIE.sub("d", m[0].lower()),
        expression.strip(),
    )


def slip_hint(tree: diceast.Node) -> str | None:
    """A hint for `4d6k3`: d20 reads `k3` as "keep the dice showing 3", which a player coming
    from other dice bots means as "keep the highest 3" (`kh3`); likewise `p1` for `pl1`. Given
    when the number could be a count of the dice rolled (fewer than them)."""
    pending: list[diceast.Node] = [tree]
    while pending:
        node = pending.pop()
        pending.extend(node.children)
        if not isinstance(node, diceast.OperatedDice) or not isinstance(node.value, diceast.Dice):
            continue
        dice = node.value
        for operation in node.operations:
            for selector in operation.sels:
                if operation.op not in ("k", "p") or selector.cat is not None:
                    continue
                if not 1 <= selector.num < dice.num:
                    continue
                keep = operation.op == "k"
                dice_written = f"{dice.num}{trc('dice', 'd')}{dice.size}"
                written = f"{dice_written}{operation.op}{selector.num}"
                meant = f"{dice_written}{'kh' if keep else 'pl'}{selector.num}"
                return tr(
                    KEEP_VALUE if keep else DROP_VALUE,
                    written=written,
                    value=selector.num,
                    meant=meant,
                )
    return None


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

    return FreeRoll(
        normal(expression),
        total,
        _Text.shown(line),
        _Text.plain(line),
        context.rolls,
        slip_hint(tree),
    )
