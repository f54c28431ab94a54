"""Entry point for ``python -m approval_compaction``."""

from .cli import main

raise SystemExit(main())
