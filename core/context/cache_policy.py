"""The default context policy: facts, L0/L1/L2, compaction in rare batches so caches keep hitting."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace

from core.context.archive import Archive
from core.context.budget import ContextBudget
from core.context.compaction import (
    Compacted,
    apply,
    arg_stand_in,
    big_args,
    boundary_before,
    choose_frontier,
    pending_tokens,
    render_l0,
    shorten_text,
)
from core.context.early import EarlyDecisions
from core.context.events import archive_older, event_pays, kept_whole, shortened_texts
from core.context.phases import CHANGES, PhaseTracker
from core.context.policy import Calibration, SavedOutput, Summarizer
from core.context.repeats import Repeats
from core.context.shaping import FirstShow
from core.context.summary import SummaryState, crop_to_fit, summarize_history, user_texts
from core.facts import RULES, Rule, extract
from my_agent.errors import Interrupted
from my_agent.facts import Fact
from my_agent.messages import Message, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens

SUMMARY_RETRY_MESSAGES = 10  # after a failed automatic summary, crop until the history grows


class CacheAwareContext:
    """ContextPolicy: the request is append-only between compaction events."""

    NOT_STATE = ("archive", "rules", "budget", "summarize", "count", "pinned", "_memo")  # state.py

    def __init__(
        self,
        archive: Archive | None = None,
        budget: ContextBudget | None = None,
        summarize: Summarizer | None = None,
        count: Callable[[str], int] = estimate_tokens,
        rules: Mapping[str, Rule] = RULES,
        pinned: Callable[[], str] = str,
    ) -> None:
        self.pinned = pinned  # text L0 and the summary keep whole (the todo list)
        self.archive = archive if archive is not None else Archive()
        self.rules = rules  # the fact rule table (the session's: built-in rows and plugins')
        self.budget = budget or ContextBudget()
        self.summarize = summarize
        self.count = count
        self.ratio = 1.0  # provider tokens per estimated token, learned from usage
        self.calibration = Calibration()
        self.tracker = PhaseTracker()
        self.facts: dict[str, Fact] = {}
        self.call_keys: dict[str, tuple[str, str]] = {}  # the same call repeated: same key
        self.result_tokens: dict[str, int] = {}  # output, and arguments archived with it
        self.output_tokens: dict[str, int] = {}  # the output alone, as first sent
        self.arg_ids: dict[str, dict[str, str]] = {}
        self.early_args: dict[str, dict[str, str]] = {}  # stand-ins shown before any event
        self.early = EarlyDecisions(self.budget.early_rules(), self)
        self.first = FirstShow(
            self.budget.shape_outputs, self.budget.whole_reads, self.budget.read_named
        )  # known programs' output, shaped
        self.state = Compacted()
        self.repeats = Repeats()
        self.frontier = 0
        self.summary = SummaryState()
        self.compactions = 0
        self.crops = self.last_estimate = 0
        self._memo: dict[str, int] = {}
        self._scanned = 0  # history messages already checked for unseen results
        self._summary_failed_at = -SUMMARY_RETRY_MESSAGES  # no automatic retry right away

    # --- ContextPolicy ---------------------------------------------------------------------
    def on_tool_result(self, call: ToolCall, output: object) -> Fact:
        fact = extract(call, output, self.rules)
        content = str(getattr(output, "content", ""))
        full = (getattr(output, "data", None) or {}).get("full_output") or content
        entry = self.archive.add(call.name, fact.target, str(full), fact.render(), call.id)
        fact = replace(fact, archive_id=entry)
        self.facts[call.id] = fact
        args = json.dumps(call.arguments, sort_keys=True, default=str)
        self.call_keys[call.id] = (call.name, args)
        command = call.arguments.get("command")
        asked = " ".join(str(v) for v in call.arguments.values())
        content = self.first.shape(call.id, fact, command, content, self.count, asked)
        ids = {cid: f.archive_id or cid for cid, f in self.facts.items()}
        self.output_tokens[call.id] = self.count(self.repeats.shrink(call.id, content, ids))
        self.result_tokens[call.id] = self.output_tokens[call.id]
        early = self.budget.early_args == "all" or (
            self.budget.early_args == "writes" and fact.kind in CHANGES
        )
        for name, value in big_args(call, self.budget.arg_chars).items():
            if not early:  # compacted along with the result
                self.result_tokens[call.id] += self.count(value)
            arg_id = self.archive.add(
                call.name, f"{name} of {fact.target}", value, call_id=f"{call.id}:{name}"
            )
            self.arg_ids.setdefault(call.id, {})[name] = arg_stand_in(value, arg_id)
            if early:  # never sent cached yet: the next request carries the stand-in for free
                self.early_args[call.id] = self.arg_ids[call.id]
        self.tracker.update(fact)
        return fact

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        self.first.note_task(history)
        self._adopt(history)
        self._decide_early(history)
        rules = self.tracker.rules
        pending = pending_tokens(history, self.frontier, self.state, self._sizes())
        if pending > self._keep_tokens + (self.budget.batch_tokens or rules.batch_tokens) and (
            self._new_results(history) >= self.budget.batch_results
        ):
            self.compact_facts(history)
        view = self.view(history)
        retry_at = self._summary_failed_at + SUMMARY_RETRY_MESSAGES
        if (
            self.tokens(view) > self.summary_limit
            and self.summarize is not None
            and len(history) >= retry_at
        ):
            try:
                self.compact(history, self.summarize)
                view = self.view(history)
            except Interrupted:
                raise
            except Exception:  # a failed summary must not stop the task: crop instead
                self._summary_failed_at = len(history)
        room = self.budget.window_tokens - self.budget.reserve_tokens - self.budget.overhead_tokens
        if self.tokens(view) > room:
            self.crops += 1
            view = crop_to_fit(view, room, self._count_msg)
        self.last_estimate = self.tokens(view)
        return view

    def _decide_early(self, history: list[Message]) -> None:
        """The decisions due one turn on (core/context/early.py); one pointed at waits."""
        cited = self.repeats.pointed_at({**self.early.lines, **self.state.results})
        lined, settled = len(self.early.lines), cited | set(self.state.results)
        self.early.update(history, self.facts, self.output_tokens, self.call_keys, settled)
        if len(self.early.lines) > lined:  # later outputs must not point at a line
            self._rebuild_repeats(history, self.state)

    def _rebuild_repeats(self, history: list[Message], state: Compacted) -> None:
        """Only outputs still shown whole may be pointed at."""
        results = [(b.call_id, b.content) for m in history for b in m.tool_results]
        self.repeats.rebuild(results, {**self.early.lines, **state.results})

    def _new_results(self, history: list[Message]) -> int:
        return sum(
            1
            for m in history[self.frontier :]
            for b in m.blocks
            if isinstance(b, ToolResult)
            and b.call_id not in self.state.results
            and b.call_id not in self.early.lines
        )

    def _sizes(self) -> dict[str, int]:
        """Each output's tokens as the request shows it (an early line's, once it is one)."""
        sizes = dict(self.result_tokens)
        for cid, line in self.early.lines.items():  # its arguments still show
            sizes[cid] += self.count(line) - self.output_tokens.get(cid, 0)
        return sizes

    def _adopt(self, history: list[Message]) -> None:
        """Facts for results this policy never saw (a resumed session's history); with the
        session's persisted archive the ids stay the same as before."""
        calls: dict[str, ToolCall] = {}
        if len(history) < self._scanned:
            self._scanned = 0  # the history was replaced (a new conversation)
        for msg in history[self._scanned :]:
            for block in msg.blocks:
                if isinstance(block, ToolCall):
                    calls[block.id] = block
                elif (
                    isinstance(block, ToolResult)
                    and block.call_id not in self.facts
                    and (block.call_id in calls)
                ):
                    self.on_tool_result(
                        calls[block.call_id], SavedOutput(block.content, block.is_error)
                    )
        self._scanned = len(history)

    # --- compaction events -----------------------------------------------------------------
    def compact_facts(self, history: list[Message], force: bool = False) -> bool:
        """One batch: every result before the kept tail becomes `[archived #id] fact` — only
        when it pays: the tokens it saves on every later request must outweigh `min_gain`
        times what the rewrite sends uncached once. An event that pays keeps, of an
        `event_lines` kind, the lines the model has named since instead, when it still pays
        that way (so it fires exactly when the fact lines would). `force`: every result, the
        newest too (the server said the request does not fit)."""
        rules = self.tracker.rules
        frontier = (
            len(history)
            if force
            else choose_frontier(history, self._sizes(), self._keep_tokens, rules.keep_recent_min)
        )
        if frontier <= self.frontier:
            return False
        state = self._event_state(history, frontier, force, lined=False)
        if not self._event_pays(history, state, force):
            return False  # events fire as they would with fact lines alone
        if self.budget.event_lines:
            lined = self._event_state(history, frontier, force, lined=True)
            state = lined if self._event_pays(history, lined, force) else state
        self.state, self.frontier = state, frontier
        self._rebuild_repeats(history, state)
        self.compactions += 1
        return True

    def _event_state(
        self, history: list[Message], frontier: int, force: bool, lined: bool
    ) -> Compacted:
        """What an event up to `frontier` would show (`lined`: reads keep their named lines)."""
        state = Compacted(
            dict(self.state.results),
            dict(self.state.args),
            texts=self._shortened_texts(history[:frontier]),
        )
        keep = set() if force else self._kept_whole(history[:frontier])
        skip = keep | set(self.early.lines)  # an early line is already its line
        archive_older(
            history[:frontier], state, self.facts, self.call_keys, skip, self.arg_ids,
            (lambda index, call_id: self._event_lines(history, index, call_id)) if lined
            else (lambda index, call_id: None),
        )  # fmt: skip
        upto = [
            self.facts[b.call_id]
            for m in history[:frontier]
            for b in m.blocks
            if isinstance(b, ToolResult) and b.call_id in self.facts
        ]
        state.l0_at, state.l0 = (
            frontier - 1,
            render_l0(upto, self.tracker.phase, pinned=self.pinned()),
        )
        return state

    def _event_pays(self, history: list[Message], state: Compacted, force: bool) -> bool:
        before, after = self.view(history), self.summary.apply(apply(history, self._shown(state)))
        same = next(
            (
                i
                for i, (a, b) in enumerate(zip(before, after, strict=False))
                if message_text(a) != message_text(b)
            ),
            len(after),
        )
        saved, resent = self.tokens(before) - self.tokens(after), self.tokens(after[same:])
        pays = self.pays(saved, resent, sum(m.role == "assistant" for m in history))
        return saved > 0 and (pays or force)

    def _event_lines(self, history: list[Message], index: int, call_id: str) -> str | None:
        """At an event, an output of an `event_lines` kind keeps the lines used since (its
        fact line when none was)."""
        fact = self.facts[call_id]
        if fact.kind not in self.budget.event_lines:
            return None
        return self.early.kept_lines(history, index, call_id, fact, named=True)

    def pays(self, saved: int, resent: int, turns: int) -> bool:
        """Whether a rewrite saving `saved` and re-sending `resent` pays (events.py)."""
        return event_pays(self.budget, saved, resent, turns)

    def _shortened_texts(self, older: list[Message]) -> dict[str, str]:
        """The model's older notes: the early decisions' opening when there is one."""
        return shortened_texts(
            older,
            self.state.texts,
            self.budget.old_text_chars,
            lambda text: self.early.texts.get(text) or self.short_note(text),
        )

    def shown_tokens(self, history: list[Message]) -> list[int]:
        """Each history message's tokens as the request shows it now, in `count`'s unit (as
        the savings they are weighed against)."""
        return [self._count_msg(m, scaled=False) for m in apply(history, self._shown(self.state))]

    def short_note(self, text: str, archive: bool = True) -> str:
        """The opening of one of the model's texts, the whole archived; `archive=False`: only
        what it would look like."""
        found = self.archive.note_entry(text) or self.archive.next_id
        entry = self.archive.add_note(text) if archive else found
        return shorten_text(text, self.budget.old_text_chars, entry)

    def note_archived(self, text: str) -> bool:
        """An earlier process shortened this note (its whole is in the archive)."""
        return self.archive.note_entry(text) is not None

    def _kept_whole(self, older: list[Message]) -> set[str]:
        protect = self.tracker.rules.protect_kinds
        archived = self.state.results
        return kept_whole(older, self.facts, self.result_tokens, archived, self.budget, protect)

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        """LLM summary of everything before the last few turns (`/compact`, or near the window)."""
        keep = max(2_000, self.budget.window_tokens // 10)
        upto = boundary_before(history, choose_frontier(history, self._sizes(), keep, 1))
        if upto <= 1:
            upto = boundary_before(history, len(history) - 1)
        if upto <= max(1, self.summary.upto):
            return ""  # nothing new since the last summary
        room = self.budget.window_tokens - self.budget.reserve_tokens - self.budget.overhead_tokens
        shown = apply(history, self._shown(self.state))  # what the model saw
        requests = self.summary.requests + user_texts(shown[self.summary.upto or 0 : upto])
        older = self.summary.apply(shown[:upto])
        self.summary = summarize_history(older, upto, summarize, room, self._count_msg, requests)
        if self.summary.text and self.pinned().strip():
            self.summary.text += "\n\n" + self.pinned().strip()
        self.frontier = max(self.frontier, upto)
        self.compactions += 1
        return self.summary.text

    def on_overflow(self, history: list[Message]) -> bool:
        """The server found the request too long (it counts more than our estimate): count
        higher from now on, then summarize the older history, else archive every result;
        False when neither makes the request smaller."""
        self.ratio = min(3.0, self.ratio * 1.5)
        if self.summarize is not None and self.compact(history, self.summarize):
            return True
        return self.compact_facts(history, force=True)

    @property
    def _keep_tokens(self) -> int:
        return self.budget.keep_recent_tokens or self.tracker.rules.keep_recent_tokens

    # --- views and counts ------------------------------------------------------------------
    def _shown(self, state: Compacted) -> Compacted:
        """`state` with the outputs shrunk before first sent (while what they point at shows)."""
        results = {
            **self.first.shaped,
            **self.repeats.replacements({**self.early.lines, **state.results}),
            **self.early.lines,
            **state.results,
        }
        texts = {**self.early.texts, **state.texts}
        return replace(state, results=results, args={**self.early_args, **state.args}, texts=texts)

    def view(self, history: list[Message]) -> list[Message]:
        shown = apply(history, self._shown(self.state))
        return self.summary.apply(shown)

    @property
    def summary_limit(self) -> int:
        return (
            int(self.budget.window_tokens * self.budget.summary_ratio) - self.budget.overhead_tokens
        )

    def tokens(self, messages: list[Message]) -> int:
        return sum(self._count_msg(m) for m in messages)

    def _count_msg(self, msg: Message, scaled: bool = True) -> int:
        text = message_text(msg)
        if text not in self._memo:
            self._memo[text] = self.count(text) + 4
        return int(self._memo[text] * (self.ratio if scaled else 1.0))

    def observe_usage(self, reported_input: int) -> None:
        """Calibrate the estimator against what the provider billed for the last request."""
        self.calibration.observe(int(self.last_estimate / self.ratio), reported_input)
        estimate = self.last_estimate / self.ratio + self.budget.overhead_tokens  # unscaled
        if reported_input > 0 and estimate > 500:
            seen = reported_input / estimate
            self.ratio = max(0.5, min(2.0, 0.7 * self.ratio + 0.3 * seen))

    @property
    def phase(self) -> str:
        return self.tracker.phase.value

    @property
    def window_tokens(self) -> int:
        return self.budget.window_tokens
