"""The web board in a real headless Chromium: a game against the computer played from the page
by clicks, a move made by dragging a checker, a spectator's page following a game played
elsewhere, a finished game stepped through and checked against ``/export``'s IDs at every
action, refusals, both languages, and pictures at phone and desktop widths (skipped when the
distribution's Chromium is not installed)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.service import Reply, Service
from bot.web import Background
from bot.web.links import Links
from bot.web.server import WebServer
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, play_out, press
from tests.bot.web_browser import available, chromium, wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not available(), reason="no Chromium and chromedriver (apt: chromium)"),
]


@pytest.fixture
def links() -> Links:
    return Links(b"b" * 32, "http://127.0.0.1:0")


@pytest.fixture
def web(service: Service, links: Links) -> Iterator[Links]:
    """The web board on a port of its own; ``links`` name its real address."""
    server = Background(WebServer(service, links, "127.0.0.1", 0))
    server.start()
    links.public_url = f"http://127.0.0.1:{server.server.port}"
    yield links
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium()
    yield driver
    driver.quit()


def by(css: str) -> tuple[str, str]:
    return ("css selector", css)


def version(driver: Any) -> str:
    return str(driver.find_element(*by("body")).get_attribute("data-version"))


def drawn(driver: Any) -> None:
    wait_for(driver, lambda d: d.find_elements(*by("svg[data-position-id]")))


def changes(driver: Any, before: str) -> None:
    """Wait until the page shows a new version, or a refusal."""
    wait_for(
        driver,
        lambda d: version(d) != before or d.find_element(*by("#refusal")).is_displayed(),
    )


def at(driver: Any) -> str:
    return str(driver.find_element(*by("body")).get_attribute("data-at"))


def ids(driver: Any) -> tuple[str, str]:
    svg = driver.find_element(*by("svg"))
    return svg.get_attribute("data-position-id"), svg.get_attribute("data-match-id")


def click_move(driver: Any) -> None:
    """Click a checker that may move (unless one is picked up already: a click on it again
    would put it back), then the first point it may go to."""
    if not driver.find_elements(*by("g.selected")):
        source = driver.find_elements(*by("g.movable"))[0]
        source.find_elements(*by(".checker.me"))[-1].click()
    target = wait_for(driver, lambda d: d.find_elements(*by(".target")))[0]
    before = version(driver)
    target.click()
    changes(driver, before)


def one_click(driver: Any) -> bool:
    """The player's next decision, by clicks; False once the game is over."""
    if driver.find_element(*by("#replay")).is_displayed():
        return False
    buttons = {
        b.get_attribute("data-action"): b for b in driver.find_elements(*by("#actions button"))
    }
    for word in ("confirm", "roll", "take", "accept"):
        if word in buttons:
            before = version(driver)
            buttons[word].click()
            changes(driver, before)
            return True
    if driver.find_elements(*by("g.movable")):
        click_move(driver)
        return True
    before = version(driver)
    changes(driver, before)  # nothing to press: wait for the game to move on
    return True


def test_a_game_against_the_computer_played_by_clicks_then_replayed(
    service: Service, web: Links, browser: Any
) -> None:
    board = service.play(ALICE, CHANNEL, level="beginner", points=1)
    assert board.game_id is not None
    browser.get(web.player_url(board.game_id, ALICE.id))
    drawn(browser)
    from selenium.common.exceptions import StaleElementReferenceException

    told: list[str] = []  # what happened on the way, as the page listed it
    for _ in range(600):
        refusal = browser.find_element(*by("#refusal"))
        assert not refusal.is_displayed(), refusal.text
        try:
            if not one_click(browser):
                break
            events = browser.find_element(*by("#events"))
            if events.is_displayed():
                told += [li.text for li in events.find_elements(*by("li"))]
        except StaleElementReferenceException:
            continue  # drawn again meanwhile (the live stream): look again
    else:
        pytest.fail("the game did not end")
    state = service.web_state(board.game_id, ALICE.id, "en")
    assert state["over"]
    # The computer's rolls and plays were told, without the message's markdown.
    assert any(
        re.match(r"Computer \(beginner\) rolled \d-\d and played [^*]+\.$", line) for line in told
    )
    # The last message (its dice seed, 64 digits in one word) wraps: no sideways scroll.
    browser.set_window_size(360, 740)
    wide = "return document.documentElement.scrollWidth > document.documentElement.clientWidth"
    assert not browser.execute_script(wide)
    browser.set_window_size(1200, 900)
    # Over: no "drag a checker" any more, no live mark, no clock.
    for gone in ("#role", "#status", "#clock"):
        assert not browser.find_element(*by(gone)).is_displayed(), gone
    check_replay(service, web, browser, board.game_id)


