"""Does a PDF report fit its pages? Render every page to PNG and look in the margins.

Why pixels: WeasyPrint lays a table that is too wide past the content box and the page
clips it at the paper's edge, silently; only the rendered page shows it. ``pdftoppm``
(poppler-utils, installed by ``scripts/services.sh``) renders each page; any ink in the
left, right or top margin (the page margins of ``report.css``, less a millimetre for
anti-aliasing) is content that ran past the page. The bottom margin holds the running
footer, so it is not checked.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from PIL import Image

DPI = 60
INK = 200  # a grey level below this (0 black .. 255 white) is ink
SLACK_MM = 1.0


@dataclass(frozen=True)
class Margins:
    top: float
    right: float
    bottom: float
    left: float


def page_margins() -> Margins:
    """The ``@page`` margins of the reports' stylesheet, in millimetres."""
    css = resources.files("services.reports").joinpath("static/report.css").read_text("utf-8")
    found = re.search(r"@page\s*{[^}]*?margin:\s*([\d.]+)mm\s+([\d.]+)mm\s+([\d.]+)mm\s+"
                      r"([\d.]+)mm", css)
    assert found, "report.css: @page { margin: T R B L } in mm"
    return Margins(*(float(v) for v in found.groups()))


def render_pages(pdf: bytes, folder: Path) -> list[Path]:
    """Each page of ``pdf`` as a PNG, in page order."""
    tool = shutil.which("pdftoppm")
    assert tool, "pdftoppm is missing: install poppler-utils (bash scripts/services.sh up)"
    source = folder / "report.pdf"
    source.write_bytes(pdf)
    subprocess.run([tool, "-png", "-r", str(DPI), str(source), str(folder / "page")],
                   check=True, capture_output=True)
    return sorted(folder.glob("page-*.png"), key=lambda p: int(p.stem.split("-")[-1]))


def overflow(pdf: bytes) -> list[str]:
    """Where content runs past the page: one line per page and margin (empty: it fits)."""
    margins = page_margins()
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, png in enumerate(render_pages(pdf, Path(tmp)), start=1):
            with Image.open(png) as image:
                problems += _inked_margins(number, image.convert("L"), margins)
    return problems


def _px(mm: float) -> int:
    return int((mm - SLACK_MM) / 25.4 * DPI)


def _inked_margins(number: int, page: Image.Image, m: Margins) -> list[str]:
    width, height = page.size
    ink = page.point(lambda grey: 255 if grey < INK else 0)
    boxes = {"left": (0, 0, _px(m.left), height),
             "right": (width - _px(m.right), 0, width, height),
             "top": (0, 0, width, _px(m.top))}
    return [f"page {number}: content in the {side} margin"
            for side, box in boxes.items() if ink.crop(box).getbbox() is not None]
