"""The search engines behind search_files: ripgrep when present, pure Python otherwise.

Both apply the project-file rules of my_agent/walk.py and return the same `Hits`, sorted by path.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from my_agent.walk import MAX_FILE_BYTES, SKIP_DIRS, outside_venvs, walk
from tools.regex_limit import SEARCH_SECONDS, deadline, run_limited, timed


@dataclass
class Hits:
    counts: list[tuple[str, int]] = field(default_factory=list)  # (path, matching lines), sorted
    lines: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # for the first files
    names: list[str] = field(default_factory=list)  # paths whose name matches
    engine: str = "python"

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)


def glob_filter(glob: str | None) -> Callable[[str], bool]:
    """A predicate on workspace-relative paths: gitignore-style glob (`*.py`, `src/**/*.ts`)."""
    if not glob:
        return lambda rel: True
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines([glob])
    return spec.match_file


def search(
    base: Path,
    target: Path,
    regex: re.Pattern[str],
    glob: str | None,
    limit: int,
    seconds: float = SEARCH_SECONDS,
) -> Hits:
    """Search `target` (a folder or file under `base`); paths in the result are base-relative.
    Every engine stops after `seconds` (SearchTimeout): rg by its process, Python's by the
    `regex` module's timeout."""
    start = "" if target == base else target.relative_to(base).as_posix()
    until = deadline(seconds)
    if shutil.which("rg"):
        hits = search_rg(base, start, regex, glob, limit, until)
        if hits is not None:
            return hits
    return search_python(base, start, regex, glob, limit, until)


# --- ripgrep -------------------------------------------------------------------------------
def _rg_args(regex: re.Pattern[str]) -> list[str]:
    args = [
        "rg",
        "--no-config",
        "--hidden",
        "--no-require-git",
        "--no-ignore-global",
        "--no-ignore-dot",
        "--max-filesize",
        "1M",
        "--color",
        "never",
    ]
    for name in sorted(SKIP_DIRS):
        args += ["-g", f"!{name}/"]
    return args + (["-i"] if regex.flags & re.IGNORECASE else [])


def search_rg(
    base: Path,
    start: str,
    regex: re.Pattern[str],
    glob: str | None,
    limit: int,
    until: float | None = None,
) -> Hits | None:
    """None when rg cannot take the pattern (e.g. look-arounds): the caller falls back."""
    flags = [*_rg_args(regex), "--null", "--with-filename"]
    pattern = ["-e", regex.pattern, "--"]
    # one pass lists every searched file with its count of matching lines (0 included)
    until = deadline() if until is None else until
    counted = run_limited(
        [*flags, "--count", "--include-zero", *pattern, start or "."], base, until
    )
    if counted.returncode == 2 and not counted.stdout:
        return None
    glob_keep, project = glob_filter(glob), outside_venvs(base, start)
    hits = Hits(engine="rg")
    named = timed(regex, until)
    raw_paths: dict[str, bytes] = {}
    for row in counted.stdout.split(b"\n"):
        raw, _, number = row.rpartition(b"\0")
        path = _norm(raw)
        if not raw or not glob_keep(path) or not project(path):
            continue
        if named.search(path):
            hits.names.append(path)
        if number != b"0":
            hits.counts.append((path, int(number)))
            raw_paths[path] = raw
    hits.names.sort()
    hits.counts.sort()
    wanted, total = [], 0
    for path, n in hits.counts:
        if total >= limit:
            break
        wanted.append(path)
        total += n
    if wanted and not _lines_in_process(hits, base, wanted, regex, limit, until):
        files = [raw_paths[p].decode("utf-8", "surrogateescape") for p in wanted]
        args = [*flags, "-n", "--no-heading", "--max-count", str(limit), *pattern, *files]
        out = run_limited(args, base, until).stdout
        taken = 0
        for path in wanted:
            hits.lines[path] = _block(out, raw_paths[path], limit - taken)
            taken += len(hits.lines[path])
    return hits


def _lines_in_process(
    hits: Hits, base: Path, wanted: list[str], regex: re.Pattern[str], limit: int, until: float
) -> bool:
    """Read the few files to show here rather than run rg again; False (nothing kept) when
    Python's regex dialect does not count what rg counted."""
    rx, fold = _compile(regex, until), bool(regex.flags & re.IGNORECASE)
    counts, lines, taken = dict(hits.counts), {}, 0
    for path in wanted:
        data = _searchable(os.path.join(base, path))
        if data is None:
            return False
        count, found = _search_data(rx, data, fold, limit - taken)
        if count != counts[path]:
            return False
        lines[path] = found
        taken += len(found)
    hits.lines.update(lines)
    return True


def _norm(path: bytes | str) -> str:
    text = path.decode("utf-8", "replace") if isinstance(path, bytes) else path
    return text[2:] if text.startswith("./") else text