def export_rows(service: Service, game_id: int) -> list[tuple[str, str]]:
    """``/export``'s IDs file: the Position ID and Match ID after each action."""
    reply = service.export(ALICE, CHANNEL, game_id)
    text = next(a for a in reply.attachments if a.name.endswith("-ids.txt")).data.decode()
    rows = []
    for line in text.splitlines():
        if "->" in line and not line.startswith("#"):
            pid, _, mid = line.split("->")[1].split()[0].partition(":")
            rows.append((pid, mid))
    return rows


def check_replay(service: Service, web: Links, browser: Any, game_id: int) -> None:
    rows = export_rows(service, game_id)
    assert len(rows) > 10
    browser.get(web.game_url(game_id, at=0))
    drawn(browser)
    for k, row in enumerate(rows, start=1):
        browser.find_element(*by("#replay [data-action=next]")).click()
        wait_for(
            browser, lambda d, k=k: d.find_element(*by("body")).get_attribute("data-at") == str(k)
        )
        assert ids(browser) == row, f"action {k}"
    browser.find_element(*by("#replay [data-action=first]")).click()
    wait_for(browser, lambda d: at(d) == "0")
    browser.find_element(*by("body")).send_keys("\ue014")  # the right arrow key
    wait_for(browser, lambda d: at(d) == "1")
    assert ids(browser) == rows[0]
    # Pressed faster than the server answers (and than its limit lets through), every step
    # counts: ten presses at once land on the tenth action, none lost.
    browser.find_element(*by("body")).send_keys("\ue014" * 10)
    wait_for(browser, lambda d: at(d) == "11")
    assert ids(browser) == rows[10]
    middle = len(rows) // 2
    browser.get(web.game_url(game_id, at=middle))  # a link to one move
    drawn(browser)
    assert ids(browser) == rows[middle - 1]
    assert browser.find_element(*by("#mat")).get_attribute("href").endswith("/game.mat")


