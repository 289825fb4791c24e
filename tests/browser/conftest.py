"""Playwright driving the system Chromium (no browser download)."""

from __future__ import annotations

import os
import shutil
from typing import Iterator

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")  # not session: sync Playwright keeps a loop running
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("KEYDOM_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required here (KEYDOM_REQUIRE_BROWSER) but was not found")
        pytest.skip("no system Chromium: apt-get install chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()
