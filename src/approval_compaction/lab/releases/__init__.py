"""Releases: the study on every ``openai-agents`` release. Version specs and upload dates
(``versions``), one cached environment per release (``environments``), the probe that runs the
cases inside one (``probe``), the sweep over all of them (``sweep``), ``bisect``, the regression
test per release (``crosscheck``), the frames that read the sweep's results (``tables``), and
the workaround beside the newest release (``comparison``, ``liveness_comparison``);
``findings.releases`` states what the sweep found.
"""

# The release this project pins (requirements.txt) and the newest one, which fixes the bug (tests
# check both); here, where a release's own interpreter can import them with nothing else.
PINNED = "0.23.1"
NEWEST = "0.24.0"