def test_a_checker_moved_by_dragging(service: Service, web: Links, browser: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    board = service.play(BOB, CHANNEL, level="beginner")
    assert board.game_id is not None
    browser.get(web.player_url(board.game_id, BOB.id))
    drawn(browser)
    while not browser.find_elements(*by("g.movable")):
        one_click(browser)  # roll (the computer may have opened)
    source = browser.find_elements(*by("g.movable"))[0]
    src = source.get_attribute("data-point")
    source.find_elements(*by(".checker.me"))[-1].click()  # shows where it may go...
    target = wait_for(browser, lambda d: d.find_elements(*by(".target")))[0]
    dst = target.get_attribute("data-point")
    source = browser.find_element(*by(f'[data-point="{src}"]'))
    source.find_elements(*by(".checker.me"))[-1].click()  # ...and puts it back
    assert not browser.find_elements(*by(".target"))
    before_checkers = service.web_state(board.game_id, BOB.id, "en")["mine"]
    xgid_name = browser.find_element(*by("#xgid-name"))
    assert xgid_name.text == "XGID"
    before = version(browser)
    checker = browser.find_element(*by(f'[data-point="{src}"]')).find_elements(*by(".checker.me"))[
        -1
    ]
    target = browser.find_element(*by(f'[data-point="{dst}"]'))
    ActionChains(browser).click_and_hold(checker).move_by_offset(3, 3).move_to_element(
        target
    ).release().perform()
    changes(browser, before)
    after = service.web_state(board.game_id, BOB.id, "en")
    assert not browser.find_element(*by("#refusal")).is_displayed()
    assert after["mine"] != before_checkers  # the checker moved, through the service
    # The Position ID is now the position drawn; the XGID stays the turn's start, and says so.
    assert browser.find_element(*by("#xgid-name")).text == "XGID at the turn's start"
    assert browser.find_element(*by("#pid")).text == after["position_id"]
    # The longer label wraps, not the Position ID: it stays whole on one line.
    lines = browser.execute_script(
        """const pid = document.getElementById("pid");
        return pid.getBoundingClientRect().height / parseFloat(getComputedStyle(pid).lineHeight);"""
    )
    assert lines < 1.5, lines


def accepted(service: Service, script: deque[int]) -> Reply:
    made = service.challenge(ALICE, CHANNEL, BOB, points=3)
    script.extend([5, 2])
    return press(service, BOB, made, "Accept")


def test_a_spectator_page_follows_a_game_played_elsewhere(
    service: Service, web: Links, browser: Any, script: deque[int]
) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    browser.get(web.game_url(board.game_id))
    drawn(browser)
    assert not browser.find_elements(*by("#actions button"))  # a spectator never acts
    wait_for(browser, lambda d: d.find_element(*by("body")).get_attribute("data-live") == "1")
    for label in ("13", "13"):  # Alice plays 13/8 13/11 from her board message
        board = press(service, ALICE, board, label)
        wait_for(browser, lambda d, b=board: ids(d)[0] == b.position_id)
    board = press(service, ALICE, board, "Confirm")
    wait_for(browser, lambda d, b=board: ids(d) == (b.position_id, b.match_id))
    arrows = browser.find_elements(*by("path.arrow"))
    assert len(arrows) == 2


def test_each_player_sees_his_own_colour_and_the_other_page_whose_move_it_is(
    service: Service, web: Links, browser: Any, script: deque[int]
) -> None:
    # The headline says Alice ○ vs Bob ●: Bob's page draws his own checkers (at the bottom)
    # dark. While Alice moves, his page says so, without instructions it cannot follow.
    board = accepted(service, script)
    assert board.game_id is not None

    def fill(css: str) -> str:
        script = "return getComputedStyle(document.querySelector(arguments[0])).fill"
        return str(browser.execute_script(script, css))

    dark, light = "rgb(42, 42, 42)", "rgb(244, 241, 234)"
    for user, mine, theirs in ((BOB, dark, light), (ALICE, light, dark)):
        browser.get(web.player_url(board.game_id, user.id))
        drawn(browser)
        assert (fill(".checker.me"), fill(".checker.them")) == (mine, theirs), user
    browser.get(web.player_url(board.game_id, BOB.id) + "&lang=fr")
    drawn(browser)
    assert browser.find_element(*by("#prompt")).text == "Alice a fait 5-2 et joue son coup."
    # The centred cube sits on the bar: a tap on it is the bar's (a checker to enter).
    tapped = browser.execute_script(
        """const r = document.querySelector(".cube rect").getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const point = hit && hit.closest("[data-point]");
        return point ? point.dataset.point : null;"""
    )
    assert tapped == "25"


def test_arrows_along_one_row_arc_apart_and_the_dice_read_high_first(
    service: Service, web: Links, browser: Any, script: deque[int], tmp_path: Path
) -> None:
    # 8/3 6/4 along the bottom row: drawn straight at one height, the 6/4 arrow lay on the
    # 8/3 one and the two read as one. Each arcs over the field, the longer one higher.
    board = accepted(service, script)
    assert board.game_id is not None
    moved = service.move(ALICE, CHANNEL, "8/3 6/4")
    browser.get(web.game_url(board.game_id))
    drawn(browser)
    heights = browser.execute_script(
        "return [...document.querySelectorAll('path.arrow')].map((a) => a.getBBox().height)"
    )
    assert len(heights) == 2 and min(heights) > 5 and abs(heights[0] - heights[1]) > 5, heights
    browser.save_screenshot(str(tmp_path / "arrows.png"))
    # Bob rolls 1 then 3: drawn 3 then 1, high first, as the message says "rolled 3-1".
    script.extend([1, 3])
    press(service, BOB, moved, "Roll")
    browser.get(web.game_url(board.game_id))
    drawn(browser)
    faces = browser.execute_script(
        "return [...document.querySelectorAll('g.die')].map((d) => d.dataset.die)"
    )
    assert faces == ["3", "1"]


def test_the_players_rows_stay_one_line_on_a_phone(
    service: Service, web: Links, browser: Any, tmp_path: Path
) -> None:
    # "Ordinateur (classe mondiale)", its pips and the score wrapped into three columns of
    # two lines at 360 px: the name is cut short instead (the headline has it whole).
    start = service.play(ALICE, DM, level="world class", points=3)
    assert start.game_id is not None
    browser.set_window_size(360, 800)
    try:
        browser.get(web.player_url(start.game_id, ALICE.id) + "&lang=fr")
        drawn(browser)
        rows = browser.execute_script(
            "return [...document.querySelectorAll('.player')].map((r) => r.offsetHeight)"
        )
        line = browser.execute_script(
            "return parseFloat(getComputedStyle(document.body).lineHeight)"
        )
        assert len(rows) == 2 and max(rows) < 1.8 * line, (rows, line)
        browser.save_screenshot(str(tmp_path / "rows-360.png"))
    finally:
        browser.set_window_size(1200, 900)


def test_refusals_and_languages(
    service: Service, web: Links, browser: Any, script: deque[int], tmp_path: Path
) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    browser.get(web.player_url(board.game_id, BOB.id) + "&lang=fr")
    drawn(browser)
    assert browser.find_element(*by("html")).get_attribute("lang") == "fr"
    assert browser.find_element(*by("#role")).text == t("web.player", "fr")
    stale, forged, other = browser.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const boot = JSON.parse(document.getElementById("boot").textContent);
        const now = Number(document.body.dataset.version);
        const send = (token, version) => fetch(location.pathname + "/act" + location.search, {
            method: "POST", headers: {"X-Page-Token": token, "Content-Type": "application/json"},
            body: JSON.stringify({version: version, action: "undo"})}).then((r) => r.json());
        Promise.all([send(boot.page, now - 1), send("forged.token", now), send(boot.page, now)])
            .then((r) => done([r[0].text, r[1].text, r[2].text]));"""
    )
    assert stale == t("web.stale", "fr")
    assert forged == t("web.forged", "fr")
    assert other == t("error.not_your_turn", "fr")  # Alice's turn: Bob's link may not act
    # The other player's page: Bob may not move Alice's checkers (not his turn), only resign.
    script = "return [...document.querySelectorAll('#actions button')].map(b => b.dataset.action)"
    assert browser.execute_script(script) == ["resign"]  # read in one step: none goes stale
    browser.find_element(*by("#lang")).click()  # the language switch
    wait_for(browser, lambda d: d.find_element(*by("html")).get_attribute("lang") == "en")
    assert browser.find_element(*by("#role")).text == t("web.player", "en")
    for width, name in ((360, "phone"), (1200, "desktop")):
        browser.set_window_size(width, 900)
        browser.get(web.player_url(board.game_id, ALICE.id))
        drawn(browser)
        svg = browser.find_element(*by("svg"))
        assert svg.size["width"] <= width
        browser.save_screenshot(str(tmp_path / f"web-board-{name}.png"))
    browser.set_window_size(1200, 900)


def finished_game(service: Service) -> int:
    start = service.play(ALICE, DM, level="beginner", points=1)
    play_out(service, ALICE, DM, start)
    assert start.game_id is not None
    return start.game_id


def test_a_reviewed_game_stepped_to_its_errors(
    service: Service, web: Links, browser: Any, quick_reviews: None, tmp_path: Path
) -> None:
    game = finished_game(service)
    assert not service.review(ALICE, DM, game).ephemeral
    count = service.web_state(game, None, "en")["actions_count"]
    wrong = next(
        at
        for at in range(1, count + 1)
        if (d := service.web_state(game, None, "en", at=at)["review"]["decision"])
        and d["mark"]
        and service.web_state(game, None, "en", at=at)["best_arrows"]
    )
    expected = service.web_state(game, None, "en", at=wrong)
    browser.set_window_size(1280, 900)
    browser.get(web.game_url(game, at=wrong - 1))
    drawn(browser)
    browser.find_element(*by("#replay [data-action=next]")).click()
    wait_for(browser, lambda d: at(d) == str(wrong))
    decision = expected["review"]["decision"]
    assert browser.find_element(*by("#decision-text")).text == decision["text"].replace("**", "")
    assert browser.find_element(*by("#mark")).text.lower() == decision["mark_text"]
    assert browser.find_element(*by("#decision")).get_attribute("class") == decision["mark"]
    best = browser.find_elements(*by("path.arrow.best"))
    assert len(best) == len(expected["best_arrows"]) > 0  # the better play, drawn
    assert browser.find_elements(*by("path.arrow.me, path.arrow.them"))  # beside the played
    prs = [li.text for li in browser.find_elements(*by("#prs li"))]
    assert len(prs) == 2 and all("PR " in p for p in prs), prs
    assert browser.find_elements(*by("#chart polyline.chances"))
    assert not browser.find_element(*by("#ask-review")).is_displayed()
    for width, name in ((360, "phone"), (1280, "desktop")):
        browser.set_window_size(width, 900)
        browser.get(web.game_url(game, at=wrong))
        drawn(browser)
        assert browser.find_element(*by("#decision")).is_displayed()
        browser.save_screenshot(str(tmp_path / f"web-review-{name}.png"))
        page = browser.find_element(*by("#review"))
        browser.execute_script("arguments[0].scrollIntoView()", page)
        browser.save_screenshot(str(tmp_path / f"web-review-{name}-panel.png"))
    # A click on the chart goes to that moment.
    browser.set_window_size(1200, 900)
    chart = browser.find_element(*by("#chart svg"))
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).move_to_element_with_offset(chart, 0, 0).click().perform()
    wait_for(browser, lambda d: at(d) not in ("", str(wrong)))


def test_the_review_asked_for_from_the_page(
    service: Service, web: Links, browser: Any, quick_reviews: None
) -> None:
    game = finished_game(service)
    browser.get(web.game_url(game, at=4) + "&lang=fr")
    drawn(browser)
    ask = browser.find_element(*by("#ask-review"))
    assert ask.text == t("web.review.ask", "fr")
    ask.click()
    wait_for(browser, lambda d: d.find_elements(*by("#prs li")))
    assert browser.find_element(*by("#review-title")).text == t("web.review.title", "fr")
    assert not browser.find_element(*by("#ask-review")).is_displayed()
    assert at(browser) == "4"


def test_the_replay_buttons_show_their_whole_words(
    service: Service, web: Links, browser: Any, tmp_path: Path
) -> None:
    # "Précédent" was cut at 1200 px: four buttons squeezed into the side column on one row.
    game = finished_game(service)
    for width in (360, 1200):
        browser.set_window_size(width, 900)
        browser.get(web.game_url(game, at=1) + "&lang=fr")
        drawn(browser)
        buttons = browser.find_elements(*by("#replay .steps button"))
        assert [b.text for b in buttons][1] == t("web.prev", "fr")
        cut = [
            b.text
            for b in buttons
            if browser.execute_script(
                "return arguments[0].scrollWidth > arguments[0].clientWidth", b
            )
        ]
        browser.save_screenshot(str(tmp_path / f"web-replay-{width}.png"))
        assert not cut, (width, cut)
    browser.set_window_size(1200, 900)


def test_an_unknown_address_gets_the_boards_page_and_its_links_work(
    browser: Any, web: Links, tmp_path: Path
) -> None:
    """The page of an address with nothing there: drawn in the board's style (its sheet found
    from a deep address), in the browser's language, its switch and its link back working."""
    browser.get(web.public_url + "/g/12/nothing/here/")
    wait_for(browser, lambda d: d.find_element(*by("#notice-text")).text)
    assert browser.find_element(*by("#notice-text")).text == t("web.not_found", "en")
    assert browser.find_element(*by("h1")).text == t("web.not_found_title", "en")
    back = browser.find_element(*by("#back"))
    felt = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", back)
    assert felt == "rgb(47, 107, 63)"  # board.css's --felt: the style sheet was found
    for width in (360, 1200):
        browser.set_window_size(width, 900)
        browser.save_screenshot(str(tmp_path / f"web-not-found-{width}.png"))
    browser.set_window_size(1200, 900)
    browser.find_element(*by("#lang")).click()  # the language switch
    wait_for(browser, lambda d: d.find_element(*by("html")).get_attribute("lang") == "fr")
    assert browser.find_element(*by("#notice-text")).text == t("web.not_found", "fr")
    browser.find_element(*by("#back")).click()  # back where the tab came from: English
    wait_for(browser, lambda d: d.find_element(*by("html")).get_attribute("lang") == "en")
    assert browser.current_url.endswith("/g/12/nothing/here/")
