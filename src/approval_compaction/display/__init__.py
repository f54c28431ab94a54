"""Display: runs and verdicts as a reader sees them. Item and stage tables with each item's
pairing status in words, diffs of stored history against what was sent, tables cut to the rows
that matter. The heatmaps and the stepper are the lab's.
"""
