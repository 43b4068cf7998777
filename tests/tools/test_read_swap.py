"""read_file against a symlink swapped in after its check, through the real CLI: a thread
keeps replacing a project file (and a folder) by a link to a secret outside the project while
the scripted model reads them 300 times; the secret never comes back (the read opens every
component without following a link), and the plain file is still read."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from tests.conftest import provider_env, run_cli

SECRET = "SENTINEL-SWAPPED-SECRET"
READS = 300


def swapper(folder: Path, secret: Path, stop: threading.Event) -> None:
    """notes.txt: a file, then a link to `secret`, then a file again, as fast as it goes;
    docs/: a folder, then a link to the secret's folder."""
    n = 0
    while not stop.is_set():
        n += 1
        plain, link = folder / f".p{n}", folder / f".l{n}"
        plain.write_text("ordinary text\n")
        link.symlink_to(secret)
        os.replace(plain, folder / "notes.txt")
        os.replace(link, folder / "notes.txt")
        docs, docs_link = folder / f".d{n}", folder / f".dl{n}"
        docs.mkdir()
        (docs / "a.txt").write_text("ordinary doc\n")
        docs_link.symlink_to(secret.parent)
        old = folder / f".old{n}"
        if (folder / "docs").exists() or (folder / "docs").is_symlink():
            os.rename(folder / "docs", old)
        os.rename(docs, folder / "docs")
        os.rename(folder / "docs", docs)
        os.rename(docs_link, folder / "docs")
        for leftover in (old, docs):
            if leftover.is_symlink():
                leftover.unlink()
            elif leftover.is_dir():
                (leftover / "a.txt").unlink()
                leftover.rmdir()


def test_a_swapped_in_symlink_is_never_followed(llm, workspace, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text(SECRET + "\n")
    secret = outside / "a.txt"
    (workspace / "notes.txt").write_text("ordinary text\n")
    for i in range(READS):  # each path spelled differently: the loop guard sees no repeat
        dots = "./" * (i // 2)
        llm.call("read_file", {"path": f"{dots}notes.txt" if i % 2 else f"docs/{dots}a.txt"})
    llm.reply("done")
    stop = threading.Event()
    thread = threading.Thread(target=swapper, args=(workspace, secret, stop), daemon=True)
    thread.start()
    try:
        args = ["--dir", str(workspace), "-p", "go", "--max-turns", str(READS + 5)]
        done = run_cli(*args, env=provider_env(llm, "openai"), timeout=180)
    finally:
        stop.set()
        thread.join()
    assert done.returncode == 0, done.stderr
    results = [m["content"] for m in llm.requests[-1].body["messages"] if m["role"] == "tool"]
    assert len(results) == READS
    assert not [r for r in results if SECRET in r]
    assert any("ordinary" in r for r in results)
