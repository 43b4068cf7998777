"""Request and response bodies of the service (they are its OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Scope = Literal["project", "global"]
By = Literal["task", "session", "day", "model", "user"]
TEXT_MAX = 8000


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MemoryEntryOut(BaseModel):
    key: str
    id: str
    scope: Scope
    type: str
    content: str
    tags: list[str]
    source: str
    created: float
    updated: float
    hits: int


class MemoryList(BaseModel):
    project: str
    entries: list[MemoryEntryOut]


class MemorySearch(Strict):
    project: str = Field(description="the project folder (absolute path)")
    task: str = Field(min_length=1, max_length=TEXT_MAX, description="what the entries are for")
    k: int = Field(10, ge=1, le=100)
    scope: Scope | None = None


class MemoryAdd(Strict):
    project: str
    scope: Scope = "project"
    type: str = Field(description="user, feedback, project, reference, files, commands, ...")
    content: str = Field(min_length=1, max_length=TEXT_MAX)
    key: str = Field("", max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=50)
    source: str = Field("", max_length=200)


class MemoryUpdate(Strict):
    project: str
    scope: Scope = "project"
    content: str | None = Field(None, min_length=1, max_length=TEXT_MAX)
    type: str | None = None
    source: str = Field("", max_length=200)


class MemoryChanged(BaseModel):
    status: Literal["added", "updated", "forgotten"]
    entry: MemoryEntryOut


class CodeAnswer(BaseModel):
    project: str
    question: str
    answer: str


class LedgerRequest(Strict):
    """One model request made by any agent; `cost_usd` is priced from pricing.json if omitted."""

    session_id: str = Field(min_length=1, max_length=200)
    task_id: str = Field(min_length=1, max_length=200)
    project: str = Field(min_length=1, max_length=4096, description="the project folder")
    provider: str = Field(min_length=1, max_length=100)
    model: str = Field(min_length=1, max_length=200)
    input_tokens: int = Field(ge=0, description="fresh (uncached) input tokens")
    cache_read_tokens: int = Field(0, ge=0)
    cache_write_tokens: int = Field(0, ge=0)
    output_tokens: int = Field(ge=0)
    reasoning_tokens: int = Field(0, ge=0)
    latency_ms: float = Field(0.0, ge=0)
    ttft_ms: float | None = Field(None, ge=0)
    stop_reason: str = Field("end_turn", max_length=100)
    cost_usd: float | None = Field(None, ge=0)
    ts: float | None = Field(None, gt=0, description="Unix time the response ended (now)")
    estimated: bool = False


class LedgerRecorded(BaseModel):
    recorded: bool
    day: str
    project: str
    cost_usd: float | None


class LedgerReport(BaseModel):
    by: By
    groups: list[dict[str, Any]]
    totals: dict[str, Any]


class BudgetOut(BaseModel):
    scope: str
    metric: str
    limit: float
    origin: str
    spent: float | None
    fraction: float | None
    exceeded: bool


class BudgetReport(BaseModel):
    day: str
    budgets: list[BudgetOut]
