"""Fix: the workaround that defers compaction while a call awaits its output (``workaround``,
which needs the SDK and nothing else), and the pytest plugin that applies it to the SDK's own
suite (``suite_plugin``). Its edge cases are the Python SDK's scripts
(``openai_agents.edge_cases``), judged by the lab (``lab.findings.edge_cases``); the runs that
compare it with the newest release are the lab's (``openai_agents.comparison``).
"""
