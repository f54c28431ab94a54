"""Study: what every SDK's driver shares, run by any of them and read by the analysis.

The typed words (``words``: the settings, kinds and situations, and the study's compaction
mode), the scenario's cases (``scenario``), the plain records a run leaves behind (``items``,
``capture``), an SDK's moves for the state-space search as data (``moves``), the process
boundary a driver crosses (``worker``: one process answering a JSON line per request, and a
driver script run once), calls shared out to forked copies of this process (``fork``) and a
coroutine run to completion from anywhere (``loop``). Each SDK's driver is in its own folder;
nothing here imports one, nor pandas or matplotlib.
"""
