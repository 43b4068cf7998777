"""Redaction of common secret names, `.env` values and key shapes, on disk too."""

from __future__ import annotations

import json
from pathlib import Path

from core.agent.records.debug_log import DebugLog
from core.agent.records.transcript import Transcript
from my_agent.messages import Message, TextBlock, user_text
from my_agent.secrets import holds_secret, redact, secret_values

ENV = {
    "AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE1234",
    "DATABASE_URL": "postgres://app:fake-pw-4417@db:5432/app",
    "GH_PAT": "fake-gh-pat-000111222",
    "SLACK_WEBHOOK_URL": "https://hooks.example.invalid/services/fake-hook-9",
    "GCP_CREDENTIALS": "fake-gcp-credentials-json",
    "TLS_PEM": "fake-pem-body-abcdef",
    "HOME": "/home/someone",
}


def test_common_secret_names_are_redacted_and_ordinary_values_kept():
    text = " ".join(ENV.values())
    out = redact(text, secret_values(ENV))
    for name, value in ENV.items():
        if name == "DATABASE_URL":
            assert "fake-pw-4417" not in out and "postgres://app:" in out
        elif name == "HOME":
            assert value in out
        else:
            assert value not in out, name


def test_dotenv_values_are_redacted_even_when_the_environment_has_the_same_name(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("PROJECT_API_KEY=fake-dotenv-value-1\nMODE=production\n")
    secrets = secret_values({"PROJECT_API_KEY": "fake-other-value-2"}, [env_file])
    out = redact("fake-dotenv-value-1 fake-other-value-2 production", secrets)
    assert out == "[redacted] [redacted] production"


def test_key_shapes_are_found_by_the_detector_without_any_variable():
    token = "ghp_" + "Ab1" * 12
    pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEfake\n-----END RSA PRIVATE KEY-----"
    text = f"AKIAIOSFODNN7EXAMPLE {token} xoxb-123456789012-123456789012-abcdefABCDEF {pem}"
    out = redact(text, [])
    assert out.count("[redacted]") == 4 and "MIIEfake" not in out
    assert holds_secret(token, []) and not holds_secret("commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f", [])


def test_transcripts_and_debug_logs_hold_no_secret(tmp_path: Path):
    secret = "fake-session-secret-77"
    path = tmp_path / "s.jsonl"
    transcript = Transcript(path, secrets=[secret])
    transcript.sync(
        [user_text(f"use {secret}"), Message("assistant", [TextBlock("ghp_" + "x1" * 18)])]
    )
    log = DebugLog(tmp_path, "s", [secret])
    log.write("request", {"messages": [{"content": f"key {secret}"}]})
    for text in (path.read_text(), log.path.read_text()):
        assert secret not in text and "ghp_" not in text and "[redacted]" in text
        assert all(json.loads(line) for line in text.splitlines())
