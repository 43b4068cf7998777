"""A project's own JavaScript/TypeScript package names as import aliases: inside zod,
`import { z } from "zod/v3"` means `src/v3/index.ts`.

Read from each `package.json` (`name` with its `exports`, else `main`, `module`, `types`)
and each `tsconfig.json` / `jsconfig.json` (`compilerOptions.paths` and `baseUrl`, through a
relative `extends`) in a folder holding the project's JS/TS files or above one. An alias
targets a project path without its extension; a target that names build output absent from
the project (`./dist/index.d.ts`) is looked for under `src/` instead. The map is applied to an
import's module key when that key names no project file itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
from collections.abc import Collection, Iterable
from typing import Any

from my_agent.capped import read_head

Alias = tuple[str, tuple[str, ...]]  # (specifier pattern, at most one '*'; project keys)

CONFIGS = ("package.json", "tsconfig.json", "jsconfig.json")
JS_SOURCES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_STRIP = (".d.ts", ".d.mts", ".d.cts") + JS_SOURCES
_BUILT = frozenset({"dist", "lib", "build", "out", "esm", "cjs", "types", "typings"})
_MAX_CONFIG_BYTES = 1_000_000


def config_files(root: str, files: Iterable[str]) -> list[tuple[str, tuple[int, int]]]:
    """The config files (with mtime and size) in the folders of the JS/TS files and above."""
    folders: set[str] = set()
    for rel in files:
        if rel.endswith(JS_SOURCES):
            folder = posixpath.dirname(rel)
            while folder not in folders:
                folders.add(folder)
                if not folder:
                    break
                folder = posixpath.dirname(folder)
    found = []
    for folder in sorted(folders):
        for name in CONFIGS:
            rel = posixpath.join(folder, name)
            try:
                st = os.stat(os.path.join(root, rel))
            except OSError:
                continue
            if st.st_size <= _MAX_CONFIG_BYTES:
                found.append((rel, (st.st_mtime_ns, st.st_size)))
    return found


def stamp(configs: list[tuple[str, tuple[int, int]]]) -> str:
    """What the aliases were read from: another stamp means other aliases."""
    return hashlib.blake2b(repr(configs).encode(), digest_size=8).hexdigest()


def read_aliases(root: str, configs: list[tuple[str, tuple[int, int]]], files: Collection[str]):
    """Every alias the config files declare, exact ones first, then longer prefixes first."""
    out: list[Alias] = []
    for rel, _ in configs:
        data = _load(root, rel)
        if not isinstance(data, dict):
            continue
        folder = posixpath.dirname(rel)
        if rel.endswith("package.json"):
            out += _package(folder, data, files)
        else:
            out += _tsconfig(root, rel, data)
    return tuple(sorted(set(out), key=lambda a: ("*" in a[0], -len(a[0].split("*")[0]), a)))


def resolve(aliases: tuple[Alias, ...], spec: str, files: Collection[str]) -> str:
    """The project key `spec` names through an alias, or ''."""
    for pattern, targets in aliases:
        if "*" not in pattern:
            if spec == pattern:
                return targets[0]
            continue
        head, _, tail = pattern.partition("*")
        if not (spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(pattern) - 1):
            continue
        middle = spec[len(head) : len(spec) - len(tail)]
        keys = [t.replace("*", middle) for t in targets]
        return next((k for k in keys if exists(k, files)), "")
    return ""


def exists(key: str, files: Collection[str]) -> bool:
    """True when the key names a project source file (itself with an extension, or an index)."""
    return any(key + e in files or f"{key}/index{e}" in files for e in JS_SOURCES)


def _key(folder: str, target: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, target))
    for ext in _STRIP:
        if joined.endswith(ext):
            return joined[: -len(ext)]
    return "" if joined == "." else joined


def _source_key(folder: str, target: str, files: Collection[str]) -> str:
    """The project key a package target names: itself, or build output's source under src/."""
    if not isinstance(target, str) or not target.startswith("./"):
        return ""
    parts = target[2:].split("/")
    tries = [parts]
    if len(parts) > 1 and parts[0] in _BUILT:
        tries.append(["src", *parts[1:]])
    elif parts[0] != "src":
        tries.append(["src", *parts])
    for attempt in tries:
        key = _key(folder, "/".join(attempt))
        if "*" in key:
            head = key.split("*", 1)[0]
            if any(f.startswith(head) for f in files):
                return key
        elif exists(key, files):
            return key
    return ""


