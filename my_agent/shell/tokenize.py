"""A small bash reader for safety checks: pipelines of simple commands, substitutions included.

It is not a shell: it only needs to find every command a line would run, including those in
`&&`/`||`/`;` chains, pipelines, `( )` subshells, `$( )`, backticks and `<( )`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Word:
    text: str
    subs: list[str] = field(default_factory=list)  # command substitutions inside the word


@dataclass
class Simple:
    words: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, Word]] = field(default_factory=list)
    heredoc: str = ""  # the body of its `<<TAG` here-document, if any

    @property
    def argv(self) -> list[str]:
        return [w.text for w in self.words]


Pipeline = list[Simple]
_REDIRECT_OPS = (">>", ">|", "&>>", "&>", "<<<", "<<", "<>", ">", "<")


def _balanced(s: str, i: int) -> int:
    """Index just past the `)` that closes the `(` before position i (quotes respected)."""
    depth = 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            i = s.find("'", i + 1)
            i = len(s) if i < 0 else i + 1
            continue
        if c == '"':
            i = _close_double(s, i + 1)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(s)


def _close_double(s: str, i: int) -> int:
    while i < len(s) and s[i] != '"':
        i += 2 if s[i] == "\\" else 1
    return i + 1


def _backtick(s: str, i: int) -> int:
    while i < len(s) and s[i] != "`":
        i += 2 if s[i] == "\\" else 1
    return i


class _Reader:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.pipelines: list[Pipeline] = []
        self.pipe: Pipeline = []
        self.cmd = Simple()
        self.word: Word | None = None
        self.pending_redirect: str | None = None
        self.heredocs: list[tuple[str, Simple]] = []  # (tag, command) awaiting their bodies
        self.bodies: list[tuple[int, int]] = []  # where here-document bodies lie in the text

    # --- building ------------------------------------------------------------------------
    def add_char(self, c: str) -> None:
        if self.word is None:
            self.word = Word("")
        self.word.text += c

    def add_sub(self, inner: str, literal: str) -> None:
        if self.word is None:
            self.word = Word("")
        self.word.subs.append(inner)
        self.word.text += literal

    def end_word(self) -> None:
        if self.word is None:
            return
        if self.pending_redirect:
            if self.pending_redirect == "<<":
                self.heredocs.append((self.word.text.lstrip("-"), self.cmd))
            else:
                self.cmd.redirects.append((self.pending_redirect, self.word))
            self.pending_redirect = None
        else:
            self.cmd.words.append(self.word)
        self.word = None

    def end_command(self) -> None:
        self.end_word()
        if self.cmd.words or self.cmd.redirects:
            self.pipe.append(self.cmd)
        self.cmd = Simple()

    def end_pipeline(self) -> None:
        self.end_command()
        if self.pipe:
            self.pipelines.append(self.pipe)
        self.pipe = []

    # --- reading -------------------------------------------------------------------------
    def run(self) -> list[Pipeline]:
        s = self.s
        while self.i < len(s):
            self.step(s[self.i])
        self.end_pipeline()
        return self.pipelines

    def step(self, c: str) -> None:
        """Consume the construct starting at character `c` (position self.i)."""
        s, i = self.s, self.i
        if c == "\n":
            self.end_pipeline()
            self.i = self.skip_heredocs(i + 1)
        elif c == "#" and self.word is None:
            nl = s.find("\n", i)
            self.i = len(s) if nl < 0 else nl
        elif c in "\\'\"`":
            self.i = self.quoted(c, i)
        elif s.startswith("$((", i):
            end = _balanced(s, i + 2)
            self.add_char(s[i:end])
            self.i = end
        elif s.startswith("$(", i) or (s.startswith(("<(", ">("), i) and self.word is None):
            end = _balanced(s, i + 2)
            self.add_sub(s[i + 2 : end - 1], s[i:end])
            self.i = end
        elif c == "(" and self.word is None:
            end = _balanced(s, i + 1)
            self.end_pipeline()
            self.pipelines.extend(parse(s[i + 1 : end - 1]))
            self.i = end
        elif c in "|&;<>" or c == ")":
            self.operator()
        else:
            if c in " \t":
                self.end_word()
            else:
                self.add_char(c)
            self.i = i + 1

    def quoted(self, c: str, i: int) -> int:
        """A backslash escape, '…', "…" or `…` starting at i; returns the position after it."""
        s = self.s
        if c == "\\":
            self.add_char(s[i + 1] if i + 1 < len(s) else "")
            return i + 2
        if c == "'":
            end = s.find("'", i + 1)
            end = len(s) if end < 0 else end
            self.add_char(s[i + 1 : end])
            return end + 1
        if c == '"':
            return self.double_quoted(i + 1)
        end = _backtick(s, i + 1)
        self.add_sub(s[i + 1 : end], s[i : end + 1])
        return end + 1

    def double_quoted(self, i: int) -> int:
        s = self.s
        if self.word is None:
            self.word = Word("")
        while i < len(s) and s[i] != '"':
            if s[i] == "\\" and i + 1 < len(s):
                self.word.text += s[i + 1]
                i += 2
            elif s.startswith("$(", i) and not s.startswith("$((", i):
                end = _balanced(s, i + 2)
                self.add_sub(s[i + 2 : end - 1], s[i:end])
                i = end
            elif s[i] == "`":
                end = _backtick(s, i + 1)
                self.add_sub(s[i + 1 : end], s[i : end + 1])
                i = end + 1
            else:
                self.word.text += s[i]
                i += 1
        return i + 1

    def operator(self) -> None:
        s, i = self.s, self.i
        if (
            self.word is not None
            and self.word.text.isdigit()
            and not self.word.subs
            and s[i] in "<>"
        ):
            self.word = None  # a file-descriptor number: 2> file
        for op in ("&&", "||", "|&", ";;"):
            if s.startswith(op, i):
                (self.end_command if op == "|&" else self.end_pipeline)()
                self.i = i + 2
                return
        if s.startswith((">&", "<&"), i):  # 2>&1: a duplication, not a file
            self.end_word()
            j = i + 2
            while j < len(s) and (s[j].isdigit() or s[j] == "-"):
                j += 1
            self.i = j
            return
        for op in _REDIRECT_OPS:
            if s.startswith(op, i):
                self.end_word()
                self.pending_redirect = op
                self.i = i + len(op)
                return
        self.end_command() if s[i] == "|" else self.end_pipeline()
        self.i = i + 1

    def skip_heredocs(self, i: int) -> int:
        """Skip here-document bodies (text, not commands) that start on this line; each body
        is kept on the command that reads it."""
        while self.heredocs:
            tag, cmd = self.heredocs.pop(0)
            start, rows = i, []
            while i < len(self.s):
                nl = self.s.find("\n", i)
                line = self.s[i:] if nl < 0 else self.s[i:nl]
                i = len(self.s) if nl < 0 else nl + 1
                if line.strip() == tag:
                    break
                rows.append(line)
            cmd.heredoc = "\n".join(rows)
            self.bodies.append((start, i))
        return i


def parse(text: str) -> list[Pipeline]:
    """Every pipeline in `text`; commands inside substitutions stay in `Word.subs`."""
    return _Reader(text).run()


def strip_heredocs(text: str) -> str:
    """`text` without its here-document bodies: `cat <<EOF > f.py` stays, the file text goes."""
    reader = _Reader(text)
    reader.run()
    out, last = [], 0
    for start, end in reader.bodies:
        out.append(text[last:start])
        last = end
    return ("".join(out) + text[last:]).rstrip("\n") if reader.bodies else text
