"""Unicum's engine: messages, model client, agent loop, context, memory, code map, ledger."""
