"""Fix: the workaround that defers compaction while a call awaits its output (``workaround``,
which needs the SDK and nothing else), and the pytest plugin that applies it to the SDK's own
suite (``suite_plugin``). Its edge cases and the runs that compare it with the newest release
are the lab's (``lab.findings.edge_cases``, ``lab.releases.comparison``).
"""
