"""Doctor: is a team's stored history affected, and how is it healed (the user's tool).

The doctor wing: it imports the core (``analysis``) and never the lab. ``stores`` names a store
from its store string through one table (``BACKENDS``: a SQLite file, an SQLAlchemy URL, Redis)
and defines the ``Store`` Protocol each backend's class satisfies (``sqlstore``,
``redisstore``); ``verdict`` judges one session's items with the project's pairing check,
``scan`` streams every session's verdict, ``backup`` and ``repair`` heal poisoned sessions (and
``restore`` puts them back), ``check`` runs the study's conversations on the installed SDK
to say whether and when the bug strikes a configuration, ``command`` runs the user's steps. It
needs the ``[doctor]`` extra, and one more per backend; a missing one is one line naming it. The
experiments behind notebook 07 live in ``lab.affected``; the throwaway servers and synthetic
stores in ``lab.stores``.
"""
