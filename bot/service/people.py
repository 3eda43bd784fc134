"""Who acts and where: the service's view of Discord users, channels and preferences."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.prefs import DEFAULT_THEME, Prefs

__all__ = ["DEFAULT_THEME", "Actor", "Prefs", "Where"]


@dataclass(frozen=True)
class Actor:
    """The person behind an action. ``locale`` is Discord's ``interaction.locale`` (or the
    terminal's language); ``is_bot`` marks bot accounts, which cannot be challenged;
    ``organizer``: the adapter found he may organize tournaments here (Manage Server or the
    configured role; the terminal's local player always may); ``session_lang``: a language
    asked for this session only (the terminal's ``--lang``), over the person's setting."""

    id: int
    name: str
    locale: str | None = None
    is_bot: bool = False
    organizer: bool = False
    session_lang: str | None = None

    def lang(self, prefs: Prefs) -> str:
        """The language to answer him in: the session's, else his setting, else the locale."""
        return self.session_lang or prefs.language(self.locale)


@dataclass(frozen=True)
class Where:
    """Where an action happens: a guild channel, or a DM (``guild_id`` None).

    :param threads: the adapter can open a thread from a message here (a server's text
        channel where the bot may create public threads; never a thread, a DM or a user
        install).
    :param manager: the person may change the server's settings (Manage Server).
    :param focus: the game whose board the person was shown last here (the terminal's latest
        board, see ``/board game:N``): the commands on "your game" (``/move``, ``/undo``,
        ``/resign``, ``/hint``...) act on it while he plays it and it goes on; None (Discord):
        his game in this channel.
    :param web: the action comes from the game's web page (its refusals speak of the page).
    """

    channel_id: int | None = None
    guild_id: int | None = None
    guild_locale: str | None = None
    threads: bool = False
    manager: bool = False
    focus: int | None = None
    web: bool = False

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None
