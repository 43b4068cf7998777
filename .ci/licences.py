"""Licence scan for CI: every installed distribution must have a licence we accept.

Policy (docs/development.md, "Licences"): permissive licences are accepted (MIT, BSD, Apache-2.0, ISC, PSF,
MPL-2.0 and the like); LGPL is accepted because Unicum only imports those libraries, unmodified;
GPL, AGPL and SSPL fail, and so does a distribution whose licence cannot be found. For
"A OR B" one acceptable choice is enough; for "A AND B" (or "A; B") every part must be.
The licence is read from the SPDX expression, else the trove classifiers, else the metadata
field, else the first line of the shipped licence file (pip-licenses --from=all).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

ACCEPTED = re.compile(
    r"\b(MIT|BSD|0BSD|Apache|ISC|PSF|Python Software Foundation|CNRI-Python|MPL|"
    r"Mozilla Public License|Unlicense|Zlib|HPND|LGPL|GNU Lesser General Public)",
    re.IGNORECASE,
)
REFUSED = re.compile(
    r"\b(AGPL|SSPL|Server Side Public|Affero)|(?<![L\w])GPL|GNU General Public", re.IGNORECASE
)
FILE_HEADS = (  # the first words of a licence file, when the metadata says nothing
    ("Permission is hereby granted, free of charge", "MIT"),
    ("MIT License", "MIT"),
    ("Apache License", "Apache-2.0"),
    ("BSD 3-Clause", "BSD-3-Clause"),
    ("Mozilla Public License", "MPL-2.0"),
)
UNKNOWN = "UNKNOWN"


def licence_of(package: dict[str, str]) -> str:
    for field in ("License-Expression", "License-Classifier", "License-Metadata"):
        value = (package.get(field) or "").strip()
        if value and value != UNKNOWN:
            first = value.splitlines()[0].strip()
            return _from_text(value) or first if len(value) > 200 else value
    return _from_text(package.get("LicenseText") or "") or UNKNOWN


def _from_text(text: str) -> str:
    head = " ".join(text.split())[:400]
    for words, name in FILE_HEADS:
        if words.lower() in head.lower():
            return name
    return ""


def _part_ok(part: str) -> bool:
    return bool(ACCEPTED.search(part)) and not REFUSED.search(part)


def accepted(licence: str) -> bool:
    if licence == UNKNOWN:
        return False
    choices = re.split(r"\s+OR\s+", licence.replace("(", "").replace(")", ""))
    return any(
        all(_part_ok(p) for p in re.split(r"\s+AND\s+|;\s*", choice) if p.strip())
        for choice in choices
    )


def main(argv: list[str]) -> int:
    """Prints the refused ones (every one with `--all`); exit 1 when any is refused."""
    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "piplicenses",
            "--from=all",
            "--format=json",
            "--with-license-file",
            "--no-license-path",
            "--ignore-packages",
            "unicum",  # ourselves (installed by .ci/run for the entry point): not a dependency
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    failed = []
    for package in sorted(json.loads(report.stdout), key=lambda p: p["Name"].lower()):
        licence = licence_of(package)
        ok = accepted(licence)
        if not ok or "--all" in argv:
            print(f"{'ok  ' if ok else 'FAIL'} {package['Name']} {package['Version']}: {licence}")
        if not ok:
            failed.append(package["Name"])
    if failed:
        print(f"licence scan: not accepted (GPL/AGPL/SSPL or unknown): {', '.join(failed)}")
        return 1
    count = len(json.loads(report.stdout))
    print(f"licence scan: all {count} installed distributions have an accepted licence")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
