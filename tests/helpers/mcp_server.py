"""A real MCP server written with the `mcp` SDK's own server API, for the tests.

python tests/helpers/mcp_server.py stdio         # over stdin/stdout
python tests/helpers/mcp_server.py http PORT     # streamable HTTP on 127.0.0.1:PORT/mcp
python tests/helpers/mcp_server.py sse PORT      # the older HTTP+SSE on 127.0.0.1:PORT/sse
python tests/helpers/mcp_server.py hang          # starts, never answers
python tests/helpers/mcp_server.py slow A B      # silent A s, a line on stderr, B s more, stdio
"""

from __future__ import annotations

import base64
import os
import sys
import time

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def build():
    import mcp_types
    from mcp.server.mcpserver import Image, MCPServer

    server = MCPServer("unicum-test")

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back, with the server's pid."""
        return f"echo: {text} (pid {os.getpid()})"

    @server.tool()
    def leak() -> str:
        """Return the token the server was given (the client must redact it)."""
        return f"token={os.environ.get('LEAKED_TOKEN', '')}"

    @server.tool()
    def picture() -> list:
        """An image and an embedded text resource."""
        resource = mcp_types.EmbeddedResource(
            resource=mcp_types.TextResourceContents(uri="file:///notes.txt", text="note body")
        )
        return [Image(data=PNG, format="png"), resource]

    @server.tool()
    def crash() -> str:
        """Exit the server process at once."""
        os._exit(3)

    return server


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "hang":
        sys.stdin.read()  # reads the handshake and never answers; ends when stdin closes
        return  # (its client gone, even killed: the pipe closed) — never an orphan
    if mode == "slow":  # a slow first start: nothing for a while (npx downloading), then a
        server = build()  # line on stderr, then a while more before it answers
        time.sleep(float(sys.argv[2]))
        print("slow server: starting", file=sys.stderr, flush=True)
        time.sleep(float(sys.argv[3]))
        server.run("stdio")
        return
    server = build()
    if mode == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    elif mode == "sse":
        server.run("sse", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
