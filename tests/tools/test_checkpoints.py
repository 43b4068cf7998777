"""The checkpoint store behind /undo."""

from __future__ import annotations

import os

from tests.helpers.tool_helpers import make_ctx
from tools.checkpoints import CheckpointStore, get_checkpoints


def test_save_and_undo_in_reverse_order(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    store = CheckpointStore(tmp_path / "cp", root=root)
    assert len(store) == 0 and store.undo() is None
    target = root / "core" / "x.py"
    target.parent.mkdir()
    target.write_bytes(b"v1")
    os.chmod(target, 0o755)
    store.save(target)
    target.write_bytes(b"v2")
    new = root / "fresh" / "deep" / "a.py"
    store.save(new)
    new.parent.mkdir(parents=True)
    new.write_text("new")
    assert len(store) == 2
    assert store.undo() == "removed new file fresh/deep/a.py"
    assert not (root / "fresh").exists()  # folders the write created go too
    assert store.undo() == "restored core/x.py"
    assert target.read_bytes() == b"v1" and target.stat().st_mode & 0o777 == 0o755
    assert store.undo() is None and len(store) == 0


def test_undo_turn_takes_back_every_checkpoint_of_the_newest_turn(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    store = CheckpointStore(tmp_path / "cp", root=root)
    a, b, new = root / "a.py", root / "b.py", root / "new.py"
    a.write_text("a1")
    b.write_text("b1")
    for path, text, turn in ((a, "a2", 1), (a, "a3", 2), (b, "b2", 2), (new, "n", 2), (b, "b3", 2)):
        store.save(path, turn)
        path.write_text(text)
        store.wrote(path)
    b.write_text("by hand")
    refused = store.undo_turn()
    assert refused is not None and not refused.done and refused.clash == ["b.py"]
    assert len(store) == 5 and a.read_text() == "a3"  # refused: nothing restored
    done = store.undo_turn(force=True)
    assert done is not None and done.done and done.turn == 2
    assert done.text == "undid turn 2: restored a.py, b.py; removed new.py"
    assert sorted(done.paths) == ["a.py", "b.py", "new.py"] and done.removed == ["new.py"]
    assert (a.read_text(), b.read_text(), new.exists()) == ("a2", "b1", False)
    assert store.undo_turn().text == "undid turn 1: restored a.py" and a.read_text() == "a1"
    assert store.undo_turn() is None


def test_undo_turn_after_a_resume_that_numbers_turns_anew_restores_only_that_run(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    store = CheckpointStore(tmp_path / "cp", root=root)
    a, b, c = root / "a.py", root / "b.py", root / "c.py"
    for path in (a, b, c):
        path.write_text(f"{path.stem}1")
    for path, turn in ((a, 1), (b, 2), (c, 1)):  # c: turn 1 of the resumed session
        store.save(path, turn)
        path.write_text(f"{path.stem}2")
        store.wrote(path)
    done = store.undo_turn()
    assert done is not None and done.paths == ["c.py"]
    assert (a.read_text(), b.read_text(), c.read_text()) == ("a2", "b2", "c1")


def test_store_survives_a_new_instance(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("before")
    CheckpointStore(tmp_path / "cp").save(f)
    f.write_text("after")
    again = CheckpointStore(tmp_path / "cp")
    assert len(again) == 1
    assert again.undo() == f"restored {f}"
    assert f.read_text() == "before"


def test_get_checkpoints_is_lazy_and_per_session(workspace, isolated_home):
    ctx = make_ctx(workspace, isolated_home)
    assert ctx.services.checkpoints is None
    store = get_checkpoints(ctx)
    assert get_checkpoints(ctx) is store
    assert not (isolated_home / "checkpoints").exists()  # nothing written until a save
    store.save(workspace / "a.txt")


def test_undo_refuses_to_overwrite_later_changes_unless_forced(workspace, isolated_home):
    from tests.helpers.tool_helpers import run
    from tools.snapshots import get_snapshots, undo_turn

    ctx = make_ctx(workspace, isolated_home)
    (workspace / "a.txt").write_text("one\n")
    snaps = get_snapshots(ctx)
    snaps.begin_turn()
    run(ctx, "edit_file", path="a.txt", old_string="one", new_string="two")
    snaps.begin_turn()
    run(ctx, "write_file", path="new.txt", content="fresh\n")
    (workspace / "new.txt").write_text("the user's own text\n")
    refused = undo_turn(ctx)
    assert not refused.done and refused.clash == ["new.txt"]
    assert refused.text.startswith("not undone: new.txt changed after turn 2")
    assert (workspace / "new.txt").read_text() == "the user's own text\n"
    assert undo_turn(ctx, force=True).text == "undid turn 2: removed new.txt"
    assert not (workspace / "new.txt").exists()
    again = undo_turn(ctx)  # unchanged since the edit: no force needed
    assert again.text == "undid turn 1: restored a.txt" and again.paths == ["a.txt"]
    assert (workspace / "a.txt").read_text() == "one\n"
    assert undo_turn(ctx) is None


def test_old_sessions_checkpoints_are_pruned_when_a_store_is_created(workspace, isolated_home):

    old = isolated_home / "checkpoints" / "old-session"
    recent = isolated_home / "checkpoints" / "recent-session"
    for folder in (old, recent):
        folder.mkdir(parents=True)
        (folder / "000001.json").write_text("{}")
    month_ago = os.path.getmtime(old) - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    get_checkpoints(make_ctx(workspace, isolated_home))  # the fallback store, made on first use
    assert not old.exists() and recent.is_dir()
