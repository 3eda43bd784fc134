"""The real bot object against a simulated Discord (SimCord): slash commands, buttons, select
menus, autocomplete, DMs, a restart. Nothing leaves the process.

SimCord sends every interaction with the locale ``en-US``; the ``locales`` fixture wraps its
payload builder so that a test can give a user another locale (Discord sends the user's client
language) and a guild its preferred locale.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from typing import Any

import discord
import pytest
import simcord
from simcord import Env, InteractionResult, MemberActor, ResponseMessage, UserHandle
from sqlalchemy import select

from bot.config import Config
from bot.discord_app import BackgammonBot, create_bot
from bot.i18n import t
from bot.service import Service
from db.models import Game as GameRow
from tests.bot.test_discord_payload import COMMANDS, MANAGERS_ONLY, SNAPSHOT

Actor = MemberActor | UserHandle
ROLL_SCRIPT_LIMIT = 400  # actions in a whole game, far more than a game needs
# SimCord waits for the bot to settle (no task, callback or executor work left), and gives up
# after ``settle_timeout`` seconds, 5 by default: a picture, a hint or a review on a busy 2-core
# machine can take longer. The wait ends as soon as the bot is idle; this is a hang guard only.
SETTLE_TIMEOUT = 600.0
pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT)


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """``{user id: Discord locale}`` for the interactions of the test (default en-US)."""
    table: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kw: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kw)
        payload["locale"] = table.get(kw["user_id"], "en-US")
        if kw.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kw["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return table


def new_bot(service: Service) -> BackgammonBot:
    """A fresh bot on the same database and dice as ``service`` (as after a restart)."""
    made = create_bot(
        Config(shard_count=1),
        service=Service(
            service.factory,
            clock=service.clock,
            new_dice=service.new_dice,
            dice_for=service.dice_for,
        ),
    )
    # Answer directly, however slow the machine: the deferred path has its own test. SimCord's
    # clock stands still while the bot works, so Discord's 3 s would be wall-clock seconds of
    # the machine here: lifted too (tests/bot/test_discord_late.py sets it back).
    made.defer_after = SETTLE_TIMEOUT
    made.response_window = SETTLE_TIMEOUT
    return made


@pytest.fixture
def simcord_bot(service: Service, locales: dict[int, str]) -> BackgammonBot:
    """The bot for SimCord's ``simcord_env`` fixture (which starts it and, at teardown,
    re-raises the errors it handled unless the test read ``env.errors``)."""
    return new_bot(service)


@pytest.fixture
async def env(simcord_env: Env) -> Env:
    await simcord_env.bot.tree.sync()  # what `backgammon-bot sync` does
    return simcord_env


@pytest.fixture
def guild(env: Env) -> Any:
    return env.create_guild("Backgammon club")


@pytest.fixture
def channel(guild: Any) -> Any:
    """A channel where the bot may not open threads: games are played in it (the threads of
    games have their tests in test_discord_together.py)."""
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    return guild.create_text_channel("tables", overwrites={guild.me: no_threads})


def member(env: Env, guild: Any, name: str) -> MemberActor:
    return guild.add_member(env.create_user(name))


# -- reading messages ---------------------------------------------------------------------------


def fresh(env: Env, message: ResponseMessage) -> ResponseMessage:
    """The message as it is now (after edits)."""
    return ResponseMessage(env, env.backend.get_message(message.channel_id, message.id))


def components(message: ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row["components"]]


def labels(message: ResponseMessage) -> list[str]:
    return [c["label"] for c in components(message) if c["type"] == 2 and not c["disabled"]]


def is_ping(message: ResponseMessage) -> bool:
    """The short "your turn" line sent on its own after a turn passed to the other person."""
    return "your turn in game #" in message.content or "à vous de jouer dans la partie" in (
        message.content
    )


def response(result: InteractionResult) -> ResponseMessage:
    """The message an interaction produced: its response, else its last follow-up (not the
    turn notice that may follow it)."""
    followups = [f for f in result.followups if not is_ping(f)]
    if followups:
        return followups[-1]
    assert result.response is not None, result
    return result.response


DEFERRED_MESSAGE, DEFERRED_UPDATE = 5, 6  # interaction callback types


def last_callback(env: Env) -> int:
    """The type of the bot's last interaction callback (4 message, 7 edit, 5 or 6 deferral)."""
    sent = [r for r in env.http_requests if r.path.endswith("/callback")]
    return int(sent[-1].json["type"])


