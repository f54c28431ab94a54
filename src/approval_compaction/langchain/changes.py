"""Changes: what moved each boundary of the LangChain sweep, named from the public record.

The sweep finds where a setting's result changes between two consecutive releases
(``finding.boundaries``); each change below is the first release of one such boundary, what
changed in the package, and where the public record shows it: langchain's pull requests and
issues, or, where none names it, the release's own files as the package index ships them. A
test holds every computed boundary to a change here and every change to a boundary.
"""

from __future__ import annotations

from ..lab.findings.driven import Change as Change

REPO = "https://github.com/langchain-ai/langchain"


CHANGES: tuple[Change, ...] = ()
