"""Affected: the studies behind "am I affected, and how do I heal?" (notebook 07, the README).

``check`` runs the scenario at every pause position with a compaction mode and trigger;
``upgrade`` takes the next turn on a poisoned store on the pinned and the newest release;
``worker`` resumes in a fresh process given only the state's JSON and the store; ``heal``
scans, repairs, compares and restores a store end to end with the doctor's own tool; ``views``
turns their records into frames; ``command`` adds ``doctor check`` and ``doctor data``.
"""
