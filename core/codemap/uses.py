"""References, bindings and imports of one file in source order, each given its scope from
the stack of definitions around it (the parser walks that stack; see `parse.py`)."""

from __future__ import annotations

from bisect import bisect_right

from core.codemap.langs import CLASS_KINDS

Symbol = tuple[str, str, int, int, str, str, int, str, str]
Ref = tuple[str, int, str, str, str]
Bind = tuple[str, str, str, str, int]
# a stack level: (end byte, qualified name, kind, the innermost function, the innermost class)
Level = tuple[int, str, str, str, str]


class Uses:
    """References and bindings in source order, each given its scope from the definition stack."""

    def __init__(self, refs: list, binds: list, imports: list) -> None:
        self.refs = sorted(refs)  # one per start byte
        self.pending = sorted(
            [(b[0], 1, b) for b in binds] + [(pos, 2, symbol) for pos, symbol in imports]
        )
        self.at = 0
        self.binds: list[Bind] = []
        self.imports: list[Symbol] = []
        self.bounds, self.funcs = [0], [""]  # from each bound on, the innermost function

    def entered(self, start: int, func: str) -> None:
        self.bounds.append(start)
        self.funcs.append(func)

    def leave(self, stack: list[Level], pos: int) -> None:
        """Pop the levels that end at or before `pos`, noting where each one's function ends."""
        while stack and stack[-1][0] <= pos:
            end = stack.pop()[0]
            self.bounds.append(end)
            self.funcs.append(stack[-1][3] if stack else "")

    def scoped_refs(self) -> list[Ref]:
        """Each reference with the function it stands in (a bisection of the bounds)."""
        bounds, funcs = self.bounds, self.funcs
        return [
            (name, line, kind, funcs[bisect_right(bounds, at) - 1], recv)
            for at, name, line, kind, recv in self.refs
        ]

    def emit_before(self, pos: int, stack: list[Level]) -> None:
        pending = self.pending
        while self.at < len(pending) and pending[self.at][0] < pos:
            where, tag, item = pending[self.at]
            self.at += 1
            if stack and stack[-1][0] <= where:
                self.leave(stack, where)
            func = stack[-1][3] if stack else ""
            in_class = bool(stack) and stack[-1][2] in CLASS_KINDS
            if tag == 2:  # an import binds in its function, or in its class's body
                self.imports.append(item[:4] + ((stack[-1][1] if in_class else func),) + item[5:])
                continue
            _, _, kind, name, type_name, line = item
            if kind in SCOPE_BINDS:
                if not in_class and (func or kind == "span"):
                    self.binds.append((kind, func, name, type_name, line))
                continue
            owner = stack[-1][4] if stack else ""
            if kind == "var" and stack and stack[-1][2] in CLASS_KINDS:
                kind, func = "attr", owner  # a class-level `name = Type()`
            scope = func if kind in _IN_FUNCTION else owner if kind == "base" else ""
            if kind == "attr":  # the method, or the class for a class-level name
                scope = func if func.startswith(owner + ".") else owner
            if kind in ("attr", "base") and not owner:
                continue
            self.binds.append((kind, scope, name, type_name, line))


SCOPE_BINDS = frozenset({"local", "span", "global"})
_IN_FUNCTION = frozenset(
    {"var", "returns", "narrow", "gives", "yields", "fixture", "property", "block", "param"}
)
