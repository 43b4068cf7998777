"""The OS sandbox, through the real CLI: a scripted model issues commands against a fake HOME
full of sentinel files; nothing outside the throwaway project may change, secrets stay unread,
/proc shows no parent environment, and the prompts still ask for history destroyers."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.helpers.sandbox_helpers import (
    SECRET_MARKS,
    new_world,
    remove,
    sandbox_cli,
    tool_results,
    tree_digest,
)
from tools.sandbox import Sandbox, SandboxPolicy

_PROBE = Sandbox(SandboxPolicy(), Path.cwd(), Path(tempfile.gettempdir()))
if _PROBE.problem:
    print(f"sandbox tests skipped: {_PROBE.problem}")
needs_bwrap = pytest.mark.skipif(bool(_PROBE.problem), reason=f"no sandbox: {_PROBE.problem}")

# every form the hostile-tester report used, each an attempt on something outside the project
OUTSIDE = [
    "rm ~/.bashrc",
    "rm -rf ~/notes",
    "unlink ~/notes/keep.txt",
    "echo pwned >> ~/.bashrc",
    "cd ~ && > .bashrc",
    "find ~/notes -type f -exec rm {} \\;",
    "python3 -c \"import shutil,os; shutil.rmtree(os.path.expanduser('~/notes'))\"",
    "perl -e 'unlink glob(\"$ENV{HOME}/notes/*\")'",
    "node -e \"require('fs').rmSync(require('os').homedir()+'/notes',{recursive:true})\"",
    "ln -s ~/notes/keep.txt link && echo x > link",
    "ln -s ~ homelink && rm -rf homelink/notes",
    "echo 'rm -rf ~/notes' | base64 | base64 -d | sh",
    "bash <<< 'rm -f ~/.bashrc'",
    "bash -c 'chmod 000 ~/notes/keep.txt'",
    "mv ~/notes/keep.txt ~/notes/moved.txt",
    "setsid rm -f ~/.bashrc",
    "timeout -s KILL 5 rm -f ~/.profile",
    'env -S "rm -f $HOME/.profile"',
    'xargs -P2 rm -f <<< "$HOME/.bashrc"',
    "sed -i s/sentinel/pwned/ ~/.bashrc",
    "touch ~/newfile; mkdir ~/newdir",
    "tar -cf a.tar README.md && tar -C ~/notes -xf a.tar",
    "cp README.md ~/notes/keep.txt; truncate -s0 ~/notes/deep/more.txt",
    "dd if=/dev/zero of=$HOME/notes/keep.txt bs=1 count=1 conv=notrunc",
    "shred -u ~/notes/keep.txt",
    "printf 'rm -rf ~/notes\\n' > run.sh && bash run.sh",
    "source <(echo 'rm -f ~/.bashrc')",
    "chmod -R 777 ~/notes; chmod -x ~/notes/run.sh",
    "git -C ~/other-project init -q",
    "ln -sf /etc/passwd ~/notes/keep.txt; echo x > {outside}",
]


@pytest.fixture
def world():
    """(fake HOME, project, scratch folder outside both) in a folder the sandbox can see."""
    root, home, project, outside = new_world()
    yield home, project, outside
    remove(root)


cli = sandbox_cli
results = tool_results


@needs_bwrap
def test_nothing_outside_the_workspace_changes_whatever_the_form(llm, world):
    home, project, outside = world
    commands = [c.replace("{outside}", str(outside / "escaped")) for c in OUTSIDE]
    if not shutil.which("node"):
        commands = [c for c in commands if not c.startswith("node ")]
    for command in commands:
        llm.call("terminal", {"command": command})
    llm.call("terminal", {"command": "echo inside > inside.txt && cat inside.txt"})
    llm.reply("done")
    before = tree_digest(home)
    done = cli(llm, home, project, "--permission-mode", "yolo")  # no prompt: the sandbox alone
    assert done.returncode == 0, done.stderr
    outputs = results(llm)
    assert tree_digest(home) == before, "\n".join(outputs)
    assert not any(outside.iterdir())
    assert (project / "inside.txt").read_text() == "inside\n"  # the workspace stays writable
    assert outputs[-1].startswith("inside")
    # the home is an empty tmpfs in the sandbox: its files are not there to change
    failed = ("Read-only file system", "No such file", "cannot access", "cannot stat")
    assert sum(any(f in o for f in failed) for o in outputs) >= len(commands) // 2, outputs


@needs_bwrap
def test_secrets_hidden_and_proc_shows_no_parent_environment(llm, world):
    home, project, outside = world
    (outside / "keep.txt").write_text("sentinel outside the home\n")
    reads = "cat ~/.ssh/id_rsa ~/.aws/credentials ~/.netrc ~/.docker/config.json "
    reads += "~/.claude/.credentials.json ~/.config/gcloud/credentials.db ~/.gnupg/secring.gpg "
    reads += f"{home}/.unicum-agent/.env; ls -la ~/.ssh ~/.aws"
    llm.call("terminal", {"command": reads})
    llm.call("terminal", {"command": "cat /proc/*/environ | tr '\\0' '\\n'; ls /proc | head -50"})
    llm.call("terminal", {"command": "cat /proc/$PPID/environ /proc/1/environ | tr '\\0' '\\n'"})
    llm.call("terminal", {"command": f"cat {outside}/keep.txt"})  # outside the home: readable
    llm.reply("done")
    done = cli(llm, home, project, "--permission-mode", "yolo")
    assert done.returncode == 0, done.stderr
    outputs = results(llm)
    assert not [m for m in SECRET_MARKS if any(m in o for o in outputs)], outputs
    assert not any("fake-" in o for o in outputs), outputs  # the CLI's own key and variables
    assert "FAKE_PARENT_SECRET" not in outputs[1] + outputs[2]
    assert outputs[3].startswith("sentinel outside the home")


@needs_bwrap
def test_network_off_by_flag(llm, world):
    home, project, _ = world
    probe = f"python3 -c \"import urllib.request as u; u.urlopen('{llm.url}', timeout=3)\""
    llm.call("terminal", {"command": probe})
    llm.reply("done")
    done = cli(llm, home, project, "--permission-mode", "yolo", "--sandbox-network", "off")
    assert done.returncode == 0, done.stderr
    assert "Network is unreachable" in results(llm)[0] or "refused" in results(llm)[0]


@needs_bwrap
def test_read_only_mode_from_config_keeps_the_workspace_too(llm, world):
    home, project, _ = world
    config = home / ".unicum-agent" / "config.json"
    config.write_text(json.dumps({"sandbox": {"mode": "read-only", "network": "on"}}))
    llm.call("terminal", {"command": "echo x > src/app.py; cat src/app.py"})
    llm.reply("done")
    done = cli(llm, home, project, "--permission-mode", "yolo")
    assert done.returncode == 0, done.stderr
    assert "Read-only file system" in results(llm)[0]
    assert (project / "src" / "app.py").read_text() == "print('app')\n"


HISTORY = [
    "git reset --hard HEAD",
    "git reset --merge HEAD~1",
    "git reset --keep HEAD",
    "git clean -fdx",
    "git branch -D feature",
    "git push --force origin main",
    "git stash drop",
    "git checkout -f main",
    "git reflog expire --expire=now --all && git gc --prune=now",
    "git push origin :feature",
    "rm -rf .",
    "rm -rf .git",
    "cd src && rm -rf ..",
    "find . -delete",
]
BENIGN = [
    "rm -rf build",
    "find . -name '*.pyc' -delete",
    "rm -f build.log",
    "git clean -fdx build",
    "chmod -R u+w src",
    "cat ~/.bashrc",
    "cp README.md /tmp/readme.bak && ls /tmp",
    "git status --short",
]


@needs_bwrap
def test_prompts_still_ask_for_inside_workspace_destroyers_only(llm, world):
    home, project, _ = world
    for command in HISTORY + BENIGN:
        llm.call("terminal", {"command": command})
    llm.reply("done")
    done = cli(llm, home, project)  # -p, ask mode: a question is a refusal
    assert done.returncode == 0, done.stderr
    outputs = results(llm)
    asked = [c for c, o in zip(HISTORY + BENIGN, outputs, strict=True) if o.startswith("refused")]
    assert asked == HISTORY, outputs
    assert (project / ".git").is_dir() and (project / "src" / "app.py").is_file()
    assert "sandbox unavailable" not in done.stderr


def test_a_venv_under_tmp_stays_visible_read_only(tmp_path):
    from tools.sandbox import tool_folders_in_tmp

    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    plain = tmp_path / "tools"
    plain.mkdir()
    path = os.pathsep.join([str(venv / "bin"), str(plain), "/usr/bin", str(tmp_path / "gone")])
    assert str(tmp_path).startswith("/tmp/")
    assert tool_folders_in_tmp(path) == [str(venv), str(plain)]
