"""Analysis: judge captured runs. Pairing, the invariants (each defined once: name, meaning,
rule) and their verdicts, matrix records and frames, outcomes, folding identical cases. Nothing
here imports the SDK: it reads the plain records the study captured.
"""
