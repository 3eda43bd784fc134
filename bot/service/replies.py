"""What the service answers: a description of a message, for any adapter to present.

The Discord adapter turns a :class:`Reply` into a message with an image attachment, buttons and a
select menu; the terminal adapter prints the text, writes the image to a file and lists the
button labels. Nothing here knows Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

__all__ = [
    "PROGRESS",
    "Attachment",
    "Button",
    "Choice",
    "Component",
    "Poll",
    "Post",
    "Reply",
    "Select",
    "Style",
    "ThreadPlan",
    "TournamentEvent",
    "report_progress",
]

log = logging.getLogger(__name__)

Style = Literal["primary", "secondary", "success", "danger"]

PROGRESS: ContextVar[Callable[[str], None] | None] = ContextVar("progress", default=None)
"""Where a long use case (a rollout) tells how far it has got, set by the adapter for the
action it runs: a line to show *in place of* the answer to come, each one replacing the last,
until the reply replaces them all (Discord: the deferred "thinking" message edited; the
terminal: the line rewritten). Called from the worker thread; it must not block. None (the
default): nobody is shown anything until the reply."""


def report_progress(text: str) -> None:
    """Show ``text`` (already in the reader's language) as the action's progress, where the
    adapter can (:data:`PROGRESS`); never raises."""
    sink = PROGRESS.get()
    if sink is None:
        return
    try:
        sink(text)
    except Exception:
        log.exception("showing progress failed")


@dataclass(frozen=True)
class Button:
    """A button: ``custom_id`` is what a press sends back to :meth:`Service.press`."""

    custom_id: str
    label: str
    style: Style = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class Choice:
    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Select:
    """A select menu; the chosen option's value is appended to ``custom_id`` on a press."""

    custom_id: str
    placeholder: str
    choices: tuple[Choice, ...]


Component = Button | Select


@dataclass(frozen=True)
class Attachment:
    """A file sent with the message besides the main picture (more pictures, a .mat file)."""

    name: str
    data: bytes


@dataclass(frozen=True)
class ThreadPlan:
    """Play this game in a thread of its own: open a thread named ``name`` from the message the
    action came from, add ``members``, post the reply there and leave ``intro`` (one line) in
    the channel; then tell the service where the game went (``Service.game_moved``). Where no
    thread can be opened, the reply is shown as if there were no plan."""

    game_id: int
    name: str
    members: tuple[int, ...]
    intro: str


@dataclass(frozen=True)
class TournamentEvent:
    """A tournament's Discord scheduled event, for the adapter to carry out where the bot may
    manage events: ``publish`` an external event from ``start`` to ``end`` at ``location``
    (then tell the service its id: ``Service.tournament_event``), or mark the published event
    ``event_id`` as started, completed or cancelled with its tournament. Nothing else depends
    on it: without the permission, or when Discord refuses, the tournament goes on."""

    tournament_id: int
    action: Literal["publish", "start", "complete", "cancel"]
    event_id: int | None = None
    name: str = ""
    description: str = ""
    location: str = ""
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class Poll:
    """A vote of a consultation game (``/consult``), shown with the message: Discord posts it as
    a native poll (at most 10 answers of 55 characters, its length in whole hours: the service
    closes it earlier, and the adapter then ends the poll), then tells the service the poll's
    message (``Service.consult_posted``); the terminal lists the answers, numbered from 1.

    :param closes_at: when the service closes the vote.
    :param seconds: how long it is open.
    """

    question: str
    answers: tuple[str, ...]
    seconds: int
    consultation_id: int
    decision: int
    closes_at: datetime


@dataclass(frozen=True)
class Post:
    """A message for another channel than the one of the action (a game's result in the
    channel its thread was opened from)."""

    channel_id: int
    text: str


@dataclass
class Reply:
    """One message to show.

    :param text: the message text, already in the reader's language.
    :param image: a PNG to attach (the board, a chart), or None.
    :param rows: up to five rows of components; a select menu fills a row by itself.
    :param ephemeral: seen only by the person who acted (refusals, private information).
    :param edit: replace the message the action came from instead of posting a new one.
    :param position_id: the GNU Backgammon Position ID of the board shown, if any.
    :param match_id: its Match ID.
    :param mentions: user ids the message may ping (the player whose turn it is).
    :param attachments: further files (at most 9 with the picture: Discord takes 10).
    :param followups: further messages to post in the channel after this one (a tournament's
        next matches and standings), each a reply of its own.
    :param ping: a short line for the player whose turn it now is, sent as a message of its
        own (the game message is usually edited, and an edit notifies nobody).
    :param thread: play the game in a thread of its own, where the adapter can open one.
    :param posts: messages for other channels, sent after the reply.
    :param channel_id: for a follow-up or a sweep's message: the channel it belongs in, when it
        may differ from the channel of the action (a tournament's next boards and standings go
        to the tournament's channel even when its last match ended in a thread).
    :param event: a tournament's Discord scheduled event to publish or to move on.
    :param board_text: the board drawn, as monospace text from the same view as the picture
        (the die chosen, the dice left), for the terminal; None when the reply has no board.
    :param events: a game message's lines of what happened (the opponent's roll and play, a
        take, a forced move), each also in :attr:`text`: the web board shows them apart.
    :param poll: a consultation's vote to show with the message (see :class:`Poll`).
    :param ends_poll: the message id of a consultation's poll the service has closed: the
        adapter ends it (Discord's poll would otherwise stay open for its whole hour).
    :param menu: a game message with one player's menu open (``/resign`` without a value):
        not the game's board for everyone, so posting it leaves the board message (and its
        live buttons) as it is.
    :param later: draws the pictures of a reply made inside a write transaction, once the
        action has committed (:meth:`draw_later`), so that the database's write lock is not
        held while a picture is drawn (a tournament's standings and next boards, posted from
        the end of the game, by its subscriber).
    """

    text: str
    image: bytes | None = None
    image_name: str = "board.png"
    rows: list[list[Component]] = field(default_factory=list)
    ephemeral: bool = False
    edit: bool = False
    position_id: str | None = None
    match_id: str | None = None
    mentions: tuple[int, ...] = ()
    game_id: int | None = None
    attachments: list[Attachment] = field(default_factory=list)
    ping: str | None = None
    followups: list[Reply] = field(default_factory=list)
    thread: ThreadPlan | None = None
    posts: list[Post] = field(default_factory=list)
    channel_id: int | None = None
    event: TournamentEvent | None = None
    board_text: str | None = None
    events: tuple[str, ...] = ()
    poll: Poll | None = None
    ends_poll: int | None = None
    menu: bool = False
    later: Callable[[Reply], None] | None = field(default=None, repr=False, compare=False)

    def draw_later(self) -> None:
        """Draw the pictures put off until the action committed (:attr:`later`), and those of
        the follow-ups."""
        if self.later is not None:
            later, self.later = self.later, None
            try:
                later(self)
            except Exception:
                # The action has committed: a picture that cannot be drawn must not cost its
                # messages (a tournament's next boards, its standings); they go without it.
                log.exception("drawing a picture after the action failed; sent without it")
        for followup in self.followups:
            followup.draw_later()

    @property
    def buttons(self) -> list[Button]:
        """Every button, row by row (what the terminal adapter lists)."""
        return [c for row in self.rows for c in row if isinstance(c, Button)]

    @property
    def selects(self) -> list[Select]:
        return [c for row in self.rows for c in row if isinstance(c, Select)]
