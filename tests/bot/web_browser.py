"""A headless Chromium for the web board's tests and figures (the distribution's ``chromium``
and ``chromium-driver``, driven by Selenium); None when either is missing."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def available() -> bool:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM is not None and DRIVER is not None


def chromium(width: int = 1200, height: int = 900, lang: str = "en-US") -> Any:
    """A new headless Chromium with a fresh profile (quit it when done)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}"):
        options.add_argument(flag)
    options.add_argument(f"--lang={lang}")
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER or ""))
    driver.set_window_size(width, height)
    return driver


def wait_for(driver: Any, condition: Callable[[Any], Any], seconds: float = 60) -> Any:
    """Wait until ``condition`` holds. The page redraws its board on every change: an element
    found just before a redraw is gone when read (stale), which only means "look again"."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    again = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=again).until(
        condition
    )
