"""Share: what leaves the project for people. The matrix files under ``data/``, the paste-ready
report, the upstream snippet and the README's blocks (rendering ``findings``), and the
notebooks executed and rendered.
"""
