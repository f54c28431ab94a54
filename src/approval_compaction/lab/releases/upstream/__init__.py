"""Upstream suite: the SDK's own tests, run as they are and with the workaround in place.

A release's sdist (from PyPI, through pip) ships its ``tests/``, conftest, ``Makefile`` and
``uv.lock``; ``checkout`` unpacks it and makes its development environment as that Makefile's
``sync`` target does. ``suite`` selects the test files that touch compaction sessions or
approvals and runs them twice, as the Makefile's ``tests`` target runs them: once as they are,
once with a pytest plugin (``fix.suite_plugin``) that applies the workaround to every
``OpenAIResponsesCompactionSession`` the tests construct. A test whose outcome differs is a
change (``changes``), reported with the failing assertion and, when it is the intended deferral,
its reason. The project's upstream-form regression test is copied into the checkout, checked
with the release's own ruff and pyright (``checks``), and run in both runs like any other test.
``results`` writes and reads the records under ``data/``; ``text`` is the README block's text
and the notebook's sentence; ``command`` is ``python -m approval_compaction upstream-suite``.
"""

from .text import readme_block as readme_block
