"""The FastAPI application: routes, the guard (token, body cap) and one-line errors."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.serve import codemap_api, dashboard_api, ledger_api, memory_api
from core.serve.security import MAX_BODY, Guard
from core.serve.services import Services
from my_agent.errors import ConfigError, UnicumError

VERSION = "1"


def _one_line(text: object) -> str:
    return " ".join(str(text).split())[:500]


def _invalid(exc: RequestValidationError) -> str:
    """The first complaint as `where: what`, e.g. `body.k: Input should be ≤ 100`."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return _one_line(f"{where}: {first.get('msg', 'invalid')}{more}")


def _handlers(app: FastAPI) -> None:
    def reply(status: int, detail: object) -> JSONResponse:
        return JSONResponse({"detail": _one_line(detail)}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return reply(exc.status_code, exc.detail)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return reply(422, _invalid(exc))

    @app.exception_handler(ValueError)
    async def bad_value(request: Request, exc: ValueError) -> JSONResponse:
        return reply(400, exc)

    @app.exception_handler(ConfigError)
    async def config_error(request: Request, exc: ConfigError) -> JSONResponse:
        return reply(503, exc)  # a broken config.json or pricing.json: not the client's fault

    @app.exception_handler(UnicumError)
    async def unicum_error(request: Request, exc: UnicumError) -> JSONResponse:
        return reply(503, exc)

    @app.exception_handler(sqlite3.Error)
    async def database_error(request: Request, exc: sqlite3.Error) -> JSONResponse:
        return reply(503, f"database: {exc}")

    @app.exception_handler(OSError)
    async def os_error(request: Request, exc: OSError) -> JSONResponse:
        return reply(503, f"{exc.strerror or exc}: {exc.filename or ''}")


def create_app(
    services: Services, token: str, max_body: int = MAX_BODY, hosts: frozenset[str] = frozenset()
) -> Guard:
    """The service as an ASGI app, every route behind `Guard` (bearer token, body cap, and
    the Host names it answers to: `hosts`, empty for any)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        services.close()

    app = FastAPI(
        title="Unicum local service",
        version=VERSION,
        description="Memory, code map and token ledger of Unicum over HTTP. Every route but "
        "/openapi.json needs `Authorization: Bearer <token>` (the token is in the Unicum "
        "home's serve.token).",
        docs_url=None,  # Swagger UI and ReDoc load from a CDN: the service works offline
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.services = services
    _handlers(app)
    for module in (memory_api, codemap_api, ledger_api, dashboard_api):
        app.include_router(module.router)

    @app.get("/health", include_in_schema=False)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return Guard(app, token, max_body, hosts)
