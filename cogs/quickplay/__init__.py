"""Quick play, one feature in one folder (as Red keeps a cog): saved rolls and the action panel.

- cog.py: the QuickPlay cog, /save, /r, /panel, and the Save button's form;
- panel.py: the panel's buttons and selects (weapons, targets, saved rolls, Sheet, Defence
  odds, Panel) and the checks every press makes; the turn ping shows them too (cogs/fights.py
  adds its End turn);
- defence_odds.py: what the Defence odds button answers.

Other cogs import from panel.py (the sheet's Panel button, /attack's target menu, the turn
ping); nothing here imports those cogs back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.quickplay.cog import QuickPlay

if TYPE_CHECKING:
    from bot import WireBot


async def setup(bot: WireBot) -> None:
    await bot.add_cog(QuickPlay(bot))
