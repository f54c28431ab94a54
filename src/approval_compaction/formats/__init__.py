"""Formats: how results leave the process. Typed records as JSON and CSV (one writer, one
reader), GitHub markdown, and atomic files. Nothing here knows the study; it formats what it is
given.
"""
