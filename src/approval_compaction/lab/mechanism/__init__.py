"""Mechanism: the SDK functions on the path of the bug, read from the SDK's own source.

``catalogue`` names the functions and the lines that matter in each (found by text, never by
number); ``source`` reads them with ``inspect`` from whichever release is installed; ``trace``
runs the report's case and records at which stage each one was called; ``probe`` does both
inside one release's environment; ``views`` shows excerpts with marked lines and diffs between
releases; ``command`` writes ``data/mechanism.json``.
"""
