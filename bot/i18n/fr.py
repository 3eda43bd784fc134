"""Messages en français. Chaque clé existe aussi dans en.py (un test le vérifie)."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # -- le message de la partie ------------------------------------------------------------------
    "game.headline": "**{p0}** ⚪ contre **{p1}** ⚫ · {kind}{score}{rated}{crawford}",
    "game.kind_match": "match en {points} points",
    "game.kind_money": "partie libre",
    "game.score": " · score {a}–{b}",
    "game.rated": " · classée",
    "game.crawford": " · partie Crawford",
    "game.ids": "-# Position ID `{position_id}` · Match ID `{match_id}`",
    "game.your_turn": "{name}, à vous de jouer.",
    "game.computer_thinking": "L’ordinateur réfléchit…",
    "game.won_single": "🏁 **{name}** gagne une partie simple : {points} point(s).",
    "game.won_gammon": "🏁 **{name}** gagne un **gammon** : {points} point(s).",
    "game.won_backgammon": "🏁 **{name}** gagne un **backgammon** : {points} point(s).",
    "game.match_over": "🏆 **{name}** gagne le match {a}–{b}.",
    "computer.name": "Ordinateur ({level})",
    # -- invitations à jouer --------------------------------------------------------------------------
    "prompt.roll": "**{name}**, lancez les dés.",
    "prompt.roll_or_double": "**{name}**, lancez les dés ou doublez.",
    "prompt.take_or_drop": "**{name}**, acceptez-vous le videau à {value} ou refusez-vous ?",
    "prompt.accept_resignation": "**{name}**, votre adversaire propose d’abandonner "
    "({offer}, {points} point(s)) : acceptez-vous ?",
    "prompt.confirm": "**{name}**, confirmez votre coup (ou reprenez-le).",
    "prompt.forced_die": "**{name}** a fait {d1}-{d2} : un seul dé peut être joué, le {die}. "
    "Choisissez une case en surbrillance.",
    "prompt.pick_die_point": "**{name}** a fait {d1}-{d2} : choisissez une case en surbrillance "
    "pour jouer le {die}, ou prenez l’autre dé.",
    "prompt.pick_point": "**{name}** a fait {d1}-{d2} : choisissez une case en surbrillance pour "
    "jouer le {die}.",
    "prompt.resign_menu": "**{name}**, que proposez-vous d’abandonner ?",
    # -- ce qui s’est passé -------------------------------------------------------------------------
    "note.new_computer_game": "{name} s’assoit face à l’ordinateur (niveau {level}).",
    "note.challenge_accepted": "{name} accepte le défi.",
    "note.opening": "Lancer d’ouverture : {p0} {d0}, {p1} {d1}. **{name}** commence.",
    "note.opening_tie": "Lancer d’ouverture : les deux joueurs ont fait {die}, on relance.",
    "note.rolled": "{name} lance {d1}-{d2}.",
    "note.played": "{name} a fait {d1}-{d2} et joué **{play}**.",
    "note.played_you": "{name} a joué **{play}**.",
    "note.cannot_move": "{name} a fait {d1}-{d2} et ne peut pas jouer.",
    "note.forced": "Coup forcé pour {name} : **{play}** a été joué automatiquement.",
    "note.doubles": "{name} double à {value}.",
    "note.takes": "{name} accepte : le videau est à {value}.",
    "note.drops": "{name} refuse le videau.",
    "note.resigns": "{name} propose d’abandonner ({offer}).",
    "note.accepts_resignation": "{name} accepte l’abandon.",
    "note.rejects_resignation": "{name} refuse l’abandon : la partie continue.",
    "note.next_game": "La partie {number} commence (score {a}–{b}).",
    "note.earlier": "… ({count} événement(s) précédent(s) non affiché(s))",
    "resign.single": "partie simple",
    "resign.gammon": "gammon",
    "resign.backgammon": "backgammon",
    "resign.offer_single": "une partie simple",
    "resign.offer_gammon": "un gammon",
    "resign.offer_backgammon": "un backgammon",
    "dice.commitment": "-# Engagement des dés (SHA-256 de la graine secrète de la partie) : "
    "`{commitment}`",
    "dice.revealed": "-# Graine des dés, pour vérifier chaque lancer : `{seed}`",
    "verify.not_finished": "La partie n°{id} n’est pas terminée : sa graine de dés reste secrète jusqu’à la fin.",
    "verify.failed": "⚠️ La partie n°{id} NE correspond PAS à sa graine :\n{problems}",
    "verify.ok": "✅ Les {count} dés de la partie n°{id} correspondent à sa graine.\nGraine `{seed}`\nEngagement (SHA-256 de la graine, publié au début) `{commitment}`",
    "dice.title_player": "🎲 **Dés — {name}**",
    "dice.title_server": "🎲 **Les dés sur ce serveur**",
    "dice.none": "Aucun lancer enregistré pour l’instant.",
    "dice.rolls": "{rolls} lancers ; chaque face est attendue {expected} fois :",
    "dice.doubles": "Doubles : {doubles} ({rate} %, avec des dés équitables : 16,7 %)",
    "dice.faces_test": "Faces : χ² = {chi} (5 degrés de liberté), p = {p}",
    "dice.rolls_test": "Les 21 sortes de lancers : χ² = {chi} (20 degrés de liberté), p = {p}",
    "dice.verdict_ok": "Rien d’anormal : des dés équitables donnent de tels chiffres.",
    "dice.verdict_odd": "Inhabituel (p ≤ 0,001), même si, avec beaucoup de joueurs, cela arrive par hasard de temps en temps.",
    "hint.rated": "Pas de conseils dans une partie classée contre une personne.",
    "hint.not_your_turn": "Les conseils sont pour votre propre tour.",
    "hint.nothing": "Il n’y a rien à décider pour l’instant.",
    "hint.title": "💡 Meilleurs coups pour {d1}-{d2} (équité, vos chances de gagner) :",
    "hint.line": "{rank}. **{play}** {equity}{diff} · {win} %",
    "hint.cube": "💡 Videau : **{advice}**\nPas de double {nd} · double accepté {dt} · double refusé {dp}",
    "hint.no_double": "pas de double",
    "hint.too_good": "trop bon pour doubler : jouez le gammon",
    "hint.double_take": "doublez (l’adversaire devrait accepter)",
    "hint.double_pass": "doublez (l’adversaire devrait refuser)",
    "hint.take": "💡 **Acceptez.** Votre équité : en acceptant {dt}, en refusant {dp}.",
    "hint.pass": "💡 **Refusez.** Votre équité : en acceptant {dt}, en refusant {dp}.",
    "review.none": "Vous n’avez pas encore de partie terminée à analyser.",
    "review.not_finished": "La partie n°{id} n’est pas terminée : analysez-la à la fin.",
    "review.title": "📈 **Analyse de la partie n°{id}** : {p0} contre {p1}",
    "review.player": "**{name}** : {rate} millipoints perdus par décision, **{rating}** (jeu des dames {checker} sur {moves} coup(s), videau {cube} sur {cubes} décision(s)) ; chance {luck} : {luck_rating}",
    "review.none_short": "—",
    "review.mistake": "Erreur {n} ({name}) : joué {played}, mieux {best} (−{error} millipoints)",
    "rating.supernatural": "surnaturel",
    "rating.world class": "classe mondiale",
    "rating.expert": "expert",
    "rating.advanced": "avancé",
    "rating.intermediate": "intermédiaire",
    "rating.casual": "occasionnel",
    "rating.beginner": "débutant",
    "rating.awful": "catastrophique",
    "luck.go to bed": "allez vous coucher !",
    "luck.bad dice": "mauvais dés",
    "luck.none": "dans la moyenne",
    "luck.good dice": "bons dés",
    "luck.go to las vegas": "filez à Las Vegas !",
    "export.none": "Vous n’avez pas encore de partie à exporter.",
    "export.done": "📄 La partie n°{id} en fichier .mat pour GNU Backgammon (Fichier › Importer), avec le Position ID et le Match ID après chaque action. Maintenant : Position ID `{position_id}` · Match ID `{match_id}`",
    "review.no_move": "aucun coup",
    "cube.no double": "pas de double",
    "cube.double": "doubler",
    "cube.take": "accepter",
    "cube.pass": "refuser",
    "timer.reminder": "⏰ {player}, à vous de jouer dans la partie n°{id} : il reste {minutes} minute(s) avant que votre adversaire puisse réclamer la partie.",
    "timer.claim": "⌛ {late} a dépassé son temps. {waiting}, vous pouvez réclamer la partie ({points} point(s)) avec le bouton, ou continuer d’attendre.",
    "timer.expired": "La partie n°{id} entre {p0} et {p1} a expiré : personne ne l’a jouée ni réclamée à temps.",
    "note.claimed": "{name} réclame la partie : {loser} a dépassé son temps.",
    "button.claim": "Réclamer la partie",
    "error.cannot_claim": "Vous ne pouvez réclamer la partie que si votre adversaire a dépassé son temps.",
    "note.from_position": "Entraînement à partir du Position ID `{position_id}`, Match ID `{match_id}`.",
    "error.match_id_alone": "Un Match ID va avec un Position ID : donnez les deux (position et match).",
    "error.position_over": "Dans cette position, un joueur a déjà sorti toutes ses dames : la partie est finie. Donnez la position d’une partie en cours.",
    "engine.match.not_playing": "Ce Match ID décrit une partie terminée : donnez celui d’une partie en cours.",
    "turn.ping": "{mention}, à vous de jouer dans la partie n°{id}.",
    "error.position_stuck": "Personne ne pourrait jamais jouer dans cette position : les deux camps sont enfermés.",
    # -- niveaux -----------------------------------------------------------------------------------
    "level.beginner": "débutant",
    "level.casual": "occasionnel",
    "level.intermediate": "intermédiaire",
    "level.advanced": "avancé",
    "level.expert": "expert",
    "level.world class": "classe mondiale",
    # -- boutons et menus ----------------------------------------------------------------------------
    "button.roll": "Lancer",
    "button.double": "Doubler",
    "button.resign": "Abandonner",
    "button.take": "Accepter",
    "button.drop": "Refuser",
    "button.accept": "Accepter",
    "button.reject": "Refuser",
    "button.decline": "Décliner",
    "button.cancel": "Annuler",
    "button.undo": "Reprendre",
    "button.confirm": "Confirmer",
    "button.rematch": "Revanche",
    "button.die": "Dé {die}",
    "button.bar": "Barre",
    "button.resign_single": "Partie simple",
    "button.resign_gammon": "Gammon",
    "button.resign_backgammon": "Backgammon",
    "select.whole_play": "…ou choisissez un coup entier",
    # -- défis ---------------------------------------------------------------------------------------
    "challenge.made": "{mention}, **{challenger}** vous défie : {kind} ({rated}, {cube}). "
    "Le défi expire dans {minutes} minutes.",
    "challenge.rated": "classé",
    "challenge.unrated": "amical",
    "challenge.cube": "avec videau",
    "challenge.no_cube": "sans videau",
    "challenge.declined": "{name} décline le défi de {challenger}.",
    "challenge.cancelled": "{challenger} retire son défi.",
    "challenge.expired": "Ce défi a expiré.",
    "challenge.closed": "Ce défi a déjà reçu une réponse.",
    # -- refus ---------------------------------------------------------------------------------------
    "error.generic": "Cela n’a pas marché : {detail}",
    "error.moved_on": "La partie a avancé avant votre action : regardez le dernier plateau.",
    "error.stale": "Ce plateau n’est plus à jour : utilisez le dernier message (ou /plateau).",
    "error.no_such_game": "Cette partie n’existe plus.",
    "error.no_such_challenge": "Ce défi n’existe plus.",
    "error.not_your_game": "Ce n’est pas votre partie.",
    "error.not_your_turn": "Ce n’est pas à vous de jouer.",
    "error.not_challenged": "Seul le joueur défié peut répondre à ce défi.",
    "error.not_your_challenge": "Seul l’auteur du défi peut le retirer.",
    "error.game_over": "Cette partie est terminée.",
    "error.game_not_over": "Cette partie n’est pas encore terminée.",
    "error.unknown_button": "Ce bouton ne vient pas de ce bot, ou il est trop ancien.",
    "error.bad_button": "Ce bouton est abîmé : /plateau en affiche un neuf.",
    "error.game_here": "Vous avez déjà une partie dans ce salon : terminez-la (ou abandonnez) "
    "d’abord. /plateau l’affiche.",
    "error.opponent_busy": "{name} joue déjà une partie dans ce salon.",
    "error.no_game_here": "Vous n’avez pas de partie dans ce salon. Lancez-en une avec /jouer ou "
    "/défi.",
    "error.challenge_self": "Vous ne pouvez pas vous défier vous-même. Essayez /jouer contre "
    "l’ordinateur.",
    "error.challenge_bot": "{name} est un compte de bot et ne peut pas jouer. /jouer pour "
    "affronter l’ordinateur.",
    "error.challenge_in_dm": "Les défis se lancent dans un salon de serveur. En message privé, "
    "/jouer contre l’ordinateur.",
    "error.match_length": "Un match se joue en 1 à {max} points (0 pour une partie libre).",
    "error.level": "Niveau inconnu. Les niveaux sont : {levels}.",
    "error.resign_value": "Vous pouvez abandonner une partie simple (1), un gammon (2) ou un "
    "backgammon (3).",
    "error.cannot_resign_now": "Vous ne pouvez proposer d’abandonner que pendant le jeu, pas "
    "maintenant.",
    "error.roll_first": "Lancez d’abord les dés.",
    "error.cannot_move_now": "Il n’y a rien à jouer maintenant.",
    "error.nothing_to_undo": "Il n’y a aucun déplacement à reprendre.",
    "error.die_not_playable": "Le {die} ne peut pas être joué maintenant.",
    "error.scope": "La portée est « server » ou « global ».",
    "error.language": "La langue est « en », « fr » ou « auto ».",
    # -- refus du moteur, par code ---------------------------------------------------------------------
    "engine.error": "Ce n’est pas possible ici.",
    "engine.syntax": "Je ne comprends pas ce coup. Écrivez-le comme `24/18 13/11`, `bar/22*`, "
    "`6/off` ou `8/5(2)`.",
    "engine.syntax.type": "Écrivez le coup en texte, comme `24/18 13/11`.",
    "engine.syntax.long": "C’est trop long pour un coup de backgammon.",
    "engine.syntax.empty": "Le coup est vide : écrivez-le comme `24/18 13/11`.",
    "engine.syntax.no_destination": "`{start}` a besoin d’une arrivée, comme `{start}/…`.",
    "engine.syntax.unreadable": "Je ne comprends pas `{rest}`. Écrivez les coups comme "
    "`24/18 13/11`, `bar/22*`, `6/off` ou `8/5(2)`.",
    "engine.syntax.no_point": "Il n’y a pas de case {point} : les cases vont de 1 à 24.",
    "engine.syntax.slash": "Un `/` doit avoir une case de chaque côté.",
    "engine.syntax.star": "Un `*` marque une prise après l’arrivée, comme dans `13/7*`.",
    "engine.syntax.count": "Un nombre comme `(2)` suit un déplacement, comme dans `8/5(2)`.",
    "engine.syntax.count_range": "Un nombre de {count} est impossible : quatre déplacements au "
    "plus.",
    "engine.syntax.trailing_slash": "Le coup se termine par `/` : il manque l’arrivée.",
    "engine.syntax.too_many": "Aucun lancer ne permet autant de déplacements (quatre au plus).",
    "engine.syntax.from_off": "`{move}` : une dame sortie ne peut plus bouger.",
    "engine.syntax.to_bar": "`{move}` : une dame ne peut pas aller sur la barre.",
    "engine.syntax.off_middle": "`{move}` : `off` ne peut que terminer un déplacement.",
    "engine.syntax.backwards": "`{move}` : les dames vont des cases hautes vers les basses (de "
    "votre 24 vers votre 1).",
    "engine.illegal": "Ce coup n’est pas permis ici.",
    "engine.illegal.no_move": "Aucun coup possible avec {dice} : vous passez votre tour.",
    "engine.illegal.enter_first": "`{text}` : une de vos dames est encore sur la barre : rentrez-la avant d’en déplacer une autre.",
    "engine.illegal.no_checker": "`{text}` : vous n’avez pas de dame sur votre case {point}.",
    "engine.illegal.no_checker_bar": "`{text}` : vous n’avez pas de dame sur la barre.",
    "engine.illegal.no_checker_left": "`{text}` déplace plus de dames depuis votre case {point} que "
    "vous n’en avez.",
    "engine.illegal.no_checker_left_bar": "`{text}` rentre plus de dames que vous n’en avez sur la barre.",
    "engine.illegal.blocked": "`{text}` : votre point {point} est tenu par l’adversaire.",
    "engine.illegal.blocked_both": "`{text}` : les deux chemins sont fermés : l’adversaire tient "
    "vos cases {point} et {other}.",
    "engine.illegal.not_home": "`{text}` : vous ne pouvez sortir des dames que lorsqu’elles "
    "sont toutes dans votre jan intérieur, et il en reste une sur votre case {point}.",
    "engine.illegal.bear_off_higher": "`{text}` : un {die} ne sort une dame de votre case {point} "
    "que si aucune n’est plus haut, et vous en avez une sur votre case {higher}.",
    "engine.illegal.distance": "`{text}` : {step} est un déplacement de {gap}, impossible avec "
    "{dice} (une dame avance de {moves}).",
    "engine.illegal.off_distance": "`{text}` : sortir une dame de votre case {point} demande au "
    "moins {point}, et avec {dice} une dame avance de {most} au plus.",
    "engine.illegal.dice": "`{text}` ne correspond pas à vos dés : {dice} ne permet pas tous "
    "ces déplacements ensemble.",
    "engine.illegal.partial": "`{text}` ne joue qu’un dé, mais les deux dés de {dice} peuvent "
    "être joués ici : la règle impose de jouer les deux.",
    "engine.illegal.partial_double": "`{text}` joue {written} des quatre dés de {dice}, mais "
    "{longest} peuvent être joués ici : la règle impose d’en jouer le plus possible.",
    "engine.illegal.forced_die": "`{text}` : un seul dé peut être joué, et ce doit être le {die}.",
    "engine.illegal.other": "`{text}` n’est pas un coup permis avec {dice} ici.",
    "engine.ambiguous": "`{text}` peut vouloir dire {candidates} : précisez lequel.",
    "engine.turn.incomplete": "Le coup n’est pas complet : encore {left} dame(s) à déplacer.",
    "engine.turn.no_die": "Il ne reste pas de {die} à jouer.",
    "engine.turn.complete": "Le coup est complet : confirmez-le ou reprenez-le.",
    "engine.turn.no_checker": "Vous n’avez pas de dame sur la case {point}.",
    "engine.turn.forced_die": "Un seul dé peut être joué ce tour-ci : le {die}.",
    "engine.turn.enter_first": "Rentrez d’abord vos dames de la barre.",
    "engine.turn.blocked": "Une dame de la case {point} ne peut pas avancer de {die} : la case "
    "est bloquée, ou elle ne peut pas encore sortir.",
    "engine.turn.strands": "Jouer la case {point} avec le {die} laisserait un dé injouable : la "
    "règle impose de jouer autant de dés que possible.",
    "engine.turn.nothing_to_undo": "Il n’y a aucun déplacement à reprendre.",
    "engine.state": "Pas maintenant.",
    "engine.state.opening": "La partie n’a pas encore commencé.",
    "engine.state.roll": "Pas maintenant : lancez les dés (ou doublez) d’abord.",
    "engine.state.move": "Pas maintenant : les dés sont lancés, jouez-les.",
    "engine.state.doubled": "Pas maintenant : un double attend une réponse.",
    "engine.state.resigned": "Pas maintenant : un abandon attend une réponse.",
    "engine.state.over": "La partie est terminée.",
    "engine.state.opening_over": "Le lancer d’ouverture est déjà fait.",
    "engine.state.no_double": "Il n’y a pas de double auquel répondre.",
    "engine.state.no_resignation": "Il n’y a pas d’abandon auquel répondre.",
    "engine.cube.when": "On ne peut doubler qu’au début de son tour, avant de lancer les dés.",
    "engine.cube.disabled": "Cette partie se joue sans videau.",
    "engine.cube.crawford": "Pas de double pendant la partie Crawford.",
    "engine.cube.max": "Le videau est à son maximum ({max}).",
    "engine.cube.owner": "Seul le propriétaire du videau peut redoubler.",
    "engine.cube.dead": "Le videau est mort : gagner cette partie à l’enjeu actuel vous donne déjà le match.",
    "engine.resign.value": "On abandonne une partie simple, un gammon ou un backgammon.",
    "engine.match.game_on": "La partie en cours n’est pas terminée.",
    "engine.match.over": "Le match est terminé.",
    "engine.position.invalid": "Cette position est impossible.",
    "engine.position_id.invalid": "Ce n’est pas un Position ID de GNU Backgammon valide.",
    "engine.match_id.invalid": "Ce n’est pas un Match ID de GNU Backgammon valide.",
    "engine.matfile.invalid": "Ce fichier .mat est illisible.",
    # -- classement, statistiques, historique ------------------------------------------------------
    "board.title_server": "**🏆 Classement de ce serveur**",
    "board.title_global": "**🏆 Classement général**",
    "board.header": "  #  Joueur               Cote   Exp   G-P",
    "board.layout": "{title}\n```\n{table}\n```",
    "board.row": "{rank:>3}  {name:<18} {rating:7.1f} {experience:5d} {wins:>4}-{losses:<4}",
    "board.empty": "Aucun match classé pour l’instant : lancez un /défi !",
    "stats.none": "{name} n’a pas encore joué.",
    "stats.title": "📊 **{name}**",
    "stats.rating": "Cote **{rating}** · expérience {experience} · {rank}",
    "stats.rank": "{rank}e",
    "stats.unranked": "pas encore classé",
    "stats.server_rank": "Rang sur ce serveur : {rank}e",
    "stats.rated": "Matchs classés : gagnés {wins}, perdus {losses}",
    "stats.people": "Toutes les parties contre des personnes : gagnées {wins}, perdues {losses}",
    "stats.computer": "Contre l’ordinateur ({level}) : gagnées {wins}, perdues {losses} (points {won}–{lost})",
    "stats.active": "Parties en cours : {count}",
    "stats.chart_title": "Cote — {name}",
    "stats.chart_x": "matchs classés, du plus ancien au plus récent",
    "history.title": "📜 **{name}** — dernières parties",
    "history.empty": "Aucune partie terminée pour l’instant.",
    "history.line": "`#{id}` {date} · contre {opponent} · {kind} · {outcome}{how}{rated}",
    "history.won": "gagné ({points} pt)",
    "history.lost": "perdu ({points} pt)",
    "history.won_match": "gagné {mine}–{theirs}",
    "history.lost_match": "perdu {mine}–{theirs}",
    "history.expired": "expirée",
    "history.kind_single": "",
    "history.kind_gammon": " par gammon",
    "history.kind_backgammon": " par backgammon",
    "history.kind_resign": " par abandon",
    "history.kind_drop": " sur un double refusé",
    "history.kind_timeout": " au temps",
    # -- réglages -------------------------------------------------------------------------------------
    "settings.text": "**Vos réglages**\nLangue : {language}\nLancer automatiquement quand il n’y "
    "a pas de décision de videau : {auto_roll}\nJouer les coups forcés automatiquement : "
    "{auto_forced}\nJan intérieur à gauche : {mirrored}",
    "settings.saved": "Enregistré.",
    "settings.on": "oui",
    "settings.off": "non",
    "settings.lang_en": "anglais",
    "settings.lang_fr": "français",
    "settings.lang_auto": "langue de Discord",
    # -- commandes (noms, descriptions, options : ce qu’affiche le sélecteur de commandes) -------
    "cmd.play.name": "jouer",
    "cmd.play.description": "Jouer une partie ou un match contre l’ordinateur.",
    "cmd.play.opt.level.name": "niveau",
    "cmd.play.opt.level.description": "La force de l’ordinateur (par défaut : intermédiaire).",
    "cmd.play.opt.points.name": "points",
    "cmd.play.opt.points.description": "Longueur du match en points ; 0 pour une partie libre (par défaut).",
    "cmd.play.opt.cube.name": "videau",
    "cmd.play.opt.cube.description": "Jouer avec le videau (par défaut : oui).",
    "cmd.play.opt.position.name": "position",
    "cmd.play.opt.position.description": "S’entraîner à partir d’un Position ID de GNU Backgammon (vous jouez le camp au trait).",
    "cmd.play.opt.match.name": "match",
    "cmd.play.opt.match.description": "Avec une position : son Match ID de GNU Backgammon (score, videau, dés).",
    "cmd.hint.name": "conseil",
    "cmd.hint.description": "Les meilleurs coups pour votre lancer, ou la décision de videau (hors parties classées).",
    "cmd.review.name": "analyse",
    "cmd.review.description": "Analyser une partie terminée : taux d’erreur, chance, pires erreurs, chances.",
    "cmd.review.opt.game.name": "partie",
    "cmd.review.opt.game.description": "Le numéro de la partie (par défaut : votre dernière partie terminée).",
    "cmd.export.name": "exporter",
    "cmd.export.description": "Télécharger une partie en fichier .mat pour GNU Backgammon, avec ses ID.",
    "cmd.export.opt.game.name": "partie",
    "cmd.export.opt.game.description": "Le numéro de la partie (par défaut : votre partie en cours ou la dernière).",
    "cmd.verify.name": "vérifier",
    "cmd.verify.description": "Vérifier chaque dé d’une partie terminée avec sa graine révélée.",
    "cmd.verify.opt.game.name": "partie",
    "cmd.verify.opt.game.description": "Le numéro de la partie.",
    "cmd.dice.name": "dés",
    "cmd.dice.description": "Statistiques des dés face à des dés équitables, avec tests du khi-deux.",
    "cmd.dice.opt.user.name": "joueur",
    "cmd.dice.opt.user.description": "Les lancers de qui (par défaut : ce serveur, ou vous en privé).",
    "cmd.challenge.name": "défi",
    "cmd.challenge.description": "Défier quelqu’un dans ce salon, pour une partie ou un match.",
    "cmd.challenge.opt.opponent.name": "adversaire",
    "cmd.challenge.opt.opponent.description": "La personne que vous voulez affronter.",
    "cmd.challenge.opt.points.name": "points",
    "cmd.challenge.opt.points.description": "Longueur du match en points ; 0 pour une partie libre (par défaut).",
    "cmd.challenge.opt.cube.name": "videau",
    "cmd.challenge.opt.cube.description": "Jouer avec le videau (par défaut : oui).",
    "cmd.challenge.opt.rated.name": "classé",
    "cmd.challenge.opt.rated.description": "Compter le résultat au classement (par défaut : oui).",
    "cmd.move.name": "déplacer",
    "cmd.move.description": "Jouer votre coup entier en notation, comme 24/18 13/11.",
    "cmd.move.opt.play.name": "coup",
    "cmd.move.opt.play.description": "Votre coup : commencez à taper et choisissez l’un des coups permis proposés.",
    "cmd.undo.name": "reprendre",
    "cmd.undo.description": "Reprendre la dernière dame déplacée pendant ce tour.",
    "cmd.board.name": "plateau",
    "cmd.board.description": "Réafficher votre partie dans ce salon, avec ses boutons.",
    "cmd.resign.name": "abandonner",
    "cmd.resign.description": "Proposer d’abandonner la partie en cours.",
    "cmd.resign.opt.value.name": "valeur",
    "cmd.resign.opt.value.description": "Ce que vous concédez : une partie simple (par défaut), un gammon ou un backgammon.",
    "cmd.leaderboard.name": "classement",
    "cmd.leaderboard.description": "Les meilleurs joueurs classés de ce serveur, ou de tous.",
    "cmd.leaderboard.opt.scope.name": "portée",
    "cmd.leaderboard.opt.scope.description": "Quel classement afficher (par défaut : ce serveur).",
    "cmd.leaderboard.choice.server": "ce serveur",
    "cmd.leaderboard.choice.global": "tout le monde (général)",
    "cmd.stats.name": "statistiques",
    "cmd.stats.description": "Le bilan, le classement et l’historique du classement d’un joueur.",
    "cmd.stats.opt.user.name": "joueur",
    "cmd.stats.opt.user.description": "De quel joueur (par défaut : vous).",
    "cmd.history.name": "historique",
    "cmd.history.description": "Vos dernières parties terminées.",
    "cmd.rules.name": "règles",
    "cmd.rules.description": "Les règles du backgammon, telles que ce bot les applique.",
    "cmd.help.name": "aide",
    "cmd.help.description": "Les commandes, et comment se déroule un tour.",
    "cmd.settings.name": "réglages",
    "cmd.settings.description": "Voir ou changer vos réglages : langue, coups automatiques, plateau.",
    "cmd.settings.opt.language.name": "langue",
    "cmd.settings.opt.language.description": "La langue dans laquelle le bot vous répond.",
    "cmd.settings.opt.auto_roll.name": "lancer_auto",
    "cmd.settings.opt.auto_roll.description": "Lancer les dés pour vous quand il n’y a pas de décision de videau.",
    "cmd.settings.opt.auto_forced.name": "coups_forcés_auto",
    "cmd.settings.opt.auto_forced.description": "Jouer pour vous les coups forcés (un seul coup permis).",
    "cmd.settings.opt.mirrored.name": "miroir",
    "cmd.settings.opt.mirrored.description": "Dessiner votre jan intérieur à gauche.",
    # -- adaptateur Discord -------------------------------------------------------------------------
    "discord.apology": "Désolé, quelque chose s’est mal passé de mon côté et rien n’a été modifié. Réessayez ; si cela se reproduit, prévenez la personne qui gère le bot.",
    # -- terminal ---------------------------------------------------------------------------------
    "terminal.welcome": "Le backgammon dans le terminal. Vous êtes {name}. Tapez /help pour les commandes, /play pour jouer contre l’ordinateur, /as NOM pour changer de joueur, /quit pour quitter.",
    "terminal.error": "Erreur inattendue : {detail}",
    "terminal.as_usage": "Tapez /as NOM pour jouer sous un autre nom.",
    "terminal.as": "Vous êtes maintenant {name}.",
    "terminal.challenge_usage": "Tapez /challenge NOM (ou opponent:NOM) [points:N] [cube:false] [rated:false].",
    "terminal.unknown": "Commande inconnue : {command}. Tapez /help.",
    "terminal.no_button": "Pas de bouton « {label} » sur le dernier message. Boutons : {buttons}.",
    "terminal.file": "[fichier : {path}]",
    "terminal.image": "[image du plateau : {path}]",
    "terminal.buttons": "Boutons : {buttons}",
    "terminal.select": "Coups entiers : {plays}",
    # -- règles et aide ---------------------------------------------------------------------------------
    "rules.text": (
        "**Les règles du backgammon, telles que ce bot les applique**\n"
        "**But** : amener vos 15 dames dans votre jan intérieur (vos cases 1 à 6), puis les "
        "sortir toutes. Vous avancez de votre case 24 vers votre case 1.\n"
        "**Ouverture** : chaque joueur lance un dé ; le plus fort commence et joue les deux dés. "
        "Égalité : on relance.\n"
        "**Déplacements** : chaque dé avance une dame d’autant de cases, vers une case qui "
        "n’est pas tenue par deux dames adverses ou plus. Une même dame peut jouer les deux dés "
        "si la case intermédiaire est libre. Un double se joue quatre fois.\n"
        "**Coups forcés** : jouez les deux dés si vous le pouvez. Si un seul peut être joué, "
        "jouez-le ; si l’un ou l’autre peut l’être, mais pas les deux, jouez le plus fort. Aucun "
        "coup possible : vous passez.\n"
        "**Prise** : s’arrêter sur une dame adverse seule l’envoie sur la barre. Une dame sur la "
        "barre doit rentrer dans le jan intérieur adverse avant tout autre déplacement.\n"
        "**Sortie** : seulement quand vos 15 dames sont rentrées : sortez une dame de la case "
        "indiquée par le dé, ou avec un dé plus fort, de votre case occupée la plus haute.\n"
        "**Videau** : avant de lancer, vous pouvez proposer de doubler l’enjeu. L’adversaire "
        "accepte (et possède le videau : lui seul pourra redoubler) ou refuse (et perd l’enjeu "
        "en cours). Le videau s’arrête à 64.\n"
        "**Gain** : une partie simple vaut le videau ; un **gammon** (le perdant n’a sorti "
        "aucune dame) le double ; un **backgammon** (il a encore une dame sur la barre ou dans "
        "votre jan intérieur) le triple. On peut proposer d’abandonner une partie simple, un "
        "gammon ou un backgammon.\n"
        "**Matchs** : le premier à N points gagne. Quand un joueur atteint N−1 pour la première "
        "fois, la partie suivante (la **partie Crawford**) se joue sans videau ; on peut de "
        "nouveau doubler ensuite."
    ),
    "help.text": (
        "**Bot de backgammon : les commandes**\n"
        "`/jouer [niveau] [points] [videau]` : jouer contre l’ordinateur ({levels}).\n"
        "`/défi adversaire [points] [videau] [classé]` : défier quelqu’un dans ce salon.\n"
        "`/déplacer coup` : jouer un coup entier en notation, comme `24/18 13/11` (l’autocomplétion "
        "propose les coups permis).\n"
        "`/reprendre`, `/plateau`, `/abandonner [valeur]` : reprendre une dame, réafficher la partie, "
        "proposer d’abandonner.\n"
        "`/classement`, `/statistiques [joueur]`, `/historique` : classements et palmarès.\n"
        "`/réglages` : langue, lancers et coups forcés automatiques, orientation du plateau.\n"
        "`/règles` : les règles.\n\n"
        "**Un tour avec les boutons** : appuyez sur **Lancer** (ou **Doubler**). Les cases d’où "
        "une dame peut partir sont en surbrillance : appuyez sur l’une d’elles pour jouer le dé "
        "choisi (changez de dé avec les boutons de dés), **Reprendre** si vous changez d’avis, "
        "puis **Confirmer**. Ou choisissez un coup entier dans le menu.\n"
        "Chaque plateau affiche son Position ID et son Match ID de GNU Backgammon."
    ),
}
