"""Study: run the cases through the SDK's public API and capture what each stage stored and sent.

The scenario (``scenario``), our scripted model (``model``), the compaction stand-in
(``compaction``), the RunState JSON boundary (``state``), the harness that drives a case
(``harness``) and the plain records it leaves behind (``items``, ``capture``). Nothing here
imports pandas or matplotlib, so a release's probe can run it with only the SDK installed.
"""