def _block(out: bytes, raw: bytes, limit: int) -> list[tuple[int, str]]:
    """The first `limit` lines rg printed for one file (rg prints a file's lines together)."""
    key = raw + b"\0"
    pos = 0 if out.startswith(key) else out.find(b"\n" + key) + 1
    lines: list[tuple[int, str]] = []
    while pos < len(out) and out.startswith(key, pos) and len(lines) < limit:
        end = out.find(b"\n", pos)
        end = len(out) if end < 0 else end
        number, _, text = out[pos + len(key) : end].partition(b":")
        lines.append((int(number), text.decode("utf-8", "replace")))
        pos = end + 1
    return lines


# --- pure Python ---------------------------------------------------------------------------
# non-ASCII letters that match ASCII ones when ignoring case (ſ→s, Kelvin sign→k, İ/ı→i)
FOLDS_TO_ASCII = {
    b"s": ("\u017f".encode(),),
    b"k": ("\u212a".encode(),),
    b"i": ("\u0130".encode(), "\u0131".encode()),
}


@dataclass
class _Compiled:
    """The pattern in the forms the fallback uses: str and bytes, each also with `[^\\n]*`."""

    text: re.Pattern[str]
    text_rest: re.Pattern[str] | None
    raw: re.Pattern[bytes] | None
    raw_rest: re.Pattern[bytes] | None
    literal: bytes | None = None  # text every match contains (lower case when ignoring case)
    pure: re.Pattern[bytes] | None = None  # `literal[^\\n]*` when the pattern is only that text
    folds: tuple[bytes, ...] = ()  # non-ASCII letters that match one of the literal's letters


def required_literal(regex: re.Pattern[str]) -> tuple[bytes | None, bool]:
    """The longest run of plain characters the pattern always needs, as ASCII bytes, and
    whether that run is the whole pattern."""
    try:
        from re import _constants, _parser  # CPython's own regex parser

        parsed = _parser.parse(regex.pattern, regex.flags)
    except Exception:  # another interpreter or an unusual pattern: no prefilter
        return None, False
    best, run = "", ""
    for op, arg in parsed:
        if op is _constants.LITERAL and chr(arg).isascii():
            run += chr(arg)
        else:
            best, run = max(best, run, key=len), ""
    best = max(best, run, key=len)
    if len(best) < 2:
        return None, False
    text = best.lower() if regex.flags & re.IGNORECASE else best
    return text.encode("ascii"), len(best) == len(parsed)


def _one_per_line(regex: re.Pattern) -> re.Pattern | None:
    """`(?:PAT)[^\\n]*`: each match swallows the rest of its line, so C counts matching lines."""
    if regex.groups or regex.search(regex.pattern[:0]) is not None:  # groups or empty matches
        return None
    pattern = regex.pattern
    wrapped = (b"(?:%s)[^\n]*" % pattern) if isinstance(pattern, bytes) else f"(?:{pattern})[^\n]*"
    try:
        return re.compile(wrapped, regex.flags)
    except re.error:
        return None


def _compile(regex: re.Pattern[str], until: float) -> _Compiled:
    """The forms of `regex`, each matching call stopping at `until` (SearchTimeout)."""
    plain = _compile_plain(regex)
    plain.text, plain.text_rest = timed(plain.text, until), timed(plain.text_rest, until)
    plain.raw, plain.raw_rest = timed(plain.raw, until), timed(plain.raw_rest, until)
    return plain


def _compile_plain(regex: re.Pattern[str]) -> _Compiled:
    raw = None
    if regex.pattern.isascii():
        try:
            raw = re.compile(regex.pattern.encode("ascii"), regex.flags & ~re.UNICODE)
        except (re.error, ValueError):
            raw = None
    literal, whole = required_literal(regex)
    pure = re.compile(re.escape(literal) + b"[^\n]*") if literal and whole else None
    folds = tuple(f for ch, fs in FOLDS_TO_ASCII.items() if literal and ch in literal for f in fs)
    return _Compiled(
        regex, _one_per_line(regex), raw, _one_per_line(raw) if raw else None, literal, pure, folds
    )


def search_python(
    base: Path,
    start: str,
    regex: re.Pattern[str],
    glob: str | None,
    limit: int,
    until: float | None = None,
) -> Hits:
    keep = glob_filter(glob)
    until = deadline() if until is None else until
    rx, named = _compile(regex, until), timed(regex, until)
    fold = bool(regex.flags & re.IGNORECASE)
    hits = Hits(engine="python")
    if start and (base / start).is_file():
        files = [(start, (base / start).stat().st_size)]
    else:
        files = ((e.rel, e.size) for e in walk(base, start))
    taken = 0
    for rel, size in files:
        if size > MAX_FILE_BYTES or not keep(rel):
            continue
        data = _searchable(os.path.join(base, rel))
        if data is None:
            continue
        if named.search(rel):
            hits.names.append(rel)
        count, lines = _search_data(rx, data, fold, limit - taken)
        if count:
            hits.counts.append((rel, count))
            if lines:
                hits.lines[rel] = lines
                taken += len(lines)
    return hits


