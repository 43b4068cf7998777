"""MCP servers: their configuration, the background hub that runs them, and their tools."""

from core.mcp.approvals import answered, remember, said, unasked
from core.mcp.config import (
    PROJECT_FILE,
    ServerConfig,
    config_file,
    edit_servers,
    load_servers,
    parse_server,
    project_config_allowed,
)
from core.mcp.hub import START_DELAY, McpHub, ServerState
from core.mcp.tools import hub_tools, server_prefix, tool_name

__all__ = [
    "answered",
    "remember",
    "said",
    "unasked",
    "PROJECT_FILE",
    "START_DELAY",
    "McpHub",
    "ServerConfig",
    "ServerState",
    "config_file",
    "edit_servers",
    "hub_tools",
    "load_servers",
    "parse_server",
    "project_config_allowed",
    "server_prefix",
    "tool_name",
]
