"""Findings: each question the project answers, as one typed record computed once from the data.

``matrix`` (a matrix's cases per invariant, and what the user met over HTTP), ``releases`` (the
sweep: boundaries, bisections, severities, eras), ``mechanism`` (where in the SDK), ``fix`` (the
fixing release, the regression test across releases), ``doctor`` (the doctor's four answers);
``load`` computes them all from ``data/``, each file read once; ``headlines`` and ``tables``
word them for the README, the report and the snippet; ``answers`` builds the notebooks' answer
lines from their own runs, over a matrix ``folding`` folds and ``outcomes`` words; ``evidence``
and ``prose`` show the wire's requests and rules; ``edge_cases`` judges the workaround beyond the
study's one pending call. Nothing here writes a file.
"""
