"""Bytes ↔ text for the file tools: encodings, line endings, binary detection."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path

from my_agent.files import UnsafePath, read_resolved
from tools.base import ToolError

MAX_READ = 64 * 1024 * 1024 + 1  # read_file refuses larger files before reading

# magic bytes → what the file is, for refusing binaries with a useful description
SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"%PDF", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (or docx/xlsx/jar/wheel)"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\x7fELF", "ELF executable"),
    (b"MZ", "Windows executable"),
    (b"SQLite format 3", "SQLite database"),
    (b"\xca\xfe\xba\xbe", "Java class or Mach-O"),
    (b"\x00asm", "WebAssembly module"),
    (b"BZh", "bzip2 archive"),
    (b"\xfd7zXZ", "xz archive"),
    (b"7z\xbc\xaf", "7-Zip archive"),
    (b"RIFF", "RIFF media (wav/avi/webp)"),
    (b"ID3", "MP3 audio"),
    (b"OggS", "Ogg media"),
    (b"\x00\x00\x01\x00", "icon"),
)
BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
FALLBACKS = ("gb18030", "latin-1")  # after UTF-8 and mostly-UTF-8; latin-1 never fails
MOSTLY_UTF8 = 4  # valid non-ASCII UTF-8 bytes per invalid byte, at least
_ASCII = bytes(range(128))
_ESCAPED = re.compile("[\udc80-\udcff]")  # undecodable bytes kept by "surrogateescape"
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Text:
    text: str  # with "\n" line endings; stray bytes of a mostly-UTF-8 file kept as surrogates
    encoding: str
    newline: str  # "\n" or "\r\n"
    invalid: int = 0  # undecodable bytes kept as they were (shown as U+FFFD)


def human_size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


def binary_kind(raw: bytes) -> str | None:
    """A description when `raw` is binary (by magic bytes or NULs), else None."""
    if any(raw.startswith(bom) for bom, _ in BOMS):
        return None
    for magic, kind in SIGNATURES:
        if raw.startswith(magic):
            return kind
    head = raw[:8192]
    if b"\0" in head:
        return "binary data"
    return None


def decode_bytes(raw: bytes) -> tuple[str, str, int]:
    """(text, encoding, invalid bytes): the one decoding rule for files, instruction files,
    skills and command output. BOMs, then UTF-8; mostly-UTF-8 bytes with a few stray bytes
    stay UTF-8 (the stray bytes kept as surrogates, so they are written back unchanged);
    then GB18030 (superset of GBK); then latin-1, which never fails."""
    for bom, enc in BOMS:
        if raw.startswith(bom):
            return raw.decode(enc, errors="replace"), enc, 0
    try:
        return raw.decode("utf-8"), "utf-8", 0
    except UnicodeDecodeError:
        pass
    text = raw.decode("utf-8", errors="surrogateescape")
    bad = len(_ESCAPED.findall(text))
    valid = len(raw) - len(raw.translate(None, _ASCII)) - bad
    if valid >= MOSTLY_UTF8 * bad:
        return text, "utf-8", bad
    for enc in FALLBACKS:
        try:
            return raw.decode(enc), enc, 0
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes any bytes")


def printable(text: str) -> str:
    """`text` safe to send or show: kept stray bytes (surrogates) become U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def decode_text(raw: bytes) -> str:
    """Bytes → display text by the one rule (`decode_bytes`), stray bytes as U+FFFD."""
    return printable(decode_bytes(raw)[0])


def decode(raw: bytes) -> Text:
    """A file's text for the tools, remembering encoding and line endings to write it back."""
    text, used, bad = decode_bytes(raw)
    crlf = text.count("\r\n")
    if crlf and crlf == text.count("\n"):  # consistently CRLF: edit as "\n", write back CRLF
        return Text(text.replace("\r\n", "\n"), used, "\r\n", bad)
    return Text(text, used, "\n", bad)  # mixed endings stay exactly as they are


def encode(text: str, encoding: str, newline: str) -> bytes:
    if newline == "\r\n":
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    errors = "surrogateescape" if encoding == "utf-8" else "strict"  # stray bytes go back as-is
    try:
        return text.encode(encoding, errors=errors)
    except UnicodeEncodeError as exc:
        raise ToolError(
            f"the new text has characters the file's encoding {encoding} cannot "
            f"store ({exc.object[exc.start : exc.end]!r})"
        ) from None


def read_text(target: Path, shown: str) -> Text:
    """Decode a text file, refusing directories, missing files and binaries with a reason."""
    if not target.exists():
        raise ToolError(f"{shown}: no such file")
    if target.is_dir():
        raise ToolError(f"{shown} is a directory; use list_files")
    if not target.is_file():
        raise ToolError(f"{shown} is not a regular file")
    try:
        raw = read_resolved(target if target.is_absolute() else target.resolve(), MAX_READ)
    except UnsafePath as exc:
        raise ToolError(f"{shown}: {exc}") from None
    except OSError as exc:
        raise ToolError(f"{shown}: {exc.strerror or exc}") from None
    kind = binary_kind(raw)
    if kind:
        raise ToolError(f"{shown} is a binary file ({kind}, {human_size(len(raw))}); not shown")
    return decode(raw)
