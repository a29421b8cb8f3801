"""The one error the rules core raises for bad input."""


class RulesError(ValueError):
    """An input the rules cannot take (a die of 21, both a die and take 10, a value out of range).

    The message is one sentence naming the problem and the fix, fit for a CLI's stderr or an
    ephemeral Discord reply as it is.
    """
