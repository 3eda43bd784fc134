"""Buttons and select menus that survive restarts.

Every component the service describes carries its state in its ``custom_id`` (the game, the
version of its state, the action; or the challenge and the answer). Discord sends that id back
on a press; discord.py matches it against the templates of the :class:`~discord.ui.DynamicItem`
classes registered in ``setup_hook`` and rebuilds the item from the message, whatever process
sent it and however long ago; :meth:`~bot.discord_app.client.BackgammonBot.on_press` hands the
press to the service, which decides: a stale or foreign press is refused.

One class per kind of id, its template the kind's (:mod:`bot.service.customid`, which alone
writes and reads ids): discord.py keys dynamic items by their compiled template, so a button
class and a select class sharing ``GameAction.TEMPLATE`` would replace each other.
``GameComponent`` wraps either (the buttons and the select menu of whole plays of a game
message).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.service.customid import (
    ChallengeAction,
    ComponentId,
    GameAction,
    LadderAction,
    PageAction,
    PuzzleAction,
    TournamentAction,
    kind_of,
)
from bot.service.replies import Button, Component, Reply, Select
from bot.web.links import Links

if TYPE_CHECKING:
    from re import Match

__all__ = [
    "WEB",
    "ChallengeComponent",
    "GameComponent",
    "LadderComponent",
    "PageComponent",
    "PuzzleComponent",
    "TournamentComponent",
    "build_view",
]

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_ROWS = 5
WEB: dict[str, Links] = {}  # "links": the web board's, while it runs (bot.web.serving_web)
MAX_PER_ROW = 5
MAX_OPTIONS = 25

Wrapped = discord.ui.Item[Any]


async def _press(interaction: discord.Interaction[Any], custom_id: str) -> None:
    # The client (a BackgammonBot) runs the press: this module stays below the replies.
    await interaction.client.on_press(interaction, custom_id)


def _dynamic(name: str, template: str, doc: str) -> type[discord.ui.DynamicItem[Wrapped]]:
    """A dynamic item class for the ids matching ``template``: rebuilt from the message as it
    is, its press handed to the client. They differ only by their template."""

    class Pressed(discord.ui.DynamicItem[Wrapped], template=template):
        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: Wrapped, match: Match[str], /
        ) -> Pressed:
            return cls(item)

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await _press(interaction, self.custom_id)

    Pressed.__name__ = Pressed.__qualname__ = name
    Pressed.__doc__ = doc
    return Pressed


GameComponent = _dynamic(
    "GameComponent",
    GameAction.TEMPLATE,
    "A button or the select menu of a game message (:class:`~bot.service.customid.GameAction`).",
)
ChallengeComponent = _dynamic(
    "ChallengeComponent",
    ChallengeAction.TEMPLATE,
    "Accept / Decline / Cancel on a challenge (:class:`~bot.service.customid.ChallengeAction`).",
)
PuzzleComponent = _dynamic(
    "PuzzleComponent",
    PuzzleAction.TEMPLATE,
    "An answer to a puzzle or a position of the day (:class:`~bot.service.customid.PuzzleAction`).",
)
TournamentComponent = _dynamic(
    "TournamentComponent",
    TournamentAction.TEMPLATE,
    "Join / Leave / Start / Standings on a tournament "
    "(:class:`~bot.service.customid.TournamentAction`).",
)
LadderComponent = _dynamic(
    "LadderComponent",
    LadderAction.TEMPLATE,
    "Join / Leave / Show on a ladder (:class:`~bot.service.customid.LadderAction`).",
)
PageComponent = _dynamic(
    "PageComponent",
    PageAction.TEMPLATE,
    "Previous / Next under ``/games`` (:class:`~bot.service.customid.PageAction`).",
)
# The class that carries each kind of id (discord.py finds it again by its template).
_CARRIERS: dict[type[ComponentId], type[discord.ui.DynamicItem[Wrapped]]] = {
    GameAction: GameComponent,
    ChallengeAction: ChallengeComponent,
    TournamentAction: TournamentComponent,
    LadderAction: LadderComponent,
    PageAction: PageComponent,
    PuzzleAction: PuzzleComponent,
}


def _item(component: Component, row: int) -> discord.ui.Item[Any]:
    if isinstance(component, Select):
        inner: Wrapped = discord.ui.Select(
            custom_id=component.custom_id,
            placeholder=component.placeholder[:150],
            options=[
                discord.SelectOption(
                    label=c.label[:100],
                    value=c.value[:100],
                    description=c.description[:100] if c.description else None,
                )
                for c in component.choices[:MAX_OPTIONS]
            ],
            row=row,
        )
    else:
        button: Button = component
        inner = discord.ui.Button(
            custom_id=button.custom_id,
            label=button.label[:80],
            style=STYLES.get(button.style, discord.ButtonStyle.secondary),
            disabled=button.disabled,
            row=row,
        )
    kind = kind_of(component.custom_id)
    return _CARRIERS[kind](inner) if kind is not None else GameComponent(inner)


def build_view(reply: Reply) -> discord.ui.View | None:
    """The components of ``reply`` as a persistent view (no timeout), or None."""
    link = _web_link(reply)
    if not reply.rows and link is None:
        return None
    view = discord.ui.View(timeout=None)
    for r, row in enumerate(reply.rows[:MAX_ROWS]):
        for component in row[:MAX_PER_ROW]:
            view.add_item(_item(component, r))
    if link is not None:
        view.add_item(link)
    return view


def _web_link(reply: Reply) -> discord.ui.Button[Any] | None:
    """A board's link button to its web page (the page anyone may watch), when the web board
    is on and a row has room for it."""
    links = WEB.get("links")
    if links is None or reply.game_id is None or not reply.position_id or reply.ephemeral:
        return None
    rows = reply.rows[:MAX_ROWS]
    row = next((i for i, r in enumerate(rows) if len(r) < MAX_PER_ROW and _buttons_only(r)), None)
    if row is None and len(rows) >= MAX_ROWS:
        return None
    row = len(rows) if row is None else row
    url = links.game_url(reply.game_id)
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, emoji="🌐", row=row)


def _buttons_only(row: list[Component]) -> bool:
    return all(isinstance(c, Button) for c in row)
