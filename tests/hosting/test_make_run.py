"""`make run` installs only what the server needs; the test tools come with `make test`.
Checked with `make -n` (prints the commands, runs nothing) against a venv that does not exist."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def planned(target: str, tmp_path: Path) -> str:
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    done = subprocess.run(["make", "-n", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_installs_the_server_without_the_test_tools(tmp_path):
    run = planned("run", tmp_path)
    assert "pip install --quiet -e ." in run and "[test]" not in run and "-m app" in run


def test_make_test_adds_the_test_tools(tmp_path):
    test = planned("test", tmp_path)
    assert "pip install --quiet -e ." in test and "-e '.[test]'" in test and "pytest" in test
