"""Every PHH import of the hold'em unit tests is a differential test too: where the native
importer takes the files (``phh.native_import``), the Python reference imports them as
well and the two must agree byte for byte (``assert_same_import``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from services.importers import phh
from tests.unit.holdem.phh_differential import assert_same_import


@pytest.fixture(autouse=True)
def native_imports_match_the_reference(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    native_import = phh.native_import

    def checked(files: list[Path], options: phh.ImportOptions, output: BinaryIO | None = None
                ) -> phh.ImportResult | phh.Declined:
        native = native_import(files, options, output)
        if isinstance(native, phh.ImportResult):
            reference = phh.import_phh(files, engine="python",
                                       rule_profile=options.rule_profile,
                                       chip_unit=options.chip_unit,
                                       big_blind_ante_field=options.big_blind_ante_field)
            assert_same_import(native, reference, written(output))
        return native

    monkeypatch.setattr(phh, "native_import", checked)
    yield


def written(output: BinaryIO | None) -> bytes | None:
    """What an import wrote to ``output`` so far (its place in the file kept)."""
    if output is None:
        return None
    at = output.tell()
    output.seek(0)
    data = output.read()
    output.seek(at)
    return data