def menu_id(message: ResponseMessage) -> str:
    return next(c["custom_id"] for c in components(message) if c["type"] == 3)


def is_board(message: ResponseMessage) -> bool:
    return [a.filename for a in message.attachments] == ["board.png"]


async def play_out(
    env: Env, actor: Actor, message: ResponseMessage, lang: str = "en"
) -> ResponseMessage:
    """Press buttons (a whole play from the menu when there is one) until the game is over."""
    confirm, rematch = t("button.confirm", lang), t("button.rematch", lang)
    for _ in range(ROLL_SCRIPT_LIMIT):
        message = fresh(env, message)
        if rematch in labels(message):
            return message
        selects = [c for c in components(message) if c["type"] == 3]
        points = [
            c
            for c in components(message)
            if c["type"] == 2 and c["custom_id"].split(":")[3] == "pt"
        ]
        if selects:
            menu = selects[0]
            value = menu["options"][0]["value"]
            result = await actor.select(message, [value], custom_id=menu["custom_id"])
        elif confirm in labels(message):
            result = await actor.click(message, label=confirm)
        elif points:
            result = await actor.click(message, custom_id=points[0]["custom_id"])
        else:
            raise AssertionError(f"nothing to press: {message.content}\n{labels(message)}")
        assert not result.ephemeral, response(result).content
    raise AssertionError("the game did not end")


async def test_sync_sends_the_committed_payload(env: Env) -> None:
    sent = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert json.loads(json.dumps(sent[-1].json)) == json.loads(SNAPSHOT.read_text("utf-8"))
    ann = env.create_user("ann")
    assert "challenge" not in ann.available_commands()  # servers only
    assert {"play", "move", "board", "leaderboard", "settings"} <= set(ann.available_commands())


# -- a game against the computer in a DM ------------------------------------------------------


async def test_a_whole_game_against_the_computer_in_a_dm(env: Env) -> None:
    ann = env.create_user("ann")
    started = await ann.slash("play", level="beginner", cube=False)
    board = response(started)
    assert not started.ephemeral and is_board(board)
    assert "ann sits down against the computer (beginner)" in board.content
    assert "Position ID" in board.content and "Match ID" in board.content
    over = await play_out(env, ann, board)
    assert "🏁" in over.content and is_board(over)
    assert labels(over) == ["Rematch"]
    history = await ann.slash("history")
    assert history.ephemeral and "Computer (beginner)" in response(history).content
    again = await ann.click(over, label="Rematch")  # a new game message, the old one stays
    assert is_board(response(again)) and response(again).id != over.id


async def test_french_from_the_first_command_to_the_game_over(
    env: Env, locales: dict[int, str]
) -> None:
    zoe = env.create_user("zoe")
    locales[zoe.id] = "fr"
    refused = await zoe.slash("undo")
    assert refused.ephemeral
    assert response(refused).content == t(
        "error.no_game_here_dm", "fr"
    )  # a DM: no channel, no /défi
    started = await zoe.slash("play", level="beginner", cube=False)
    board = response(started)
    assert "zoe s’assoit face à l’ordinateur (niveau débutant)" in board.content
    assert "Lancer d’ouverture" in board.content and "Ordinateur" in board.content
    seen = {label for label in labels(board)}
    over = await play_out(env, zoe, board, "fr")
    assert "🏁 **" in over.content and (" gagne " in over.content)
    assert labels(over) == ["Revanche"] and is_board(over)
    seen |= {"Revanche"}
    english = {t(f"button.{k}", "en") for k in ("roll", "confirm", "undo", "rematch", "double")}
    assert not seen & english
    help_ = await zoe.slash("help")
    assert help_.response is not None and help_.ephemeral  # the first of its messages
    assert "/jouer" in help_.response.content


