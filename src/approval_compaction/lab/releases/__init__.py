"""Releases: the study on every ``openai-agents`` release. Version specs and upload dates
(``versions``), one cached environment per release (``environments``), the probe that runs the
cases inside one (``probe``), the sweep over all of them (``sweep``), ``bisect``, the regression
test per release (``crosscheck``), the frames that read the sweep's results (``tables``), and
the later turns' modes and records (``later_turns``; their runs, and the workaround beside the
newest release, are the Python SDK's folder's ``later_turns`` and ``comparison``);
``findings.releases`` states what the sweep found.
"""

# The pinned and the newest release are the study's words (the command line's help names them).
from ...study.words import NEWEST as NEWEST
from ...study.words import PINNED as PINNED
