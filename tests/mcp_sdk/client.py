"""Drives `scout mcp` with the official MCP Python SDK's client (#25).

Usage: client.py SCOUT TREE. Starts `SCOUT mcp` in TREE over stdio,
lists the tools, calls each once, and prints one JSON object saying what
it saw; tests/it/mcp_sdk.rs checks it. Any exception exits non-zero.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def field(obj, snake, camel):
    """An attribute as the SDK spells it (2.x: snake_case, 1.x: camelCase)."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


async def main(scout, tree):
    params = StdioServerParameters(command=scout, args=["mcp"], cwd=tree)
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = field(init, "server_info", "serverInfo").name
            seen["protocol"] = str(field(init, "protocol_version", "protocolVersion"))
            tools = await session.list_tools()
            seen["tools"] = [t.name for t in tools.tools]
            seen["output_schemas"] = [
                (field(t, "output_schema", "outputSchema") or {}).get("type")
                for t in tools.tools]
            calls = {
                "search": {"query": "Widget"},
                "smart": {"query": "spin the widget"},
                "grep": {"pattern": "class", "output_mode": "content"},
                "files": {"pattern": "*.py", "limit": 1},
                "read": {"path": "src/core.py", "symbol": "spin"},
            }
            seen["results"] = {}
            for name, arguments in calls.items():
                result = await session.call_tool(name, arguments)
                structured = field(result, "structured_content", "structuredContent")
                seen["results"][name] = {
                    "is_error": field(result, "is_error", "isError"),
                    "text": result.content[0].text if result.content else None,
                    "exit": (structured or {}).get("exit"),
                }
            # `--kind auto` reads `(Widget` as code (#34): as a regex, bad input.
            error = await session.call_tool(
                "search", {"query": "(Widget", "kind": "regex"})
            seen["error"] = {"is_error": field(error, "is_error", "isError"),
                             "text": error.content[0].text}
    print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
