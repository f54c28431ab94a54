"""The lab: the investigation behind the notebooks and the README (every release swept and
bisected, the mechanism inside the SDK, the property-based search, the affected studies, the
findings and their publishing). It needs the `[lab]` extra; it imports the core and the doctor,
and neither imports it.
"""
