"""Share: what leaves the project for people. The matrix files under ``data/``, the paste-ready
report, the upstream snippet, the README's findings block, and the notebooks executed and
rendered.
"""
