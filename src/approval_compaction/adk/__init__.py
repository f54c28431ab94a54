"""The ADK driver: the study's scenario on ``google-adk``, in the study's capture format.

``driver.py`` is the one script that runs in a release's own environment (``google-adk``, a
scripted ``BaseLlm`` and summariser, ADK's own session services): it drives and records, and
judges nothing. ``harness`` runs it with any interpreter that has ``google-adk`` (a release's
environment, or a team's own) and reads what it wrote; ``items`` maps ADK's contents and events
to the wire's shapes, in this one place. The lab's ADK study (``lab.adk``) sweeps releases with
it, as ``lab.js`` does with the JS driver (``approval_compaction.js``).
"""