def _targets(value: Any) -> list[str]:
    """The strings of an `exports` value in condition order (nested conditions, arrays)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for v in value for t in _targets(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _targets(v)]
    return []


def _package(folder: str, data: dict, files: Collection[str]) -> list[Alias]:
    name = data.get("name")
    if not isinstance(name, str) or not name:
        return []
    exports = data.get("exports")
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        subpaths = {k: v for k, v in exports.items() if k.startswith(".")}
    elif exports is not None:
        subpaths = {".": exports}
    else:
        fields = [data.get(f) for f in ("types", "typings", "module", "main")]
        subpaths = {".": [f for f in fields if isinstance(f, str)] or ["./index.js"], "./*": "./*"}
    out: list[Alias] = []
    for sub, value in subpaths.items():
        for target in _targets(value):
            target = target if target.startswith("./") else "./" + target
            key = _source_key(folder, target, files)
            if key:
                out.append((name + sub[1:], (key,)))
                break
    return out


def _tsconfig(root: str, rel: str, data: dict, depth: int = 0) -> list[Alias]:
    folder = posixpath.dirname(rel)
    options = data.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    parent = data.get("extends")
    inherited: list[Alias] = []
    if isinstance(parent, str) and parent.startswith(".") and depth < 3:
        up = posixpath.normpath(posixpath.join(folder, parent))
        up = up if up.endswith(".json") else up + ".json"
        loaded = _load(root, up)
        if isinstance(loaded, dict) and not up.startswith("../"):
            inherited = _tsconfig(root, up, loaded, depth + 1)
    base = options.get("baseUrl")
    base_dir = posixpath.normpath(posixpath.join(folder, base)) if isinstance(base, str) else ""
    paths = options.get("paths")
    if not isinstance(paths, dict):
        return inherited + ([("*", (_key(base_dir, "*"),))] if isinstance(base, str) else [])
    out = []
    for pattern, targets in paths.items():
        if isinstance(pattern, str) and pattern.count("*") <= 1 and isinstance(targets, list):
            keys = tuple(
                _key(base_dir if isinstance(base, str) else folder, t)
                for t in targets
                if isinstance(t, str) and t.count("*") <= 1
            )
            if keys:
                out.append((pattern, keys))
    return out + inherited


def _load(root: str, rel: str) -> Any:
    try:
        text = read_head(os.path.join(root, rel), _MAX_CONFIG_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return json.loads(_plain_json(text))  # tsconfig allows comments and trailing commas
    except ValueError:
        return None


def _plain_json(text: str) -> str:
    """JSON with comments (`//`, `/* */`) and trailing commas, as plain JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if text.find("\n", i) >= 0 else n
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = close + 2 if close >= 0 else n
        elif ch in "]}":
            while out and out[-1].isspace():
                out.pop()
            if out and out[-1] == ",":
                out.pop()
            out.append(ch)
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def remap_imports(symbols: list, aliases: tuple[Alias, ...], files: Collection[str]) -> list:
    """Import symbols whose module key names no project file, keyed through the aliases."""
    out = []
    for sym in symbols:
        key = sym[7]
        if sym[1] == "import" and key and not key.startswith(".") and not exists(key, files):
            mapped = resolve(aliases, key, files)
            if mapped:
                sym = (*sym[:7], mapped, *sym[8:])
        out.append(sym)
    return out
