"""The CI licence policy (.ci/licences.py): which licence strings pass and which fail."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

POLICY = runpy.run_path(str(Path(__file__).resolve().parents[2] / ".ci" / "licences.py"))


@pytest.mark.parametrize(
    ("licence", "ok"),
    [
        ("MIT", True),
        ("BSD-3-Clause", True),
        ("Apache Software License; MIT License", True),
        ("Mozilla Public License 2.0 (MPL 2.0)", True),
        ("PSF-2.0", True),
        ("ISC License (ISCL)", True),
        ("LGPL-3.0-only", True),  # imported, unmodified: accepted
        ("GNU Lesser General Public License v3 (LGPLv3)", True),
        ("MPL-1.1 OR GPL-2.0-only OR LGPL-2.1-or-later", True),  # one acceptable choice
        ("GPL-3.0-or-later", False),
        ("GNU General Public License v2 or later (GPLv2+)", False),
        ("AGPL-3.0-only", False),
        ("GNU Affero General Public License v3", False),
        ("SSPL-1.0", False),
        ("Server Side Public License", False),
        ("MIT AND GPL-2.0-only", False),  # every part must be acceptable
        ("UNKNOWN", False),
        ("Proprietary", False),
    ],
)
def test_policy(licence: str, ok: bool):
    assert POLICY["accepted"](licence) is ok


def test_licence_found_in_the_shipped_file_when_the_metadata_is_silent():
    text = (
        "MIT License\n\nCopyright (c) Zhipu, Inc.\n\nPermission is hereby granted, free of charge"
    )
    found = POLICY["licence_of"]({"License-Metadata": "UNKNOWN", "LicenseText": text})
    assert found == "MIT"
    assert POLICY["licence_of"]({"License-Expression": "UNKNOWN"}) == "UNKNOWN"
