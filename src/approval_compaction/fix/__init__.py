"""Fix: the workaround that defers compaction while a call awaits its output (``workaround``),
the pinned release unfixed, with the workaround and the newest release side by side
(``comparison``), and the workaround's edge cases beyond the study's one pending call
(``edge_cases``).
"""
