"""/codemap: definition, references, impact, outline and overview of a project's code."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from core.codemap import CodeMap, render_overview
from core.serve.schemas import CodeAnswer
from core.serve.services import Services, project_folder, services

router = APIRouter(prefix="/codemap", tags=["code map"])
Svc = Annotated[Services, Depends(services)]
Name = Annotated[str, Query(min_length=1, max_length=500, description="a symbol name")]


def _answer(svc: Services, project: str, question: str, ask) -> CodeAnswer:
    folder = project_folder(project)
    cmap: CodeMap = svc.codemap(folder)
    return CodeAnswer(project=str(folder), question=question, answer=ask(cmap))


@router.get("/definition", response_model=CodeAnswer, summary="Where a symbol is defined")
def definition(svc: Svc, project: str, name: Name) -> CodeAnswer:
    return _answer(svc, project, f"definition {name}", lambda c: c.definition(name))


@router.get("/references", response_model=CodeAnswer, summary="Who references a symbol")
def references(svc: Svc, project: str, name: Name) -> CodeAnswer:
    return _answer(svc, project, f"references {name}", lambda c: c.references(name))


@router.get("/impact", response_model=CodeAnswer, summary="What depends on a symbol or file")
def impact(
    svc: Svc,
    project: str,
    target: Annotated[str, Query(min_length=1, max_length=1000)],
    depth: Annotated[int, Query(ge=1, le=10)] = 3,
) -> CodeAnswer:
    return _answer(svc, project, f"impact {target}", lambda c: c.impact(target, depth))


@router.get("/outline", response_model=CodeAnswer, summary="A file's symbols")
def outline(
    svc: Svc, project: str, path: Annotated[str, Query(min_length=1, max_length=1000)]
) -> CodeAnswer:
    return _answer(svc, project, f"outline {path}", lambda c: c.outline(path))


@router.get("/overview", response_model=CodeAnswer, summary="The ranked overview of the project")
def overview(
    svc: Svc,
    project: str,
    task: Annotated[str, Query(max_length=2000)] = "",
    budget_tokens: Annotated[int, Query(ge=50, le=20000)] = 1000,
) -> CodeAnswer:
    def ask(cmap: CodeMap) -> str:
        cmap.refresh()
        index = cmap.index
        with index.lock:
            return render_overview(index.db, task, budget_tokens, cmap.graph)

    return _answer(svc, project, "overview", ask)
