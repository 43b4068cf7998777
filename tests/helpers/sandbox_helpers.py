"""A fake HOME full of sentinel files, a throwaway git project, and the real CLI run against the
scripted model with the commands a test gives it (shared by tests/tools/test_sandbox*.py and bench)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SENTINELS = {
    ".bashrc": "export SENTINEL_BASHRC=1\n",
    ".profile": "sentinel profile\n",
    "notes/keep.txt": "sentinel notes\n",
    "notes/deep/more.txt": "sentinel deep\n",
    "other-project/src/main.py": "print('sentinel other project')\n",
    ".ssh/id_rsa": "SENTINEL-SSH-PRIVATE-KEY\n",
    ".aws/credentials": "[default]\naws_secret_access_key = SENTINEL-AWS\n",
    ".config/gcloud/credentials.db": "SENTINEL-GCLOUD\n",
    ".gnupg/secring.gpg": "SENTINEL-GNUPG\n",
    ".netrc": "machine example.com login me password SENTINEL-NETRC\n",
    ".docker/config.json": '{"auths": {"x": {"auth": "SENTINEL-DOCKER"}}}\n',
    ".claude/.credentials.json": '{"token": "SENTINEL-CLAUDE"}\n',
    ".unicum-agent/.env": "OPENAI_API_KEY=SENTINEL-UNICUM-ENV\n",
}
SECRET_MARKS = ("SENTINEL-SSH", "SENTINEL-AWS", "SENTINEL-GCLOUD", "SENTINEL-GNUPG")
SECRET_MARKS += ("SENTINEL-NETRC", "SENTINEL-DOCKER", "SENTINEL-CLAUDE", "SENTINEL-UNICUM")


def visible_tmp_root() -> Path:
    """Somewhere outside /tmp (the sandbox's /tmp is private, so files there are not even
    visible inside it): /var/tmp when writable, else the system temp folder."""
    root = Path("/var/tmp")
    return root if os.access(root, os.W_OK) else Path(tempfile.gettempdir())


def make_home(root: Path) -> Path:
    home = root / "home"
    for rel, text in SENTINELS.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (home / "notes" / "run.sh").write_text("#!/bin/sh\necho sentinel script\n")
    os.chmod(home / "notes" / "run.sh", 0o755)
    return home


def make_project(root: Path) -> Path:
    project = root / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('app')\n")
    (project / "README.md").write_text("# demo\n")
    (project / ".gitignore").write_text("build/\n*.log\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    subprocess.run([*git, "branch", "feature"], check=True)
    return project


def tree_digest(folder: Path, skip: str = ".unicum-agent") -> str:
    """Names, modes, link targets and bytes of everything under `folder` but the Unicum home
    (`skip`, where the CLI itself writes; only its `.env` counts)."""
    h = hashlib.sha256()
    env = folder / skip / ".env"
    if env.is_file():
        h.update(env.read_bytes())
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if Path(dirpath, d) != folder / skip)
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            st = path.lstat()
            h.update(f"{path.relative_to(folder)}\0{st.st_mode}\0".encode())
            if path.is_symlink():
                h.update(os.readlink(path).encode())
            elif path.is_file():
                h.update(path.read_bytes())
    return h.hexdigest()


def farm_without(program: str, where: Path) -> Path:
    """A PATH folder with every program of the usual folders but `program` (missing bwrap)."""
    where.mkdir(parents=True, exist_ok=True)
    for folder in ("/usr/local/bin", "/usr/bin", "/bin"):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            link = where / name
            if name != program and not link.exists():
                link.symlink_to(os.path.join(folder, name))
    return where


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def sandbox_problem() -> str:
    """Why the real sandbox cannot run here ("" when it can)."""
    from tools.sandbox import Sandbox, SandboxPolicy

    return Sandbox(SandboxPolicy(), Path.cwd(), Path(tempfile.gettempdir())).problem


def new_world() -> tuple[Path, Path, Path, Path]:
    """(root, fake HOME, project, scratch folder outside both), in a folder the sandbox sees."""
    root = Path(tempfile.mkdtemp(prefix="unicum-sbx-test-", dir=visible_tmp_root()))
    home, project = make_home(root), make_project(root)
    (root / "outside").mkdir()
    return root, home, project, root / "outside"


def sandbox_cli(llm, home: Path, project: Path, *extra: str, env: dict[str, str] | None = None):
    """The real CLI (`-p go`) on `project` with the fake `home`, pointed at the scripted `llm`."""
    from tests.conftest import provider_env, run_cli

    full = {**provider_env(llm, "openai"), "HOME": str(home), **(env or {})}
    full["UNICUM_HOME"] = str(home / ".unicum-agent")
    full.setdefault("FAKE_PARENT_SECRET", "fake-parent-env-value")
    args = ["--dir", str(project), "-p", "go", "--provider", "openai", "--no-codemap"]
    return run_cli(*args, *extra, env=full, timeout=180)


def tool_results(llm) -> list[str]:
    """The tool results of the last request the scripted model received."""
    return [m["content"] for m in llm.requests[-1].body["messages"] if m["role"] == "tool"]
