"""pyright's references for bench/referee.py: its language server (`pyright-langserver
--stdio`, from npm: `npm install --prefix ~/.cache/unicum-referee pyright`) asked
`textDocument/references` for each target over JSON-RPC on stdio. Standard library only."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from urllib.parse import unquote, urlparse


class LanguageServer:
    """A minimal LSP client: requests in order, the server's own requests answered."""

    def __init__(self, command: list[str], root: Path) -> None:
        self.root = root.resolve()
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.lock = threading.Lock()
        self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.root.as_uri(),
                "workspaceFolders": [{"uri": self.root.as_uri(), "name": "project"}],
                "capabilities": {"workspace": {"configuration": True}},
                "initializationOptions": {},
            },
        )
        self.notify("initialized", {})
        self.opened: set[str] = set()

    def _send(self, body: dict) -> None:
        data = json.dumps(body).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def _read(self) -> dict:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the language server exited")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> object:
        self.next_id += 1
        mine = self.next_id
        self._send({"jsonrpc": "2.0", "id": mine, "method": method, "params": params})
        while True:
            message = self._read()
            if "method" in message and "id" in message:  # the server asks something
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": _answer(message)})
            elif message.get("id") == mine and "method" not in message:
                if "error" in message:
                    raise RuntimeError(message["error"].get("message", "error"))
                return message.get("result")

    def open(self, rel: str) -> str:
        path = self.root / rel
        uri = path.as_uri()
        if rel not in self.opened:
            text = path.read_text(encoding="utf-8", errors="replace")
            item = {"uri": uri, "languageId": "python", "version": 1, "text": text}
            self.notify("textDocument/didOpen", {"textDocument": item})
            self.opened.add(rel)
        return uri

    def references(self, rel: str, line: int, column: int) -> list[list]:
        uri = self.open(rel)
        found = self.request(
            "textDocument/references",
            {
                "textDocument": {"uri": uri},
                "position": {"line": line - 1, "character": column},
                "context": {"includeDeclaration": False},
            },
        )
        out = []
        for loc in found or []:
            path = Path(unquote(urlparse(loc["uri"]).path))
            try:
                where = path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                continue  # a reference outside the project (typeshed, site-packages)
            start = loc["range"]["start"]
            out.append([where, start["line"] + 1, start["character"]])
        return out

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _answer(message: dict) -> object:
    if message["method"] == "workspace/configuration":
        items = message.get("params", {}).get("items", [])
        return [_settings(i.get("section", "")) for i in items]
    return None


def _settings(section: str) -> object:
    if section == "python.analysis":
        return {"diagnosticMode": "workspace", "typeCheckingMode": "off"}
    if section == "python":
        return {"analysis": {"diagnosticMode": "workspace"}}
    return {}


def pyright_references(
    modules: Path, root: Path, targets: list[list]
) -> tuple[str, list[list[list]]]:
    """(version, one reference list per target) from pyright installed under `modules`."""
    package = modules / "pyright"
    version = json.loads((package / "package.json").read_text())["version"]
    server = LanguageServer(["node", str(package / "langserver.index.js"), "--stdio"], root)
    try:
        if targets:  # the first answer comes before the workspace is read: ask it twice
            server.references(*targets[0])
        answers = [server.references(p, line, col) for p, line, col in targets]
    finally:
        server.close()
    return f"pyright {version}", answers
