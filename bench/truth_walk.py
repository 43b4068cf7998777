"""The two walks of the ground truth (see `truth_py.py`): bind every scope's names, then visit
every call, bare decorator and base class and record what it resolves to."""

from __future__ import annotations

import ast
import gc

from bench.truth_py import _FUNCS, ClassInfo, Module, Scope, Truth


def compute(root: str) -> Truth:
    """All call sites of every definition under `root`, by the rules of `truth_py`."""
    gc.disable()  # a million AST nodes alive: each full collection walks them all (6x slower)
    try:
        truth = Truth(root)
        for module in truth.modules.values():
            module.scope = Scope("module", module, None, "")
            _Binder(truth, module.scope).body(module.tree.body)
        for module in truth.modules.values():
            _Visitor(truth, module.scope).body(module.tree.body)
    finally:
        gc.enable()
    return truth


def _absolute(module: Module, level: int, name: str | None) -> str:
    if not level:
        return name or ""
    parts = module.name.split(".") if module.is_pkg else module.name.split(".")[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(parts + ([name] if name else []))


class _Binder:
    def __init__(self, truth: Truth, scope: Scope) -> None:
        self.truth, self.scope = truth, scope

    def body(self, statements: list[ast.stmt]) -> None:
        for node in statements:
            self.statement(node)

    def bind(self, name: str, binding: tuple) -> None:
        self.scope.names[name].append(binding)

    def statement(self, node: ast.stmt) -> None:  # noqa: C901 — one case per statement kind
        scope = self.scope
        if isinstance(node, _FUNCS):
            self.function(node)
        elif isinstance(node, ast.ClassDef):
            self.klass(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.bind(alias.asname, ("import", alias.name))
                else:
                    self.bind(alias.name.split(".")[0], ("import", alias.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(scope.module, node.level, node.module)
            for alias in node.names:
                if alias.name == "*":
                    scope.module.stars.append(source)
                else:
                    self.bind(alias.asname or alias.name, ("from", source, alias.name))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self.target(target, ("value", scope, node.value))
            self.dunder_all(node)
        elif isinstance(node, ast.AnnAssign):
            self.target(node.target, ("annotation", scope, node.annotation))
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor):
            self.target(node.target, ("param",))
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    self.target(item.optional_vars, ("param",))
        elif isinstance(node, ast.Try | ast.TryStar):
            for handler in node.handlers:
                if handler.name:
                    self.bind(handler.name, ("param",))
                self.body(handler.body)
        for field in ("body", "orelse", "finalbody"):
            if not isinstance(node, _FUNCS + (ast.ClassDef,)):
                self.body(getattr(node, field, None) or [])
        for case in getattr(node, "cases", None) or []:
            self.body(case.body)

    def target(self, node: ast.expr, binding: tuple) -> None:
        if isinstance(node, ast.Name):
            self.bind(node.id, binding)
        elif isinstance(node, ast.Tuple | ast.List | ast.Starred):
            for part in node.elts if not isinstance(node, ast.Starred) else [node.value]:
                self.target(part, ("param",))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = self.self_class(node.value.id)
            if owner is not None:
                self.truth.classes[owner].attrs[node.attr].append((self.scope, binding))

    def self_class(self, name: str) -> tuple | None:
        here: Scope | None = self.scope
        while here is not None and here.kind == "function":
            for binding in here.names.get(name, []):
                if binding[0] == "inst":
                    return binding[1]
            if name in here.names:
                return None
            here = here.parent
        return None

    def dunder_all(self, node: ast.Assign) -> None:
        if self.scope.kind != "module" or not isinstance(node.value, ast.List | ast.Tuple):
            return
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self.scope.module.all = {
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        scope = self.scope
        qual = f"{scope.qual}.{node.name}" if scope.qual else node.name
        key = (scope.module.path, qual)
        self.truth.defs[key] = "method" if scope.kind == "class" else "function"
        self.bind(node.name, ("func", key))
        self.truth.spans[scope.module.path].append((node.lineno, node.end_lineno or 0, qual))
        owner = scope.owner if scope.kind == "class" else scope.owner
        body = Scope("function", scope.module, scope, qual, owner=owner)
        self.truth.scopes[id(node)] = body
        params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        decorators = {_name(d) for d in node.decorator_list}
        for i, arg in enumerate(params):
            if i == 0 and scope.kind == "class" and "staticmethod" not in decorators:
                is_cls = "classmethod" in decorators or node.name in (
                    "__new__",
                    "__init_subclass__",
                )
                body.names[arg.arg].append(("class" if is_cls else "inst", scope.owner))
            elif arg.annotation is not None:
                body.names[arg.arg].append(("annotation", scope, arg.annotation))
            else:
                body.names[arg.arg].append(("param",))
        for extra in (node.args.vararg, node.args.kwarg):
            if extra is not None:
                body.names[extra.arg].append(("param",))
        _Binder(self.truth, body).body(node.body)

    def klass(self, node: ast.ClassDef) -> None:
        scope = self.scope
        qual = f"{scope.qual}.{node.name}" if scope.qual else node.name
        key = (scope.module.path, qual)
        self.truth.defs[key] = "class"
        self.bind(node.name, ("class", key))
        body = Scope("class", scope.module, scope, qual, owner=key)
        self.truth.scopes[id(node)] = body
        self.truth.classes[key] = ClassInfo(key, scope, body, list(node.bases))
        _Binder(self.truth, body).body(node.body)


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


class _Visitor(ast.NodeVisitor):
    def __init__(self, truth: Truth, scope: Scope) -> None:
        self.truth, self.scope = truth, scope

    def body(self, statements: list[ast.stmt]) -> None:
        for node in statements:
            self.visit(node)

    def enclosing(self) -> str:
        here: Scope | None = self.scope
        while here is not None and here.kind == "class":
            here = here.parent
        return here.qual if here is not None else ""

    def record(self, node: ast.expr) -> None:
        if isinstance(node, ast.Name) and node.id in ("self", "cls"):
            return  # `cls(...)` instantiates without naming the class: nothing to rename
        if isinstance(node, ast.Name):
            name, line = node.id, node.lineno
        elif isinstance(node, ast.Attribute):
            name, line = node.attr, node.end_lineno or node.lineno
        else:
            return
        found = self.truth.expr(self.scope, node)
        path = self.scope.module.path
        if found is not None and found[0] in ("func", "class"):
            self.truth.sites[found[1]].add((path, line, self.enclosing()))
        elif found is None:
            self.truth.undecided[name].add((path, line))

    def visit_Call(self, node: ast.Call) -> None:
        self.record(node.func)
        self.generic_visit(node)

    def _inner(self, node: ast.AST, statements: list[ast.stmt]) -> None:
        outer, self.scope = self.scope, self.truth.scopes[id(node)]
        self.body(statements)
        self.scope = outer

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            if not isinstance(decorator, ast.Call):
                self.record(decorator)
            self.visit(decorator)
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
            self.visit(default)
        self._inner(node, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            if not isinstance(decorator, ast.Call):
                self.record(decorator)
            self.visit(decorator)
        for base in node.bases:
            self.record(base)
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        self._inner(node, node.body)
