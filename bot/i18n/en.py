"""English messages. Every key here exists in fr.py too (a test checks it)."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # -- the game message -----------------------------------------------------------------------
    "game.headline": "**{p0}** ⚪ vs **{p1}** ⚫ · {kind}{score}{rated}{crawford}",
    "game.kind_match": "{points}-point match",
    "game.kind_money": "money game",
    "game.score": " · score {a}–{b}",
    "game.rated": " · rated",
    "game.crawford": " · Crawford game",
    "game.ids": "-# Position ID `{position_id}` · Match ID `{match_id}`",
    "game.your_turn": "{name}, your turn.",
    "game.computer_thinking": "The computer is thinking…",
    "game.won_single": "🏁 **{name}** wins a single game: {points} point(s).",
    "game.won_gammon": "🏁 **{name}** wins a **gammon**: {points} point(s).",
    "game.won_backgammon": "🏁 **{name}** wins a **backgammon**: {points} point(s).",
    "game.match_over": "🏆 **{name}** wins the match {a}–{b}.",
    "computer.name": "Computer ({level})",
    # -- prompts --------------------------------------------------------------------------------
    "prompt.roll": "**{name}**, roll the dice.",
    "prompt.roll_or_double": "**{name}**, roll the dice or double.",
    "prompt.take_or_drop": "**{name}**, take the cube at {value} or drop?",
    "prompt.accept_resignation": "**{name}**, your opponent offers to resign a {offer} "
    "({points} point(s)): accept or reject?",
    "prompt.confirm": "**{name}**, confirm your move (or undo).",
    "prompt.forced_die": "**{name}** rolled {d1}-{d2}: only one die can be played, the {die}. "
    "Pick a highlighted point.",
    "prompt.pick_die_point": "**{name}** rolled {d1}-{d2}: pick a highlighted point to move with "
    "the {die}, or choose the other die.",
    "prompt.pick_point": "**{name}** rolled {d1}-{d2}: pick a highlighted point to move with the "
    "{die}.",
    "prompt.resign_menu": "**{name}**, what do you offer to resign?",
    # -- what happened --------------------------------------------------------------------------
    "note.new_computer_game": "{name} sits down against the computer ({level}).",
    "note.challenge_accepted": "{name} accepts the challenge.",
    "note.opening": "Opening roll: {p0} {d0}, {p1} {d1}. **{name}** plays first.",
    "note.opening_tie": "Opening roll: both rolled {die}, rolling again.",
    "note.rolled": "{name} rolls {d1}-{d2}.",
    "note.played": "{name} rolled {d1}-{d2} and played **{play}**.",
    "note.played_you": "{name} played **{play}**.",
    "note.cannot_move": "{name} rolled {d1}-{d2} and cannot move.",
    "note.forced": "{name}'s move is forced: **{play}** was played automatically.",
    "note.doubles": "{name} doubles to {value}.",
    "note.takes": "{name} takes: the cube is at {value}.",
    "note.drops": "{name} drops.",
    "note.resigns": "{name} offers to resign a {offer}.",
    "note.accepts_resignation": "{name} accepts the resignation.",
    "note.rejects_resignation": "{name} rejects the resignation: play on.",
    "note.next_game": "Game {number} begins (score {a}–{b}).",
    "resign.single": "single game",
    "resign.gammon": "gammon",
    "resign.backgammon": "backgammon",
    "dice.commitment": "-# Dice commitment (SHA-256 of this game's secret seed): `{commitment}`",
    "dice.revealed": "-# Dice seed, to check every roll: `{seed}`",
    "verify.not_finished": "Game #{id} is not finished: its dice seed stays secret until the end.",
    "verify.failed": "⚠️ Game #{id} does NOT match its seed:\n{problems}",
    "verify.ok": "✅ All {count} dice of game #{id} match its seed.\nSeed `{seed}`\nCommitment (SHA-256 of the seed, published at the start) `{commitment}`",
    "dice.title_player": "🎲 **Dice of {name}**",
    "dice.title_server": "🎲 **Dice in this server**",
    "dice.none": "No roll recorded yet.",
    "dice.rolls": "{rolls} rolls; each face is expected {expected} times:",
    "dice.doubles": "Doubles: {doubles} ({rate} %, fair dice: 16.7 %)",
    "dice.faces_test": "Faces: χ² = {chi} (5 degrees of freedom), p = {p}",
    "dice.rolls_test": "The 21 kinds of roll: χ² = {chi} (20 degrees of freedom), p = {p}",
    "dice.verdict_ok": "Nothing unusual: fair dice give numbers like these.",
    "dice.verdict_odd": "Unusual (p ≤ 0.001), though with many players someone will see this by chance now and then.",
    # -- levels ---------------------------------------------------------------------------------
    "level.beginner": "beginner",
    "level.casual": "casual",
    "level.intermediate": "intermediate",
    "level.advanced": "advanced",
    "level.expert": "expert",
    "level.world class": "world class",
    # -- buttons and menus ------------------------------------------------------------------------
    "button.roll": "Roll",
    "button.double": "Double",
    "button.resign": "Resign",
    "button.take": "Take",
    "button.drop": "Drop",
    "button.accept": "Accept",
    "button.reject": "Reject",
    "button.decline": "Decline",
    "button.cancel": "Cancel",
    "button.undo": "Undo",
    "button.confirm": "Confirm",
    "button.rematch": "Rematch",
    "button.die": "Die {die}",
    "button.bar": "Bar",
    "button.resign_single": "Single game",
    "button.resign_gammon": "Gammon",
    "button.resign_backgammon": "Backgammon",
    "select.whole_play": "…or pick a whole play",
    # -- challenges -----------------------------------------------------------------------------
    "challenge.made": "{mention}, **{challenger}** challenges you to a {kind} ({rated}, {cube}). "
    "The challenge expires in {minutes} minutes.",
    "challenge.rated": "rated",
    "challenge.unrated": "unrated",
    "challenge.cube": "with the doubling cube",
    "challenge.no_cube": "without the cube",
    "challenge.declined": "{name} declines {challenger}'s challenge.",
    "challenge.cancelled": "{challenger} withdraws the challenge.",
    "challenge.expired": "This challenge has expired.",
    "challenge.closed": "This challenge has already been answered.",
    # -- refusals -------------------------------------------------------------------------------
    "error.generic": "That did not work: {detail}",
    "error.moved_on": "The game moved on before your action arrived: look at the latest board.",
    "error.stale": "This board is out of date: use the latest message (or /board).",
    "error.no_such_game": "That game does not exist any more.",
    "error.no_such_challenge": "That challenge does not exist any more.",
    "error.not_your_game": "This is not your game.",
    "error.not_your_turn": "It is not your turn.",
    "error.not_challenged": "Only the challenged player can answer this challenge.",
    "error.not_your_challenge": "Only the challenger can withdraw this challenge.",
    "error.game_over": "This game is over.",
    "error.game_not_over": "This game is not over yet.",
    "error.unknown_button": "This button is not from this bot, or is too old.",
    "error.bad_button": "This button is damaged: use /board to get a fresh one.",
    "error.game_here": "You already have a game in this channel: finish it (or resign) first. "
    "/board shows it.",
    "error.opponent_busy": "{name} is already playing a game in this channel.",
    "error.no_game_here": "You have no game in this channel. Start one with /play or /challenge.",
    "error.challenge_self": "You cannot challenge yourself. Try /play to play the computer.",
    "error.challenge_bot": "{name} is a bot account and cannot play. Use /play for the computer.",
    "error.challenge_in_dm": "Challenges happen in a server channel. In a DM, /play the computer.",
    "error.match_length": "A match is played to 1 to {max} points (0 for a money game).",
    "error.level": "Unknown level. The levels are: {levels}.",
    "error.resign_value": "You can resign a single game (1), a gammon (2) or a backgammon (3).",
    "error.cannot_resign_now": "You can offer to resign only during play, not now.",
    "error.roll_first": "Roll the dice first.",
    "error.cannot_move_now": "There is nothing to move now.",
    "error.nothing_to_undo": "There is no checker move to undo.",
    "error.die_not_playable": "The {die} cannot be played now.",
    "error.scope": "The scope is 'server' or 'global'.",
    "error.language": "The language is 'en', 'fr' or 'auto'.",
    # -- engine refusals, by code -----------------------------------------------------------------
    "engine.error": "That is not possible here.",
    "engine.syntax": "I cannot read that play. Write it like `24/18 13/11`, `bar/22*`, `6/off` "
    "or `8/5(2)`.",
    "engine.syntax.type": "Write the play as text, like `24/18 13/11`.",
    "engine.syntax.long": "That is too long to be a backgammon play.",
    "engine.syntax.empty": "The play is empty: write it like `24/18 13/11`.",
    "engine.syntax.no_destination": "`{start}` needs a destination, like `{start}/…`.",
    "engine.syntax.unreadable": "I cannot read `{rest}`. Write plays like `24/18 13/11`, "
    "`bar/22*`, `6/off` or `8/5(2)`.",
    "engine.syntax.no_point": "There is no point {point}: points run from 1 to 24.",
    "engine.syntax.slash": "A `/` needs a point on each side.",
    "engine.syntax.star": "A `*` marks a hit after a destination, as in `13/7*`.",
    "engine.syntax.count": "A count like `(2)` follows a move, as in `8/5(2)`.",
    "engine.syntax.count_range": "A count of {count} is impossible: four moves at most.",
    "engine.syntax.trailing_slash": "The play ends with `/`: a destination is missing.",
    "engine.syntax.too_many": "That is more moves than any roll allows (four at most).",
    "engine.syntax.from_off": "`{move}`: a checker borne off cannot move again.",
    "engine.syntax.to_bar": "`{move}`: a checker cannot move onto the bar.",
    "engine.syntax.off_middle": "`{move}`: `off` can only end a move.",
    "engine.syntax.backwards": "`{move}`: checkers move from higher to lower points (from your "
    "24 toward your 1).",
    "engine.illegal": "That play is not legal here.",
    "engine.illegal.no_move": "No legal play with {dice}: the turn passes.",
    "engine.illegal.enter_first": "`{text}`: you have {count} checker(s) on the bar; enter them "
    "before moving others.",
    "engine.illegal.no_checker": "`{text}`: you have no checker on your {point}-point to move.",
    "engine.illegal.no_checker_bar": "`{text}`: you have no checker on the bar.",
    "engine.illegal.blocked": "`{text}`: your point {point} is held by your opponent.",
    "engine.illegal.not_home": "`{text}`: you can bear off only when all your checkers are in "
    "your home board.",
    "engine.illegal.distance": "`{text}`: {step} is a move of {gap}, and {dice} moves a checker "
    "{moves}.",
    "engine.illegal.partial": "`{text}` plays {written} dice, but {dice} can be played in full "
    "here ({longest}): play as many dice as you can.",
    "engine.illegal.forced_die": "`{text}`: only one die can be played, and it must be the {die}.",
    "engine.illegal.other": "`{text}` is not a legal play of {dice} here.",
    "engine.ambiguous": "`{text}` could mean {candidates}: write the one you mean.",
    "engine.turn.incomplete": "The move is not complete: {left} more checker(s) to move.",
    "engine.turn.no_die": "There is no {die} left to play.",
    "engine.turn.complete": "The move is complete: confirm it or undo.",
    "engine.turn.no_checker": "You have no checker on point {point}.",
    "engine.turn.forced_die": "Only one die can be played this turn: the {die}.",
    "engine.turn.enter_first": "Enter your checkers from the bar first.",
    "engine.turn.blocked": "A checker on point {point} cannot move {die}: the point is blocked, "
    "or it cannot bear off yet.",
    "engine.turn.strands": "Moving from point {point} with the {die} would leave a die "
    "unplayed: the rules ask you to play as many dice as you can.",
    "engine.turn.nothing_to_undo": "There is no checker move to undo.",
    "engine.state": "Not now.",
    "engine.state.opening": "The game has not started yet.",
    "engine.state.roll": "Not now: roll (or double) first.",
    "engine.state.move": "Not now: the dice are rolled, play them.",
    "engine.state.doubled": "Not now: a double is waiting for an answer.",
    "engine.state.resigned": "Not now: a resignation is waiting for an answer.",
    "engine.state.over": "The game is over.",
    "engine.state.opening_over": "The opening roll is over.",
    "engine.state.no_double": "There is no double to answer.",
    "engine.state.no_resignation": "There is no resignation to answer.",
    "engine.cube.when": "You can double only at the start of your turn, before rolling.",
    "engine.cube.disabled": "This game is played without the doubling cube.",
    "engine.cube.crawford": "No doubling in the Crawford game.",
    "engine.cube.max": "The cube is at its maximum ({max}).",
    "engine.cube.owner": "Only the owner of the cube can redouble.",
    "engine.resign.value": "A resignation is of a single game, a gammon or a backgammon.",
    "engine.match.game_on": "The current game is not over yet.",
    "engine.match.over": "The match is over.",
    "engine.position.invalid": "That position is impossible.",
    "engine.position_id.invalid": "That is not a valid GNU Backgammon Position ID.",
    "engine.match_id.invalid": "That is not a valid GNU Backgammon Match ID.",
    "engine.matfile.invalid": "That .mat file cannot be read.",
    # -- leaderboard, stats, history ----------------------------------------------------------------
    "board.title_server": "**🏆 Leaderboard of this server**",
    "board.title_global": "**🏆 Global leaderboard**",
    "board.header": "  #  Player              Rating   Exp   W-L",
    "board.layout": "{title}\n```\n{table}\n```",
    "board.row": "{rank:>3}  {name:<18} {rating:7.1f} {experience:5d} {wins:>4}-{losses:<4}",
    "board.empty": "No rated match yet: /challenge someone!",
    "stats.none": "{name} has not played yet.",
    "stats.title": "📊 **{name}**",
    "stats.rating": "Rating **{rating}** · experience {experience} · {rank}",
    "stats.rank": "rank #{rank}",
    "stats.unranked": "not ranked yet",
    "stats.server_rank": "Rank in this server: #{rank}",
    "stats.rated": "Rated matches: {wins} won, {losses} lost",
    "stats.people": "All games against people: {wins} won, {losses} lost",
    "stats.computer": "Against the computer ({level}): {wins} won, {losses} lost "
    "(points {won}–{lost})",
    "stats.active": "Games in progress: {count}",
    "stats.chart_title": "Rating of {name}",
    "stats.chart_x": "rated matches, oldest first",
    "history.title": "📜 Last games of **{name}**",
    "history.empty": "No finished game yet.",
    "history.line": "`#{id}` {date} · vs {opponent} · {kind} · {outcome}{how}{rated}",
    "history.won": "won ({points} pt)",
    "history.lost": "lost ({points} pt)",
    "history.expired": "expired",
    "history.kind_single": "",
    "history.kind_gammon": " by gammon",
    "history.kind_backgammon": " by backgammon",
    "history.kind_resign": " by resignation",
    "history.kind_drop": " by a dropped double",
    "history.kind_timeout": " on time",
    # -- settings -------------------------------------------------------------------------------------
    "settings.text": "**Your settings**\nLanguage: {language}\nRoll automatically when there "
    "is no cube decision: {auto_roll}\nPlay forced moves automatically: {auto_forced}\nHome "
    "board on the left: {mirrored}",
    "settings.saved": "Saved.",
    "settings.on": "on",
    "settings.off": "off",
    "settings.lang_en": "English",
    "settings.lang_fr": "French",
    "settings.lang_auto": "Discord's language",
    # -- slash commands (names, descriptions, options: what Discord's command picker shows) -------
    "cmd.play.name": "play",
    "cmd.play.description": "Play a game or a match against the computer.",
    "cmd.play.opt.level.name": "level",
    "cmd.play.opt.level.description": "How well the computer plays (default: intermediate).",
    "cmd.play.opt.points.name": "points",
    "cmd.play.opt.points.description": "Match length in points; 0 for a money game (the default).",
    "cmd.play.opt.cube.name": "cube",
    "cmd.play.opt.cube.description": "Play with the doubling cube (default: yes).",
    "cmd.challenge.name": "challenge",
    "cmd.challenge.description": "Challenge someone in this channel to a game or a match.",
    "cmd.challenge.opt.opponent.name": "opponent",
    "cmd.challenge.opt.opponent.description": "The person you want to play.",
    "cmd.challenge.opt.points.name": "points",
    "cmd.challenge.opt.points.description": "Match length in points; 0 for a money game (the default).",
    "cmd.challenge.opt.cube.name": "cube",
    "cmd.challenge.opt.cube.description": "Play with the doubling cube (default: yes).",
    "cmd.challenge.opt.rated.name": "rated",
    "cmd.challenge.opt.rated.description": "Count the result on the leaderboard (default: yes).",
    "cmd.move.name": "move",
    "cmd.move.description": "Play your whole move in notation, like 24/18 13/11.",
    "cmd.move.opt.play.name": "play",
    "cmd.move.opt.play.description": "Your move: start typing and pick one of the legal moves listed.",
    "cmd.undo.name": "undo",
    "cmd.undo.description": "Take back the last checker you moved this turn.",
    "cmd.board.name": "board",
    "cmd.board.description": "Show your game in this channel again, with its buttons.",
    "cmd.resign.name": "resign",
    "cmd.resign.description": "Offer to resign the current game.",
    "cmd.resign.opt.value.name": "value",
    "cmd.resign.opt.value.description": "What you concede: a single game (the default), a gammon or a backgammon.",
    "cmd.leaderboard.name": "leaderboard",
    "cmd.leaderboard.description": "The best rated players of this server, or of everyone.",
    "cmd.leaderboard.opt.scope.name": "scope",
    "cmd.leaderboard.opt.scope.description": "Which ranking to show (default: this server).",
    "cmd.leaderboard.choice.server": "this server",
    "cmd.leaderboard.choice.global": "everyone (global)",
    "cmd.stats.name": "stats",
    "cmd.stats.description": "A player's record, rating and rating history.",
    "cmd.stats.opt.user.name": "user",
    "cmd.stats.opt.user.description": "Whose statistics (default: yours).",
    "cmd.history.name": "history",
    "cmd.history.description": "Your last finished games.",
    "cmd.rules.name": "rules",
    "cmd.rules.description": "The rules of backgammon, as this bot plays them.",
    "cmd.help.name": "help",
    "cmd.help.description": "The commands, and how a turn goes.",
    "cmd.settings.name": "settings",
    "cmd.settings.description": "Show or change your settings: language, automatic moves, board.",
    "cmd.settings.opt.language.name": "language",
    "cmd.settings.opt.language.description": "The language the bot answers you in.",
    "cmd.settings.opt.auto_roll.name": "auto_roll",
    "cmd.settings.opt.auto_roll.description": "Roll for you when there is no cube decision to make.",
    "cmd.settings.opt.auto_forced.name": "auto_forced",
    "cmd.settings.opt.auto_forced.description": "Play your forced moves (a single legal play) for you.",
    "cmd.settings.opt.mirrored.name": "mirrored",
    "cmd.settings.opt.mirrored.description": "Draw your home board on the left.",
    # -- Discord adapter ----------------------------------------------------------------------------
    "discord.apology": "Sorry, something went wrong on my side and nothing was changed. Please try again; if it keeps happening, tell the bot's owner.",
    # -- terminal ---------------------------------------------------------------------------------
    "terminal.welcome": "Backgammon in the terminal. You are {name}. Type /help for the commands, /play to start against the computer, /as NAME to switch player, /quit to leave.",
    "terminal.error": "Unexpected error: {detail}",
    "terminal.as_usage": "Write /as NAME to act as another player.",
    "terminal.as": "You are now {name}.",
    "terminal.challenge_usage": "Write /challenge NAME (or opponent:NAME) [points:N] [cube:false] [rated:false].",
    "terminal.unknown": "Unknown command {command}. Type /help.",
    "terminal.no_button": "No button “{label}” on the latest message. Buttons: {buttons}.",
    "terminal.image": "[board image: {path}]",
    "terminal.buttons": "Buttons: {buttons}",
    "terminal.select": "Whole plays: {plays}",
    # -- rules and help ---------------------------------------------------------------------------------
    "rules.text": (
        "**Backgammon rules, as this bot plays them**\n"
        "**Goal**: bring your 15 checkers into your home board (your points 1 to 6), then bear "
        "them all off. You move from your 24-point toward your 1-point.\n"
        "**Opening**: each player rolls one die; the higher die plays first with both dice. "
        "Equal dice: roll again.\n"
        "**Moving**: each die moves one checker that many points, to a point not held by two or "
        "more opposing checkers. One checker may use both dice if the point in between is open. "
        "A double is played four times.\n"
        "**Forced moves**: play both dice when you can. If only one can be played, play it; if "
        "either could be played but not both, play the larger. No legal move: the turn passes.\n"
        "**Hitting**: landing on a single opposing checker (a blot) sends it to the bar. A "
        "checker on the bar must re-enter in the opposing home board before anything else "
        "moves.\n"
        "**Bearing off**: only with all 15 checkers home: remove a checker from the point the "
        "die shows, or with a higher die from your highest occupied point.\n"
        "**Doubling cube**: before rolling, you may offer to double the stake. Your opponent "
        "takes (and owns the cube: only he may redouble) or drops (and loses the current "
        "stake). The cube stops at 64.\n"
        "**Winning**: a single game is worth the cube; a **gammon** (the loser bore off no "
        "checker) twice; a **backgammon** (and he still has a checker on the bar or in your "
        "home board) three times. You may offer to resign a single game, gammon or backgammon.\n"
        "**Matches**: first to N points. When a player first reaches N−1, the next game (the "
        "**Crawford game**) is played without the cube; doubling resumes after it."
    ),
    "help.text": (
        "**Backgammon bot: commands**\n"
        "`/play [level] [points] [cube]`: play the computer ({levels}).\n"
        "`/challenge opponent [points] [cube] [rated]`: challenge someone in this channel.\n"
        "`/move play`: play a whole move in notation, like `24/18 13/11` (autocomplete lists "
        "the legal ones).\n"
        "`/undo`, `/board`, `/resign [value]`: take back a checker, show the game again, offer "
        "to resign.\n"
        "`/leaderboard`, `/stats [user]`, `/history`: ratings and records.\n"
        "`/settings`: language, automatic rolls and forced moves, board orientation.\n"
        "`/rules`: the rules.\n\n"
        "**A turn with buttons**: press **Roll** (or **Double**). The points a checker can "
        "move from are highlighted: press one to move a checker with the chosen die (switch "
        "dice with the die buttons), **Undo** if you change your mind, then **Confirm**. Or "
        "pick a whole play in the menu.\n"
        "Every board shows its GNU Backgammon Position ID and Match ID."
    ),
}
