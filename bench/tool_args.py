"""Argument accuracy of the tool texts with a real model: brief (one signature line per tool, as
cloud models get them) against full JSON schemas (as local servers get them), same prompts.

    python bench/tool_args.py --base-url http://127.0.0.1:8631/v1 --model qwen-1.5b

Each case is one short request that should produce one specific tool call; its arguments are
checked against what the prompt asked for (the registry's own validation first). Temperature 0,
one request at a time, brief first then full (each form's prefix stays cached on the server).
Not in CI: it needs a real server (see /work/shared/real-llm.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.agent import read_text_calls  # noqa: E402
from core.model import PROFILES, ModelClient, ResolvedProvider  # noqa: E402
from my_agent.messages import Message, TextBlock  # noqa: E402
from tools.registry import Registry, coerce, validate  # noqa: E402

SYSTEM = (
    "You are Unicum, a coding agent working in the user's project through tools. "
    "Answer each request with exactly one tool call."
)
TOOLS = ("read_file", "terminal", "edit_file", "write_file", "search_files", "recall")
TOOLS += ("code_map", "todo", "list_files", "memory", "web_search")
Check = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class Case:
    prompt: str
    tool: str
    check: Check


def _is(value: object, *wanted: object) -> bool:
    return value in wanted or str(value).strip() in {str(w) for w in wanted}


CASES = (
    Case(
        "Show me lines 20 to 39 of src/app.py.",
        "read_file",
        lambda a: (
            str(a.get("path", "")).endswith("src/app.py")
            and _is(a.get("offset"), 20)
            and _is(a.get("limit"), 20)
        ),
    ),
    Case(
        "Run the tests in tests/test_math.py with pytest -q.",
        "terminal",
        lambda a: all(
            w in str(a.get("command", "")) for w in ("pytest", "-q", "tests/test_math.py")
        ),
    ),
    Case(
        "In utils.py change `return a - b` to `return a + b`.",
        "edit_file",
        lambda a: (
            str(a.get("path", "")).endswith("utils.py")
            and str(a.get("old_string", "")).strip() == "return a - b"
            and str(a.get("new_string", "")).strip() == "return a + b"
        ),
    ),
    Case(
        "Create the file notes.txt containing exactly: hello world",
        "write_file",
        lambda a: (
            str(a.get("path", "")).endswith("notes.txt")
            and str(a.get("content", "")).strip() == "hello world"
        ),
    ),
    Case(
        "Search the files under src for the regex `def parse_\\w+`.",
        "search_files",
        lambda a: (
            "def parse_" in str(a.get("pattern", ""))
            and "src" in str(a.get("path", "")) + str(a.get("file_glob", ""))
        ),
    ),
    Case(
        "Show only lines 12-40 of the archived output a7.",
        "recall",
        lambda a: str(a.get("id", "")).lstrip("#") == "a7" and _is(a.get("lines"), "12-40"),
    ),
    Case(
        "Use the code map to list the callers of parse_config.",
        "code_map",
        lambda a: _is(a.get("action"), "references") and _is(a.get("name"), "parse_config"),
    ),
    Case(
        "Set the checklist to: 'write tests' done, 'fix the bug' in progress.",
        "todo",
        lambda a: (
            isinstance(a.get("todos"), list)
            and sorted(str(t.get("status")) for t in a["todos"] if isinstance(t, dict))
            == ["done", "in_progress"]
        ),
    ),
    Case(
        "List the Python files under src (glob **/*.py).",
        "list_files",
        lambda a: (
            "*.py" in str(a.get("pattern", ""))
            and "src" in str(a.get("path", "")) + str(a.get("pattern", ""))
        ),
    ),
    Case(
        "Remember for later sessions: the tests run with `make test`.",
        "memory",
        lambda a: _is(a.get("action"), "add") and "make test" in str(a.get("content", "")),
    ),
    Case(
        "Search the web for httpx timeout retries, at most 3 results.",
        "web_search",
        lambda a: "httpx" in str(a.get("query", "")) and _is(a.get("max_results"), 3),
    ),
)


def tool_specs(brief: bool) -> list[dict[str, Any]]:
    registry = Registry.default()
    chosen = Registry([registry.tools[n] for n in TOOLS], brief=brief)
    return chosen.specs()


def first_call(reply: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The reply's first tool call: the server's parsed one, or one written as text."""
    message = reply["choices"][0]["message"]
    calls = message.get("tool_calls") or []
    if calls:
        fn = calls[0]["function"]
        args = fn.get("arguments") or "{}"
        try:
            return fn["name"], json.loads(args) if isinstance(args, str) else args
        except ValueError:
            return fn["name"], {}
    found = read_text_calls(message.get("content") or "")
    return (found.calls[0].name, found.calls[0].arguments) if found and found.calls else None


def ask(client: ModelClient, url: str, case: Case, specs: list[dict[str, Any]]) -> tuple[str, str]:
    """One request; the outcome (ok, wrong-args, invalid, wrong-tool or no-call) and what the
    model sent."""
    body = client.build_request(SYSTEM, [Message("user", [TextBlock(case.prompt)])], specs)
    body.update(stream=False, temperature=0, max_tokens=200)
    body.pop("stream_options", None)
    reply = httpx2.post(url, json=body, timeout=600).json()
    call = first_call(reply)
    if call is None:
        text = str(reply["choices"][0]["message"].get("content") or "")
        return "no-call", text[:120].replace("\n", " ")
    name, args = call
    sent = json.dumps(args)[:120]
    if name != case.tool:
        return f"wrong-tool:{name}", sent
    tool = Registry.default().tools[name]
    if not isinstance(args, dict):
        return "invalid", sent
    args = coerce(tool.parameters, args)  # as the registry does before it validates
    if validate(tool.parameters, args):
        return "invalid", sent
    return ("ok" if case.check(args) else "wrong-args"), sent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8631/v1")
    parser.add_argument("--model", default="qwen-1.5b")
    parser.add_argument("--cases", type=int, default=len(CASES), help="the first N cases only")
    parser.add_argument("--only", default="", help="the cases of these tools (comma-separated)")
    args = parser.parse_args(argv)
    provider = ResolvedProvider(PROFILES["openai-compatible"], args.model, args.base_url, None)
    client = ModelClient(provider, max_tokens=200)
    url = args.base_url.rstrip("/") + "/chat/completions"
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    cases = [c for c in CASES[: args.cases] if not only or c.tool in only]
    score: dict[str, int] = {}
    for form, brief in (("brief", True), ("full", False)):
        specs = tool_specs(brief)
        size = len(json.dumps(specs)) // 4
        for case in cases:
            started = time.monotonic()
            outcome, sent = ask(client, url, case, specs)
            score[form] = score.get(form, 0) + (outcome == "ok")
            took = time.monotonic() - started
            shown = "" if outcome == "ok" else f"  {sent}"
            print(f"{form:<6} {case.tool:<13} {outcome:<22} {took:5.1f}s{shown}", flush=True)
        print(f"{form}: {score[form]}/{len(cases)} right (tool texts ~{size:,} tokens)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