async def test_undo_with_the_button_and_the_command(env: Env, script: deque[int]) -> None:
    ann = env.create_user("ann")
    script.extend([3, 1])  # ann opens with 3-1
    board = response(await ann.slash("play", level="beginner"))
    assert labels(board)[:4] == ["24", "13", "8", "6"] and "Undo" not in labels(board)
    moved = response(await ann.click(board, label="8"))  # 8/5
    assert moved.id == board.id and "Undo" in labels(moved)
    back = response(await ann.click(moved, label="Undo"))
    assert back.id == board.id and "Undo" not in labels(back)
    await ann.click(back, label="8")
    undone = await ann.slash("undo")  # posts the board again, as it was before the move
    assert not undone.ephemeral and is_board(response(undone))
    assert "Undo" not in labels(response(undone))
    # The older message is out of date: its buttons are taken off, its picture kept.
    assert labels(fresh(env, board)) == [] and fresh(env, board).attachments
    nothing = await ann.slash("undo")
    assert nothing.ephemeral and response(nothing).content == t("error.nothing_to_undo", "en")


async def test_a_resign_menu_typed_out_of_turn_leaves_the_board_live(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> None:
    # /resign without a value posts one player's menu: the board's buttons stay (the menu is
    # no board), where a board posted again would have taken them off.
    alice, bob = (member(env, guild, n) for n in ("alice", "bob"))
    challenge = response(await alice.slash(channel, "challenge", opponent=bob))
    script.extend([5, 2])  # alice opens with 5-2
    board = response(await bob.click(challenge, label="Accept"))
    menu = await bob.slash(channel, "resign")
    assert not menu.ephemeral and "Cancel" in labels(response(menu))
    assert "13" in labels(fresh(env, board))  # alice's move buttons, still there
    moved = await alice.click(fresh(env, board), label="13")
    assert not moved.ephemeral and "Undo" in labels(fresh(env, board))
    again = await alice.slash(channel, "board")  # a board posted again: the old one retires
    assert is_board(response(again)) and labels(fresh(env, board)) == []


async def test_a_former_board_that_cannot_be_edited_spoils_nothing(
    env: Env, guild: Any, channel: Any, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Taking the buttons off the former board comes last, and its failure (Discord out of
    # reach) is logged only: the new board, the turn's mention and the game go on.
    alice, bob = (member(env, guild, n) for n in ("alice", "bob"))
    challenge = response(await alice.slash(channel, "challenge", opponent=bob))
    script.extend([5, 2])
    board = response(await bob.click(challenge, label="Accept"))

    async def unreachable(*_: object, **__: object) -> None:
        raise OSError("Discord is out of reach")

    monkeypatch.setattr(discord.PartialMessage, "edit", unreachable)
    moved = await alice.slash(channel, "move", play="13/8 13/11")
    assert not moved.ephemeral and is_board(response(moved))
    assert any(is_ping(m) for m in moved.followups), moved.followups  # bob is told
    assert "13" in labels(fresh(env, board))  # left as it was: nothing else went wrong
    assert not env.errors


async def test_a_board_shown_in_another_channel_goes_stale_there(
    env: Env, script: deque[int], guild: Any, channel: Any
) -> None:
    # /board game:N posts a working board wherever it is typed; once the game moves on
    # elsewhere, a press there is deferred, then refused privately as out of date.
    bot = env.bot
    assert isinstance(bot, BackgammonBot)
    ann = member(env, guild, "ann")
    script.extend([3, 1])
    board = response(await ann.slash(channel, "play", level="beginner"))
    lounge = guild.create_text_channel("lounge")
    there = response(await ann.slash(lounge, "board", game=1))
    assert is_board(there) and "8" in labels(there)
    await ann.click(board, label="8")  # a step in the game's own channel
    bot.defer_after = 0  # defer before calling the service, every time
    stale = await ann.click(fresh(env, there), label="8")
    assert last_callback(env) == DEFERRED_UPDATE
    assert [m.content for m in stale.followups] == [t("error.stale", "en")]
    assert stale.followups[0].ephemeral


async def test_move_with_autocomplete(env: Env, script: deque[int]) -> None:
    ann = env.create_user("ann")
    script.extend([3, 1])
    await ann.slash("play", level="beginner")
    choices = await ann.autocomplete("move", "play", "8/")
    names = [c["name"] for c in choices]
    assert names and len(names) <= 25 and all("8/" in n for n in names)
    assert names[:4] == ["8/4", "8/5 6/5", "8/7 6/3", "8/7 8/5"]  # plays starting so first
    assert "8/5 6/5" in names and all(c["name"] == c["value"] for c in choices)
    assert len(await ann.autocomplete("move", "play", "")) == 16  # every play of 3-1
    moved = await ann.slash("move", play="8/5 6/5")
    assert not moved.ephemeral and "ann played **8/5 6/5**" in response(moved).content
    wrong = await ann.slash("move", play="24/1")
    assert wrong.ephemeral


# -- two people in a channel ------------------------------------------------------------------


async def test_challenge_and_accept_in_a_channel(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> None:
    alice, bob, carol = (member(env, guild, n) for n in ("alice", "bob", "carol"))
    made = await alice.slash(channel, "challenge", opponent=bob, points=3)
    challenge = response(made)
    assert not made.ephemeral and f"<@{bob.id}>" in challenge.content
    assert labels(challenge) == ["Accept", "Decline", "Cancel"]
    sent = [r for r in env.http_requests if r.path.endswith("/callback")][-1]
    mentions = sent.json["data"]["allowed_mentions"]  # only the challenged person is pinged
    assert mentions["parse"] == [] and mentions["users"] == [bob.id]

    intruder = await carol.click(challenge, label="Accept")
    assert intruder.ephemeral
    assert response(intruder).content == t("error.not_challenged", "en")
    assert fresh(env, challenge).content == challenge.content  # nothing changed

    script.extend([5, 2])  # alice opens with 5-2
    accepted = await bob.click(challenge, label="Accept")
    board = response(accepted)
    assert board.id == challenge.id and is_board(board)  # the challenge became the board
    assert "bob accepts the challenge" in board.content and "3-point match" in board.content
    not_yours = await bob.click(board, label="13")
    assert not_yours.ephemeral and response(not_yours).content == t("error.not_your_turn", "en")
    spectator = await carol.slash(channel, "board")
    assert spectator.ephemeral and response(spectator).content == t("error.no_game_here", "en")
    moved = await alice.slash(channel, "move", play="13/8 13/11")
    assert "alice played **13/11 13/8**" in response(moved).content


async def test_cube_double_take_redouble_drop_and_the_leaderboard(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> None:
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    challenge = response(await alice.slash(channel, "challenge", opponent=bob))
    script.extend([5, 2])
    board = response(await bob.click(challenge, label="Accept"))
    board = response(await alice.slash(channel, "move", play="13/8 13/11"))
    assert labels(board) == ["Roll", "Double", "Resign"]
    doubled = response(await bob.click(board, label="Double"))
    assert labels(doubled) == ["Take", "Drop"]
    refused = await bob.click(doubled, label="Take")  # the doubler cannot take
    assert refused.ephemeral
    script.extend([6, 5])
    taken = response(await alice.click(doubled, label="Take"))
    assert "alice takes: the cube is at 2." in taken.content
    assert "bob rolls 6-5" in taken.content  # he cannot redouble: his roll is automatic
    bob_moved = response(await bob.slash(channel, "move", play="24/13"))
    assert labels(bob_moved) == ["Roll", "Double", "Resign"]  # alice owns the cube
    redoubled = response(await alice.click(bob_moved, label="Double"))
    over = response(await bob.click(redoubled, label="Drop"))
    assert "bob drops" in over.content and "🏁 **alice** wins" in over.content
    assert labels(over) == ["Rematch"]

    board_reply = await bob.slash(channel, "leaderboard")
    text = response(board_reply).content
    assert "Leaderboard of this server" in text and "alice" in text and "bob" in text
    assert text.index("alice") < text.index("bob")
    world = await bob.slash(channel, "leaderboard", scope="global")
    assert "Global leaderboard" in response(world).content
    stats = await alice.slash(channel, "stats", user=bob)
    assert "bob" in response(stats).content and not stats.ephemeral


async def test_resign_accepted_ends_the_game(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> None:
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    challenge = response(await alice.slash(channel, "challenge", opponent=bob, rated=False))
    script.extend([5, 2])
    await bob.click(challenge, label="Accept")
    offered = response(await alice.slash(channel, "resign", value=2))
    assert "alice offers to resign a gammon" in offered.content
    assert labels(offered) == ["Accept", "Reject"]
    over = response(await bob.click(offered, label="Accept"))
    assert "🏁 **bob** wins a **gammon**: 2 points." in over.content


async def test_resign_with_the_buttons_against_the_computer(env: Env, script: deque[int]) -> None:
    ann = env.create_user("ann")
    script.extend([3, 1])  # ann opens with 3-1
    board = response(await ann.slash("play", level="beginner"))
    board = response(await ann.select(board, ["8/5 6/5"], custom_id=menu_id(board)))
    assert labels(board) == ["Roll", "Double", "Resign"]  # before her roll, she may resign
    menu = response(await ann.click(board, label="Resign"))
    assert labels(menu) == ["Single game", "Gammon", "Backgammon", "Cancel"]
    over = response(await ann.click(menu, label="Backgammon"))
    assert "🏁" in over.content and labels(over) == ["Rematch"]


# -- restarts, deferrals, errors ------------------------------------------------------------------


async def test_buttons_keep_working_after_restarts(
    env: Env, guild: Any, channel: Any, service: Service, script: deque[int]
) -> None:
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    challenge = response(await alice.slash(channel, "challenge", opponent=bob))
    await env.restart_bot(new_bot(service))
    script.extend([5, 2])
    board = response(await bob.click(challenge, label="Accept"))  # sent before the restart
    assert is_board(board) and "Accept" not in labels(board)
    await env.restart_bot(new_bot(service))
    moved = response(await alice.click(board, label="13"))
    assert moved.id == board.id and "Undo" in labels(moved)
    select = await alice.slash(channel, "board")
    assert is_board(response(select))


async def test_slow_work_is_deferred_first(env: Env, script: deque[int]) -> None:
    bot = env.bot
    assert isinstance(bot, BackgammonBot)
    bot.defer_after = 0  # defer before calling the service, every time
    ann = env.create_user("ann")
    refused = await ann.slash("board")  # deferred publicly, then taken back: a private refusal
    assert last_callback(env) == DEFERRED_MESSAGE and refused.response is None
    assert [m.content for m in refused.followups] == [t("error.no_game_here_dm", "en")]
    assert refused.followups[0].ephemeral
    script.extend([3, 1])
    started = await ann.slash("play", level="beginner")
    assert last_callback(env) == DEFERRED_MESSAGE and is_board(response(started))
    board = response(started)
    await ann.click(board, label="8")
    assert last_callback(env) == DEFERRED_UPDATE and "Undo" in labels(fresh(env, board))
    again = await ann.slash("board")  # the game posted again: the first message retired
    assert last_callback(env) == DEFERRED_MESSAGE and is_board(response(again))
    assert labels(fresh(env, board)) == []
    rules = await ann.slash("rules")
    assert (
        last_callback(env) == DEFERRED_MESSAGE
        and rules.ephemeral
        and "Backgammon rules" in response(rules).content
    )


async def test_unexpected_errors_get_an_apology(
    env: Env, script: deque[int], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    bot = env.bot
    assert isinstance(bot, BackgammonBot)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database is on fire")

    ann = env.create_user("ann")
    script.extend([3, 1])
    board = response(await ann.slash("play", level="beginner"))
    monkeypatch.setattr(bot.service, "run", broken)  # every slash command runs through it
    failed = await ann.slash("board")
    assert failed.ephemeral and response(failed).content == t("discord.apology", "en")
    assert [str(e.__cause__) for e in env.errors] == ["the database is on fire"]
    monkeypatch.setattr(bot.service, "press", broken)
    with caplog.at_level(logging.ERROR, logger="bot.discord_app"):
        pressed = await ann.click(board, label="8")
    assert pressed.ephemeral and response(pressed).content == t("discord.apology", "en")
    assert "the database is on fire" in caplog.text


async def test_a_development_guild_gets_the_commands_on_start(service: Service) -> None:
    dev = 4242 << 22  # a snowflake SimCord accepts as a guild id
    made = create_bot(Config(shard_count=1, dev_guild_id=dev), service=service)
    env = Env(made)
    guild = env.create_guild("dev", id=dev)
    await env.start()  # logs in: setup_hook syncs the development guild, and only it
    try:
        channel = guild.create_text_channel("tests")
        ann = guild.add_member(env.create_user("ann"))
        # /server and /daily are for the server's managers (Manage Server), which ann is not.
        assert set(ann.available_commands(channel)) == set(COMMANDS) - MANAGERS_ONLY
        assert env.create_user("bea").available_commands() == ()  # nothing global
        assert (await ann.slash(channel, "rules")).ephemeral
    finally:
        await env.shutdown()


async def test_a_french_server_sees_its_shared_messages_in_french(env: Env) -> None:
    guild = env.create_guild("Club de trictrac", preferred_locale="fr")
    channel = guild.create_text_channel("tables")
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")  # Discord in English
    made = response(await alice.slash(channel, "challenge", opponent=bob))
    assert "**alice** vous défie" in made.content  # seen by everyone: the server's language
    assert labels(made) == ["Accepter", "Décliner", "Annuler"]
    refused = await alice.slash(channel, "challenge", opponent=alice)  # seen by her alone
    assert refused.ephemeral and response(refused).content == t("error.challenge_self", "en")


# -- analysis, fair dice and the move timer ----------------------------------------------------


@pytest.mark.usefixtures("quick_reviews")  # the commands' files, at any depth
async def test_hint_review_export_and_verify(env: Env, script: deque[int]) -> None:
    ann = env.create_user("ann")
    script.extend([3, 1])
    board = response(await ann.slash("play", level="beginner", points=1))
    hinted = await ann.slash("hint")
    assert hinted.ephemeral and "Best plays for 3-1" in response(hinted).content
    assert [a.filename for a in response(hinted).attachments] == ["hint.png"]
    over = await play_out(env, ann, board)
    game = int(components(over)[0]["custom_id"].split(":")[1])
    reviewed = response(await ann.slash("review"))
    assert f"Review of game #{game}" in reviewed.content
    assert reviewed.attachments[0].filename == f"game-{game}-chances.png"
    exported = await ann.slash("export", game=game)
    files = [a.filename for a in response(exported).attachments]
    assert exported.ephemeral and files == [f"game-{game}.mat", f"game-{game}-ids.txt"]
    verified = response(await ann.slash("verify", game=game))
    # The test scripted the opening dice: the seed does not give them, and /verify says so.
    assert "does NOT match its seed" in verified.content and "die #0 is 3" in verified.content
    dice = response(await ann.slash("dice"))
    assert "Dice of ann" in dice.content and "χ²" in dice.content
    replayed = await ann.slash("replay", game=game)  # public: a game to share
    assert not replayed.ephemeral and "one frame each" in response(replayed).content
    assert [a.filename for a in response(replayed).attachments] == [f"game-{game}-replay.gif"]


async def accepted_with_timers(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> tuple[MemberActor, ResponseMessage, Any]:
    """Alice challenges Bob, who accepts (Alice opens with 5-2): Alice, the board, and the
    move timer's cog, whose sweep a test runs by hand."""
    from bot.discord_app.cogs.timers import Timers

    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    made = response(await alice.slash(channel, "challenge", opponent=bob))
    script.extend([5, 2])
    board = response(await bob.click(made, label="Accept"))
    cog = env.bot.get_cog("Timers")
    assert isinstance(cog, Timers)
    return alice, board, cog


async def test_the_timer_posts_reminders_and_claims(
    env: Env, guild: Any, channel: Any, script: deque[int], service: Service
) -> None:
    alice, _, cog = await accepted_with_timers(env, guild, channel, script)
    clock = env.bot.service.clock
    clock.advance(hours=23, minutes=30)  # type: ignore[attr-defined]
    before = len(env.http_requests)
    await cog.sweep.coro(cog)  # one pass of the background task
    posted = [r for r in env.http_requests[before:] if r.method == "POST" and "/messages" in r.path]
    assert len(posted) == 1 and f"<@{alice.id}>" in posted[0].json["content"]
    clock.advance(hours=1)  # type: ignore[attr-defined]
    before = len(env.http_requests)
    await cog.sweep.coro(cog)
    posted = [r for r in env.http_requests[before:] if r.method == "POST" and "/messages" in r.path]
    assert len(posted) == 1 and "ran out of time" in str(posted[0].json)


async def test_a_claim_the_timer_posts_is_the_board_from_then_on(
    env: Env, guild: Any, channel: Any, script: deque[int], service: Service
) -> None:
    # The timer's claim is the board with the claim's buttons, posted on the bot's own: as a
    # command's board, it retires the board before it (one live board a game) and the game's
    # links point to it.
    _, board, cog = await accepted_with_timers(env, guild, channel, script)
    assert "13" in labels(fresh(env, board))
    env.bot.service.clock.advance(hours=24, minutes=30)  # type: ignore[attr-defined]
    await cog.sweep.coro(cog)
    claims = [
        m
        for m in env.backend.messages.get(channel.id, {}).values()
        if "ran out of time" in m.content
    ]
    assert len(claims) == 1
    assert labels(fresh(env, board)) == []  # retired: its buttons are the claim's now
    with service.deps.unit() as s:
        row = s.scalars(select(GameRow)).one()  # the one game
        assert row.board_message_id == claims[0].id


async def test_the_next_player_is_told_it_is_his_turn(
    env: Env, guild: Any, channel: Any, script: deque[int]
) -> None:
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    made = response(await alice.slash(channel, "challenge", opponent=bob))
    script.extend([5, 2])
    accepted = await bob.click(made, label="Accept")  # alice opens: she is told
    pings = [f for f in accepted.followups if is_ping(f)]
    assert len(pings) == 1 and f"<@{alice.id}>" in pings[0].content
    moved = await alice.slash(channel, "move", play="13/8 13/11")
    pings = [f for f in moved.followups if is_ping(f)]
    assert len(pings) == 1 and f"<@{bob.id}>" in pings[0].content
    sent = [r for r in env.http_requests if r.method == "POST" and "/webhooks/" in r.path][-1]
    assert sent.json["allowed_mentions"]["users"] == [bob.id]
    board = response(moved)
    clicked = await bob.click(board, label="Resign")  # a menu: still his turn, nobody told
    assert not [f for f in clicked.followups if is_ping(f)]


async def test_every_play_made_by_itself_is_a_picture(env: Env, script: deque[int]) -> None:
    # Issue 15.2: a forced move played for ann and the computer's reply arrive in one message,
    # each drawn: the board (the computer's play, captioned) and the forced move before it.
    from engine import Position
    from tests.test_position import board as cells

    ann = env.create_user("ann")
    await ann.slash("settings", auto_roll=True, auto_forced=True)
    script.extend([6, 5, 3, 1, 2, 1])  # 6-5 can only be played 20/9; the computer's 3-1
    pid = Position.from_board(cells(p20=1, p3=1, o1=-15)).position_id()
    started = response(await ann.slash("play", level="beginner", position=pid, cube=False))
    assert [a.filename for a in started.attachments] == ["board.png", "game-1-play-1.png"]
    assert "20/9" in started.content and "Computer (beginner) rolled 3-1" in started.content


# -- a tournament (issue 17) ----------------------------------------------------------------------


async def test_a_tournament_created_joined_started_played_and_its_standings(
    env: Env, guild: Any, channel: Any
) -> None:
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    refused = await ann.slash(channel, "tournament", action="create", name="Friday")
    assert refused.ephemeral  # no Manage Server
    made = await olga.slash(
        channel, "tournament", action="create", name="Friday", format="knockout"
    )
    announcement = response(made)
    assert not made.ephemeral and "Friday" in announcement.content
    assert labels(announcement) == ["Join", "Leave", "Start"]
    for player in (ann, bob):
        joined = await player.click(announcement, label="Join")
        assert not joined.ephemeral
    assert "ann, bob" in fresh(env, announcement).content  # the list, updated in place
    early = await ann.click(announcement, label="Start")
    assert early.ephemeral  # only the organizer starts
    started = await olga.click(announcement, label="Start")
    assert not started.ephemeral
    boards = [f for f in started.followups if is_board(f)]
    assert len(boards) == 1 and f"<@{ann.id}>" in boards[0].content
    # The match: whoever is to play resigns, the other accepts; the result is reported.
    mover, other = (ann, bob) if f"<@{ann.id}>" in boards[0].content.split("\n")[0] else (bob, ann)
    offer = await mover.slash(channel, "resign", value=1)
    if offer.ephemeral:  # not his turn: the other one resigns
        mover, other = other, mover
        offer = await mover.slash(channel, "resign", value=1)
    assert not offer.ephemeral
    over = await other.click(response(offer), label="Accept")
    assert not over.ephemeral
    champion = [f for f in over.followups if "champion" in f.content]
    assert champion and [a.filename for a in champion[0].attachments] == ["standings.png"]
    standings = await ann.slash(channel, "tournament", action="standings", tournament=1)
    assert not standings.ephemeral
    assert [a.filename for a in response(standings).attachments] == ["standings.png"]
    history = await bob.slash(channel, "tournament", action="list")
    assert "Friday" in response(history).content and "🏆" in response(history).content


async def test_a_whole_hypergammon_game_and_its_rematch(env: Env) -> None:
    ann = env.create_user("ann")
    started = await ann.slash("play", level="expert", cube=False, variant="hypergammon")
    board = response(started)
    assert not started.ephemeral and is_board(board)
    assert "money game · hypergammon" in board.content
    over = await play_out(env, ann, board)
    assert "🏁" in over.content and labels(over) == ["Rematch"]
    again = response(await ann.click(over, label="Rematch"))
    assert is_board(again) and "money game · hypergammon" in again.content


@pytest.mark.parametrize("locale", ["en-US", "fr"])
async def test_the_whole_help_reaches_discord_in_private_messages(
    env: Env, locales: dict[int, str], locale: str
) -> None:
    """The help is longer than one Discord message (2,000 characters): it was cut with "…"
    before the last commands and how a turn goes; now the rest follows, privately too."""
    ann = env.create_user("ann")
    locales[ann.id] = locale
    lang = "fr" if locale == "fr" else "en"
    shown = await ann.slash("help")
    assert shown.response is not None
    messages = [shown.response, *shown.followups]
    assert len(messages) >= 2 and all(m.ephemeral for m in messages)
    assert all(len(m.content) <= 2000 and not m.content.endswith("…") for m in messages)
    text = "\n".join(m.content for m in messages)
    assert "/vote" in text if lang == "en" else "/voter" in text
    assert text.endswith(t("help.turn", lang))
