"""One command's way out of the sandbox: Unicum's egress proxy listening on a Unix socket of
its own (bound into the sandbox, where tools/net_bridge.py carries 127.0.0.1 connections to
it), deciding every host by the rules (tools/net_rules.py) and, for a host they do not name,
by the user: the question goes to the thread running the command (`pump`), as every other
approval does. Hosts refused are kept for the command's one-line status."""

from __future__ import annotations

import ipaddress
import itertools
import queue
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tools.net_proxy import serve
from tools.net_rules import ALLOW, DENY, NetworkRules

Ask = Callable[[str], str]  # host -> "" (approved) or the refusal, as the model reads it
UNLISTED, DENIED = "unlisted", "denied"
_COUNTER = itertools.count(1)


class Egress:
    """Start it, run the command with `socket_path` bound in, `pump` while it runs, close."""

    def __init__(self, folder: Path, rules: NetworkRules, ask: Ask | None) -> None:
        self.rules = rules
        self.ask = ask  # None: the command did not ask for the network; unlisted hosts fail
        self.socket_path = str(folder / f"egress-{next(_COUNTER)}.sock")
        self.refused: dict[str, str] = {}  # host -> UNLISTED, DENIED or the user's refusal
        self._decided: dict[str, str] = {}  # host -> "" or why not
        self._lock = threading.Lock()
        self._questions: queue.Queue[tuple[str, threading.Event, list[str]]] = queue.Queue()
        self._stop = threading.Event()
        self._listener = socket.socket(socket.AF_UNIX)
        self._listener.bind(self.socket_path)
        self._listener.listen(64)
        self._listener.settimeout(0.2)
        threading.Thread(target=self._accept, name="unicum-egress", daemon=True).start()

    def __enter__(self) -> Egress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        self._listener.close()
        Path(self.socket_path).unlink(missing_ok=True)
        while not self._questions.empty():  # a question nobody will answer now: refused
            host, done, answer = self._questions.get_nowait()
            answer.append("the command ended before the user answered")
            done.set()

    def pump(self, wait: float) -> float:
        """Answer the proxy's pending questions on this thread (waiting up to `wait` for one);
        the seconds spent asking (so the command's time limit can leave them out)."""
        try:
            host, done, answer = self._questions.get(timeout=wait)
        except queue.Empty:
            return 0.0
        started = time.monotonic()
        answer.append(self.ask(host) if self.ask else UNLISTED)
        done.set()
        return time.monotonic() - started

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            threading.Thread(
                target=serve, args=(client, self.decide, self.resolve), daemon=True
            ).start()

    def decide(self, host: str, port: int) -> str:
        """ "" when the command may reach `host:port`, else the line its 403 carries."""
        host = host.lower().rstrip(".")
        verdict = self.rules.decide(host, port)
        if verdict == ALLOW:
            return ""
        if verdict == DENY:
            return self._refuse(host, DENIED)
        with self._lock:  # one question per host, however many connections wait for it
            if host not in self._decided:
                self._decided[host] = self._question(host)
        why = self._decided[host]
        return self._refuse(host, why) if why else ""

    def _question(self, host: str) -> str:
        if self.ask is None:
            return UNLISTED
        done, answer = threading.Event(), []
        self._questions.put((host, done, answer))
        while not done.wait(0.2):
            if self._stop.is_set():
                return "the command ended before the user answered"
        return answer[0]

    def _refuse(self, host: str, why: str) -> str:
        self.refused[host] = why
        reasons = {
            UNLISTED: "not on the allow-list; the command did not ask for the network",
            DENIED: "in sandbox.network.deniedDomains",
        }
        return f"unicum sandbox: {host} is not allowed ({reasons.get(why, 'refused')})"

    def resolve(self, host: str, port: int) -> tuple[str, int]:
        """The address to connect: `hosts` first, else a lookup; a name that resolves to a
        loopback or private address is refused (allow the address itself to reach it)."""
        if host in self.rules.hosts:
            return self.rules.hosts[host], port
        if _is_ip(host):
            return host, port
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        address = str(infos[0][4][0])
        if not ipaddress.ip_address(address).is_global:
            raise OSError(f"{host} resolves to {address}, a private address; allow {address}")
        return address, port


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
