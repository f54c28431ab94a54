"""The ADK study: the same scenario on ``google-adk``, judged by the same invariants.

``items`` maps ADK's contents and events to the wire's shapes and reads the driver's captures
into ``CaseRun`` records; ``packages`` makes one cached environment per release with uv;
``harness`` runs the driver (``adk/harness.py``) in one; ``sweep`` runs every release that has
both tool confirmation and events compaction, and the liveness situations; ``patched`` and
``sdk_test`` the fix and its regression test. Its commands are ``share.adk``.
"""
