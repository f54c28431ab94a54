"""Analysis: judge captured runs. Pairing, the invariants and their verdicts, matrix records,
findings. Nothing here imports the SDK: it reads the plain records the study captured.
"""
