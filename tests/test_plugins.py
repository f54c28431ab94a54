"""The lab's plugin registry: each SDK folder's PLUGIN, read by name."""

from __future__ import annotations

import pytest

from approval_compaction.lab.plugins import REGISTRY, SdkPlugin, plugin, plugins


def test_plugins_every_registered_folder_hands_its_plugin() -> None:
    found = plugins()
    assert [p.name for p in found] == list(REGISTRY)
    assert all(isinstance(p, SdkPlugin) for p in found)


def test_plugins_a_module_without_a_plugin_is_one_line() -> None:
    with pytest.raises(TypeError, match="approval_compaction.paths holds no SdkPlugin"):
        plugins({"x": "approval_compaction.paths"})


def test_plugins_one_plugin_is_found_by_its_registered_name() -> None:
    assert [plugin(name) for name in REGISTRY] == plugins()
    with pytest.raises(KeyError, match="nothing"):
        plugin("nothing")
