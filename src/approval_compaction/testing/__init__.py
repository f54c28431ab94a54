"""Testing: the infrastructure of the tests and the benchmarks, kept apart from what users run.

``browser`` drives notebook 01 in JupyterLab with Debian's headless Chromium (Playwright);
``writer`` is an application writing to a store while the doctor works; ``install`` builds the
wheel and installs it into fresh environments. Only the tests and the benchmarks import it (an
import contract checks: it is the top layer, so nothing in the package can).
"""
