"""SIGHUP and SIGTERM end the run through SystemExit while `main` runs, and the handlers
found before are back afterwards (a test calling `main` in its own process keeps its own)."""

from __future__ import annotations

import os
import signal

import pytest

from ui.launch import end_cleanly_on_hangup


def test_sigterm_inside_is_a_system_exit_and_a_second_one_would_kill():
    with pytest.raises(SystemExit) as ended:
        with end_cleanly_on_hangup():
            os.kill(os.getpid(), signal.SIGTERM)
            signal.pause()  # the handler runs here, in the main thread
    assert ended.value.code == 128 + signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_the_handlers_found_are_restored_and_an_ignored_hangup_stays_ignored():
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as `nohup unicum` starts it
    try:
        with end_cleanly_on_hangup():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, signal.SIG_IGN)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGHUP, before)
