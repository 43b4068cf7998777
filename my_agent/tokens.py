"""A fast local token estimator, CJK-aware. Provider-reported usage is the truth where it exists."""

from __future__ import annotations

import re

# Runs of CJK ideographs, kana and hangul: about one token per character in common tokenizers.
_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)
_WORDS = re.compile(r"[A-Za-z]+|\d+|\S")


def estimate_tokens(text: str, ratio: float = 1.0) -> int:
    """Roughly what a BPE tokenizer would count; `ratio` calibrates against provider usage."""
    if not text:
        return 0
    cjk = len(_CJK.findall(text))
    rest = _CJK.sub(" ", text) if cjk else text
    count = 0
    for piece in _WORDS.findall(rest):
        count += (
            1 + (len(piece) - 1) // 6
            if piece[0].isalpha()
            else ((len(piece) + 2) // 3 if piece[0].isdigit() else 1)
        )
    return max(1, int((count + cjk) * ratio))
