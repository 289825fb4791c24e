"""docker-compose.yml cannot be run here (no Docker engine); at least it must hold together."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_compose_file_declares_what_its_services_use():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    declared = set(compose.get("volumes") or {})
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if not source.startswith((".", "/")):
                assert source in declared, f"{name} uses volume {source!r}, not declared"
    app = compose["services"]["app"]["environment"]
    assert app["DATABASE_URL"].startswith("postgresql://") and app["NOTIFY_KEY_FILE"].startswith("/var/lib/keydom/")
    assert "/var/lib/keydom" in (ROOT / "Dockerfile").read_text()
