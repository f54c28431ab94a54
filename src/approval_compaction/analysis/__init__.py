"""Analysis: judge captured runs. Pairing, the invariants (each defined once: name, meaning,
rule) and their verdicts, liveness over later turns, matrix records and frames, the answer lines
of one run. Nothing here imports the SDK: it reads the plain records the study captured.
"""
