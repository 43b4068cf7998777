"""/memory: list, search ranked for a task, add, update and forget entries of a project."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query

from core.memory import MemoryEntry, MemoryStore
from core.serve.schemas import (
    MemoryAdd,
    MemoryChanged,
    MemoryEntryOut,
    MemoryList,
    MemorySearch,
    MemoryUpdate,
    Scope,
)
from core.serve.services import Services, project_folder, services
from my_agent.secrets import redact

router = APIRouter(prefix="/memory", tags=["memory"])
Svc = Annotated[Services, Depends(services)]


def _out(scope: str, e: MemoryEntry) -> MemoryEntryOut:
    return MemoryEntryOut(
        key=e.key,
        id=e.id,
        scope=scope,  # type: ignore[arg-type]
        type=e.type,
        content=e.content,
        tags=list(e.tags),
        source=e.source,
        created=e.created,
        updated=e.updated,
        hits=e.hits,
    )


def _store(svc: Services, project: str) -> MemoryStore:
    return svc.memory(project_folder(project))


def _found(store: MemoryStore, ref: str, scope: str | None) -> tuple[str, MemoryEntry]:
    found = store.find(ref, scope)
    if found is None:
        raise HTTPException(404, f"no single memory entry matches '{ref}'")
    return found


@router.get("", response_model=MemoryList, summary="List a project's entries (and global ones)")
def list_entries(
    svc: Svc, project: str, scope: Scope | None = None, type: str | None = None
) -> MemoryList:
    store = _store(svc, project)
    pairs = [(s, e) for s, e in store.entries(scope) if type is None or e.type == type]
    return MemoryList(project=str(store.workspace), entries=[_out(s, e) for s, e in pairs])


@router.post("/search", response_model=MemoryList, summary="Entries ranked for a task")
def search(svc: Svc, body: MemorySearch) -> MemoryList:
    store = _store(svc, body.project)
    pairs = store.search(body.task, body.scope, k=body.k)
    return MemoryList(project=str(store.workspace), entries=[_out(s, e) for s, e in pairs])


@router.post("", response_model=MemoryChanged, status_code=201, summary="Add an entry")
def add(svc: Svc, body: MemoryAdd) -> MemoryChanged:
    """The same key, or near-duplicate content, updates that entry instead (status says which)."""
    store = _store(svc, body.project)
    content, key = redact(body.content), redact(body.key)  # secrets never stored raw
    status, entry = store.add(body.scope, body.type, content, key, body.tags, body.source)
    return MemoryChanged(status=status, entry=_out(body.scope, entry))  # type: ignore[arg-type]


@router.patch("/{ref}", response_model=MemoryChanged, summary="Change an entry's text or type")
def update(svc: Svc, ref: str, body: MemoryUpdate) -> MemoryChanged:
    if body.content is None and body.type is None:
        raise HTTPException(400, "nothing to change: give content and/or type")
    store = _store(svc, body.project)
    scope, old = _found(store, ref, body.scope)
    _, entry = store.add(
        scope,
        body.type or old.type,
        redact(body.content) if body.content else old.content,
        key=old.key,
        source=body.source,
    )
    return MemoryChanged(status="updated", entry=_out(scope, entry))


@router.delete("/{ref}", response_model=MemoryChanged, summary="Forget an entry")
def forget(
    svc: Svc, ref: str, project: Annotated[str, Query()], scope: Scope | None = None
) -> MemoryChanged:
    store = _store(svc, project)
    found_scope, entry = _found(store, ref, scope)
    store.remove(found_scope, entry.key)
    return MemoryChanged(status="forgotten", entry=_out(found_scope, entry))
