"""The ADK study: the same scenario on ``google-adk``, judged by the same invariants.

The driver is the core's (``approval_compaction.adk``: its script, runner and item mapping);
here, as in ``lab.js``: ``packages`` makes one cached environment per release with uv;
``sweep`` runs every release that has both tool confirmation and events compaction, and the
liveness situations; ``patched`` and ``sdk_test`` the fix and its regression test;
``commands`` the command declarations (run by ``share.adk``).
"""
