"""Fix: the workaround that defers compaction while a call awaits its output (``workaround``,
which needs the SDK and nothing else), its edge cases beyond the study's one pending call
(``edge_cases``), and the pytest plugin that applies it to the SDK's own suite
(``suite_plugin``). The runs that compare it with the newest release are the lab's
(``lab.releases.comparison``, ``lab.releases.liveness_comparison``).
"""