def _searchable(path: str) -> bytes | None:
    """A file's bytes as rg searches them (UTF-16 and BOMs decoded), or None for binaries."""
    try:
        with open(path, "rb", buffering=0) as fh:
            data = fh.read()
    except OSError:
        return None
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a BOM, as rg reads it
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            pass
    if b"\0" in data:
        return None
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _search_data(rx: _Compiled, data: bytes, fold: bool, want: int) -> tuple[int, list]:
    """(matching lines, the first `want` as (number, text)) for one file's bytes."""
    ascii_only = data.isascii()
    literal = rx.literal
    if fold and literal and not ascii_only and any(f in data for f in rx.folds):
        literal = None  # a non-ASCII letter that matches an ASCII one: no shortcut
    hay = data.lower() if fold and literal else data  # bytes.lower(): ASCII only, same length
    if literal and literal not in hay:
        return 0, []
    if literal and rx.pure is not None:  # the pattern is plain text: count in C
        count = len(rx.pure.findall(hay))
        lines = _first_lines(rx.pure, data, b"\n", want, hay) if want > 0 else []
        return count, [(n, t.decode("utf-8", "replace")) for n, t in lines]
    if rx.raw is not None and ascii_only:
        if fold and literal:  # case-insensitive sre is slow: test only lines with the literal
            count, lines = _literal_hits(rx.raw, data, hay, literal, want)
        else:
            count, lines = _file_hits(rx.raw, rx.raw_rest, data, want)
        return count, [(n, t.decode("ascii")) for n, t in lines]
    if fold and literal:
        return _literal_hits(rx.text, data, hay, literal, want, decode=True)
    return _file_hits(rx.text, rx.text_rest, data.decode("utf-8", "replace"), want)


def _file_hits(rx: re.Pattern, rest: re.Pattern | None, data, want: int) -> tuple[int, list]:
    """Counted in C where possible: `rest` swallows each matching line whole."""
    nl = "\n" if isinstance(data, str) else b"\n"
    if rx.search(data) is None:
        return 0, []
    if rest is None:
        return _scan_lines(rx, data, nl, want)
    found = rest.findall(data)
    if nl.join(found).count(nl) != len(found) - 1:  # a match spans lines: go line by line
        return _scan_lines(rx, data, nl, want)
    return len(found), (_first_lines(rx, data, nl, want) if want > 0 else [])


def _literal_hits(
    rx: re.Pattern, data: bytes, hay: bytes, literal: bytes, want: int, decode: bool = False
) -> tuple[int, list]:
    """Only lines holding the required literal can match: find them fast, then test each
    (decoded from UTF-8 first when `rx` is a text pattern)."""
    count, found, pos, number, last = 0, [], hay.find(literal), 1, 0
    while pos >= 0:
        start = hay.rfind(b"\n", 0, pos) + 1
        end = hay.find(b"\n", pos)
        end = len(hay) if end < 0 else end
        line = data[start:end].decode("utf-8", "replace") if decode else data[start:end]
        if rx.search(line):
            count += 1
            if len(found) < want:
                number += data.count(b"\n", last, start)
                last = start
                found.append((number, line))
        pos = hay.find(literal, end + 1)
    return count, found


def _first_lines(rx: re.Pattern, data, nl, want: int, hay=None) -> list:
    """The first `want` matching lines as (line number, text); matches are looked for in
    `hay` (a same-length, lower-cased copy) when given."""
    hay = data if hay is None else hay
    found, line_end, last_start, number = [], -1, 0, 1
    for m in rx.finditer(hay):
        s = m.start()
        if s <= line_end:
            continue
        line_start = hay.rfind(nl, 0, s) + 1
        line_end = hay.find(nl, s)
        line_end = len(hay) if line_end < 0 else line_end
        number += data.count(nl, last_start, line_start)
        last_start = line_start
        found.append((number, data[line_start:line_end]))
        if len(found) >= want:
            break
    return found


def _scan_lines(rx: re.Pattern, data, nl, want: int) -> tuple[int, list]:
    """Line by line, like grep: the count in C (filter), then the first `want` lines."""
    lines = data.split(nl)
    if lines and not lines[-1]:
        lines.pop()
    count = len(list(filter(rx.search, lines)))
    found: list = []
    if count and want > 0:
        for number, line in enumerate(lines, 1):
            if rx.search(line):
                found.append((number, line))
                if len(found) >= want:
                    break
    return count, found
