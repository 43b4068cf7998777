"""An entry with a key of its own is never merged away, however alike its text is to others
(ten keyed "service X listens on port 80NN" stay ten, also written by 40 clients at once);
what consolidation does merge is said."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from core.memory import MemoryStore
from tests.conftest import provider_env, run_cli
from tests.helpers.serve_helpers import start_server


def project_entries(home, workspace) -> dict[str, str]:
    store = MemoryStore(home, workspace)
    return {e.key: e.content for scope, e in store.entries("project")}


def test_ten_keyed_facts_from_the_model_stay_ten(llm, workspace, isolated_home):
    for n in range(1, 11):
        args = {
            "action": "add",
            "type": "project",
            "key": f"port-of-service-{n}",
            "content": f"service X{n} listens on port 80{n:02d}",
        }
        llm.call("memory", args)
    llm.reply("remembered")
    proc = run_cli(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap", "-p", "remember ports",
        env=provider_env(llm, "openai"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "remembered" in proc.stdout
    kept = project_entries(isolated_home, workspace)  # after the session's consolidation
    assert {k: v for k, v in kept.items() if k.startswith("port-of")} == {
        f"port-of-service-{n}": f"service X{n} listens on port 80{n:02d}" for n in range(1, 11)
    }
    again = run_cli("memory", "consolidate", "--dir", str(workspace))
    assert again.returncode == 0 and "merged 0 near-duplicates" in again.stdout
    assert len(project_entries(isolated_home, workspace)) == len(kept)


def test_forty_concurrent_keyed_writes_are_all_kept(workspace, isolated_home):
    served = start_server(isolated_home)
    try:
        with served.client() as client, ThreadPoolExecutor(max_workers=40) as pool:

            def write(n: int) -> int:
                body = {
                    "project": str(workspace),
                    "type": "project",
                    "key": f"svc-{n}",
                    "content": f"service X{n} listens on port {8000 + n}",
                }
                return client.post("/memory", json=body).status_code

            codes = list(pool.map(write, range(40)))
    finally:
        served.stop()
    assert codes == [201] * 40  # each one created
    done = run_cli("memory", "consolidate", "--dir", str(workspace))
    assert done.returncode == 0, done.stderr
    kept = project_entries(isolated_home, workspace)
    assert sorted(kept) == sorted(f"svc-{n}" for n in range(40))


def test_what_consolidation_merges_is_said(workspace, isolated_home):
    store = MemoryStore(isolated_home, workspace)
    first = store.add("project", "notes", "the staging server restarts every night at 2am")[1]
    # a second session wrote the same note a little differently (written by key: `add` itself
    # would have caught it)
    again = _note("note:staging-again", "the staging server restarts every night at 2 am")
    store.merge("project", [again])
    store.add("project", "project", "deploys go through the release branch", key="deploys")
    done = run_cli("memory", "consolidate", "--dir", str(workspace))
    assert done.returncode == 0, done.stderr
    merged = [line for line in done.stdout.splitlines() if line.startswith("memory: merged")]
    assert len(merged) == 1 and first.key in merged[0] and "note:staging-again" in merged[0]
    assert "merged 1 near-duplicates" in done.stdout
    assert "deploys" in project_entries(isolated_home, workspace)


def _note(key: str, text: str):
    from core.memory import MemoryEntry

    return MemoryEntry(key=key, type="notes", content=text, created=1.0, updated=1.0)
