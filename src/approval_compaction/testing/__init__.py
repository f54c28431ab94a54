"""Testing: the infrastructure of the tests and the benchmarks, kept apart from what users run.

``browser`` drives notebook 01 in JupyterLab with Debian's headless Chromium (Playwright);
``postgres`` starts a throwaway PostgreSQL server on 127.0.0.1; ``synthetic`` writes stores of
many sessions in the SDK's layout. Only the tests, the benchmarks and the heal experiment that
notebook 07 runs on a throwaway PostgreSQL import it (an import contract checks).
"""
