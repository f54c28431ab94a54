"""Entry point for ``python -m approval_compaction``.

A command is a short process, so it skips work that only a long one needs: the cyclic garbage
collector stays off (importing the SDK creates hundreds of thousands of objects and no garbage,
and collecting during it costs about a third of the start-up), and the process ends with
``os._exit`` once its output is flushed, skipping the interpreter's teardown of every module.
Every file a command writes is complete and closed before it returns.
"""

import gc
import os
import sys

gc.disable()

from .cli import main  # noqa: E402  # after the collector is off, so the imports are cheap

code = main()
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
