"""Doctor: is a team's stored history affected, and how is it healed (the user's tool).

It sits above ``analysis`` and ``study``: ``stores`` opens a ``SQLiteSession`` file or an
SQLAlchemy URL with the SDK's table layout, ``verdict`` judges one session's items with the
project's pairing check, ``scan`` streams every session's verdict, ``backup`` and ``repair``
heal poisoned sessions (and ``restore`` puts them back). The studies that run the scenario for
notebook 07 live in ``affected``; the throwaway PostgreSQL and the synthetic stores of its tests
in ``testing``.
"""
