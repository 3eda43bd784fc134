"""``backgammon-bot``: the console entry point.

backgammon-bot                 the Discord bot when DISCORD_TOKEN is set, else the terminal game
backgammon-bot run             the Discord bot (needs DISCORD_TOKEN)
backgammon-bot play [--db URL] [--json] [--lang fr|en] [--images DIR]
backgammon-bot sync [--guild ID]   register the slash commands with Discord
backgammon-bot migrate [--db URL]  upgrade the database to the latest schema, then exit
backgammon-bot check [--db URL]    configuration, database reachable, migrations current, the
                               computer engine in use (exit 1 if anything is wrong)
backgammon-bot verify --seed HEX --commitment HEX [--dice 5,4,1,4,...] [--count N]
                               check a game's dice offline, without the bot or its database
"""

from __future__ import annotations

import argparse
import locale
import logging
import os
import sys
from pathlib import Path

from bot.config import Config, load_dotenv
from bot.i18n import LANGUAGES, language

log = logging.getLogger("bot")


def _default_lang() -> str:
    """The catalog language of the system locale (``fr_FR.UTF-8`` is French)."""
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(key)
        if value:
            return language(value.split(".")[0])
    try:
        value = locale.getlocale()[0] or ""
    except ValueError:
        value = ""
    return language(value)


def build_service(config: Config, db_url: str | None = None):  # type: ignore[no-untyped-def]
    """The service on the configured database, upgraded to the latest schema first (built
    by the composition root, as the Discord bot's)."""
    from bot.compose import open_service

    return open_service(config, db_url)[0]


def _play(args: argparse.Namespace, config: Config) -> int:
    from bot import heavy
    from bot.prompt import Interrupts, Terminated, leave_by, on_sigterm, prompt_lines
    from bot.terminal import Terminal

    service = build_service(config, args.db)
    web = _web(service, config)
    terminal = Terminal(
        service,
        json_mode=args.json,
        lang=args.lang or _default_lang(),
        images=Path(args.images) if args.images else config.images_dir,
        user=args.user,
        lang_given=args.lang is not None,  # typed: it wins over his setting for this session
        web=None if web is None else web.server.links,
    )
    interactive = not args.json and sys.stdin.isatty()
    interrupts = Interrupts()
    if interactive:
        interrupts.install()
    on_sigterm()
    try:
        terminal.run(prompt_lines(interrupts) if interactive else sys.stdin)
    except KeyboardInterrupt as stop:
        # Ctrl-C (and SIGTERM) leaves as Ctrl-D does: no traceback (the game is saved after
        # every action); SIGTERM says why.
        interrupts.leave()
        print()
        if isinstance(stop, Terminated):
            terminal.terminated()
    finally:
        if web is not None:
            web.stop()
        heavy.POOLS.close()  # no thread left waiting for work: the exit waits for none
        leave_by()  # nor forever for a thread an interrupt left stuck
    return 0


def _web(service, config: Config):  # type: ignore[no-untyped-def]
    """The web board on a loop of its own when WEB_PORT is set (the terminal has no loop)."""
    from bot.web import Background, web_links
    from bot.web.server import WebServer

    links = web_links(config)
    if links is None or config.web_port is None:
        return None
    web = Background(WebServer(service, links, config.web_host, config.web_port))
    web.start()
    return web


def _run(config: Config) -> int:
    if not config.token:
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env "
            "(see the README), or play in the terminal with `backgammon-bot play`.",
            file=sys.stderr,
        )
        return 2
    from bot.discord_app import run_bot

    return run_bot(config)


def _sync(args: argparse.Namespace, config: Config) -> int:
    if not config.token:
        print("DISCORD_TOKEN is not set: command sync talks to Discord.", file=sys.stderr)
        return 2
    from bot.discord_app import sync_commands

    return sync_commands(config, guild_id=args.guild)


def _migrate(args: argparse.Namespace, config: Config) -> int:
    from db.connection import make_engine
    from db.migrate import current_revision, upgrade

    engine = make_engine(args.db or config.database_url)
    upgrade(engine)
    print(f"database at revision {current_revision(engine)}")
    return 0


def _check(args: argparse.Namespace, config: Config) -> int:
    from bot.ops.checks import run_checks

    return run_checks(config, args.db)


def _verify(args: argparse.Namespace) -> int:
    from bot.dice import commitment, derive_die, verify_rolls

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        seed = b""
    if len(seed) != 32:
        print("--seed is 64 hexadecimal characters (32 bytes)", file=sys.stderr)
        return 2
    try:
        dice = [int(x) for x in (args.dice or "").replace(" ", "").split(",") if x]
    except ValueError:
        print("--dice is a comma-separated list of dice, like 5,4,1,4", file=sys.stderr)
        return 2
    count = args.count or len(dice) or 20
    print(f"commitment of this seed: {commitment(seed)}")
    print("dice from this seed:", " ".join(str(derive_die(seed, n)) for n in range(count)))
    problems = verify_rolls(seed, args.commitment, dice)
    for problem in problems:
        print("MISMATCH:", problem)
    if not problems:
        print(f"OK: the seed matches the commitment and the {len(dice)} dice given")
    return 1 if problems else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="backgammon-bot", description="Backgammon on Discord.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    play = sub.add_parser("play", help="play in the terminal")
    play.add_argument("--db", help="database URL (default: DATABASE_URL or a local SQLite file)")
    play.add_argument("--json", action="store_true", help="one JSON object per reply")
    play.add_argument("--lang", choices=LANGUAGES, help="language (default: system locale)")
    play.add_argument("--images", help="folder for the board pictures (default: boards)")
    play.add_argument(
        "--user",
        default=os.environ.get("USER") or os.environ.get("USERNAME"),
        help="your name at the table (default: your login, else Player; switch with /as NAME)",
    )
    sync = sub.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, help="a guild id for an instant, guild-only sync")
    migrate = sub.add_parser("migrate", help="upgrade the database schema")
    migrate.add_argument("--db", help="database URL")
    check = sub.add_parser("check", help="check the configuration, database and computer engine")
    check.add_argument("--db", help="database URL")
    verify = sub.add_parser("verify", help="check a game's dice offline from its revealed seed")
    verify.add_argument("--seed", required=True, help="the seed revealed at the end (hex)")
    verify.add_argument("--commitment", required=True, help="the commitment shown at the start")
    verify.add_argument("--dice", help="the game's dice in order, e.g. 5,4,1,4 (opening first)")
    verify.add_argument("--count", type=int, help="how many dice to print (default: as given)")
    return parser


def main(argv: list[str] | None = None) -> int:
    load_dotenv()
    config = Config.from_env()
    logging.basicConfig(
        level=getattr(logging, config.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "verify":
        return _verify(args)
    if args.command == "play":
        # A game on a keyboard or for a script, not a server: no migration or start-up chatter
        # on stderr (alembic's INFO lines), in text and JSON alike; warnings still show.
        logging.getLogger().setLevel(logging.WARNING)
        return _play(args, config)
    if args.command == "run":
        return _run(config)
    if args.command == "sync":
        return _sync(args, config)
    if args.command == "migrate":
        return _migrate(args, config)
    if args.command == "check":
        return _check(args, config)
    if config.token:
        return _run(config)
    if sys.stdin.isatty() and sys.stdout.isatty():
        logging.getLogger().setLevel(logging.WARNING)
        return _play(parser.parse_args(["play"]), config)
    print(
        "backgammon-bot: no DISCORD_TOKEN is set and this is not a terminal. Set DISCORD_TOKEN "
        "to run the Discord bot, or run `backgammon-bot play` (add --json for scripts).",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
