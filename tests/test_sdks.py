"""The one list of SDK folders: each loads, names its package, and an unknown SDK is one line
naming the list."""

import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.sdks import FOLDERS, sdk_module, words


def test_every_folder_hands_the_doctor_its_items_map() -> None:
    for sdk in FOLDERS:
        assert sdk_module(sdk, "items").__name__ == f"{FOLDERS[sdk]}.items"


def test_an_unknown_sdk_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(InvestigationError, match="no SDK 'go': expected one of js, adk, langchain"):
        sdk_module("go", "items")


@pytest.mark.parametrize("sdk", list(FOLDERS), ids=list(FOLDERS))
def test_every_folder_names_its_package_for_the_shared_tables(sdk: str) -> None:
    """The display titles a run by the folder's words, loaded by name (``sdks.words``)."""
    found = words(sdk)
    assert found is not None and found.package
    assert "{mode}" in found.mode


def test_words_of_openai_agents_or_an_unknown_name_are_none() -> None:
    assert words("python") is None
    assert words("go") is None
