"""`unicum serve`: memory, code map, ledger and the usage dashboard over local HTTP (FastAPI).

Glue like core/agent, but without the agent: it imports the faces of memory, code map, ledger
and dashboard and the base, never core.agent, tools or ui."""

from core.serve.app import create_app
from core.serve.security import (
    MAX_BODY,
    TOKEN_FILE,
    BindRefused,
    check_bind,
    is_loopback,
    new_token,
    served_hosts,
    write_token,
)
from core.serve.services import Services

__all__ = [
    "MAX_BODY",
    "TOKEN_FILE",
    "BindRefused",
    "Services",
    "check_bind",
    "create_app",
    "is_loopback",
    "new_token",
    "served_hosts",
    "write_token",
]
