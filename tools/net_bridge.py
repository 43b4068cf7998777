"""The bridge inside the sandbox: `python -c SOURCE SOCKET PORT -- COMMAND...` listens on the
sandbox's own 127.0.0.1:PORT, forks a child that passes every connection to Unicum's proxy
through SOCKET (a Unix socket bound into the sandbox), then runs COMMAND in its place. The
command's network namespace has nothing else: the proxy (outside) decides every host.
Standard library only; its source is handed to the interpreter, never imported there."""

from __future__ import annotations

import os
import socket
import sys
import threading


def copy_until_done(src: socket.socket, dst: socket.socket) -> None:
    try:
        while chunk := src.recv(65536):
            dst.sendall(chunk)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _carry(client: socket.socket, path: str) -> None:
    with client:
        try:
            proxy = socket.socket(socket.AF_UNIX)
            proxy.connect(path)
        except OSError:
            return
        with proxy:
            back = threading.Thread(target=copy_until_done, args=(proxy, client), daemon=True)
            back.start()
            copy_until_done(client, proxy)
            back.join()


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        client, _ = listener.accept()
        threading.Thread(target=_carry, args=(client, path), daemon=True).start()


def main(argv: list[str]) -> None:
    path, port, command = argv[0], int(argv[1]), argv[3:]
    listener = socket.socket()
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    if os.fork() == 0:  # the bridge: quiet, until the sandbox goes
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _serve(listener, path)
    listener.close()
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
