"""A LaTeX document citing every entry of a .bib, compiled as a user would (engine, bibtex or
biber, engine twice), with every error and warning of each step collected, and its text."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .tools import program

#: a CJK-capable font for xelatex (Debian's fonts-wqy-microhei), the whole text in it
_CJK = (
    "\\usepackage{fontspec}\n"
    "\\setmainfont{WenQuanYi Micro Hei}[AutoFakeBold=2, AutoFakeSlant=0.2]\n"
)
_PROBLEM = re.compile(r"^!|Warning|Overfull|Underfull|Missing character", re.MULTILINE)


@dataclass(frozen=True)
class Compiled:
    problems: list[str]
    text: str


def _run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=300, check=False)


def compile_bib(
    bib: str, folder: Path, *, style: str = "plain", engine: str = "pdflatex", biber: bool = False
) -> Compiled:
    """`\\nocite{*}` of `bib` with bibtex's `style`, or with biblatex and biber."""
    tex = program(engine)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    preamble = _CJK if engine == "xelatex" else ""
    if biber:
        preamble += "\\usepackage{xurl}\n\\usepackage[backend=biber]{biblatex}\n"
        preamble += "\\addbibresource{refs.bib}\n"
        if engine == "pdflatex":  # hyperref's \\url reads an escaped % as % (bibvalues.url_field)
            preamble += "\\usepackage{hyperref}\n"
        body = "\\raggedright\n\\printbibliography\n"
    else:
        preamble += "\\usepackage{xurl}\n"
        if engine == "pdflatex":
            preamble += "\\usepackage{hyperref}\n"
        body = f"\\raggedright\n\\bibliographystyle{{{style}}}\n\\bibliography{{refs}}\n"
    doc = (
        f"\\documentclass{{article}}\n{preamble}"
        f"\\begin{{document}}\n\\nocite{{*}}\n{body}\\end{{document}}\n"
    )
    (folder / "doc.tex").write_text(doc, encoding="utf-8")
    run = [tex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    _run(run, folder)
    _run([program("biber"), "doc"] if biber else [program("bibtex"), "doc"], folder)
    _run(run, folder)
    _run(run, folder)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    problems = [ln for ln in log.splitlines() if _PROBLEM.search(ln)]
    blg = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
    problems += [
        ln
        for ln in blg.splitlines()
        if re.search(r"Warning--|WARN|ERROR|I couldn't|error message", ln)
    ]
    pdf = folder / "doc.pdf"
    assert pdf.exists(), "\n".join(problems) or log[-3000:]
    text = subprocess.run(
        [program("pdftotext"), "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    return Compiled(problems, text)


def datamodel_problems(folder: Path) -> list[str]:
    """What biber's data-model validation says of the last biblatex compile in `folder`, other
    than mandatory fields the entry has no metadata for (a web page has no author or date)."""
    out = subprocess.run(
        [program("biber"), "--validate-datamodel", "doc"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    ).stdout
    return [
        ln
        for ln in out.splitlines()
        if "WARN" in ln and "Missing mandatory field" not in ln and "WARNINGS:" not in ln
    ]
