"""Doctor: is a team's stored history affected, and how is it healed.

It sits above ``analysis`` and ``study``: ``stores`` opens a ``SQLiteSession`` file or an
SQLAlchemy URL with the SDK's table layout, ``verdict`` judges one session's items with the
project's pairing check, ``scan`` streams every session's verdict, ``backup`` and ``repair``
heal poisoned sessions (and ``restore`` puts them back), ``check`` runs the SDK's defaults to
say whether and when the bug strikes, ``upgrade`` and ``worker`` run a stored session on the
newest release and in a fresh process. The throwaway PostgreSQL and the synthetic stores of
its tests are in ``testing``.
"""
