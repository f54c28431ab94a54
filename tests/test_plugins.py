"""The lab's plugin registry: each SDK folder's PLUGIN, read by name."""

from __future__ import annotations

import pytest

from approval_compaction.lab.plugins import REGISTRY, SdkPlugin, plugin, plugins, sharing


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


def test_plugins_each_sharing_plugin_declares_its_own_share_option() -> None:
    """``share --NAME [WHICH]`` is declared from the plugins with a comment and its words."""
    import argparse

    from approval_compaction import cli

    shared = sharing()
    assert [p.name for p, _ in shared] == [p.name for p in plugins() if p.comment is not None]
    parser = cli.parser()
    share = next(
        choices["share"]
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for choices in [action.choices]
    )
    for sdk, option in shared:
        declared = {a.dest: a for a in share._actions}[sdk.name]
        assert declared.option_strings == [f"--{sdk.name}"]
        assert declared.choices == option.reports and declared.const == option.reports[0]
        assert declared.help == option.help
