"""The one list of SDK folders: each loads, names its package, and an unknown SDK is one line
naming the list."""

import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.sdks import FOLDERS, Words, has_module, sdk_module, words


def test_every_folder_the_doctor_reads_hands_it_its_items_map() -> None:
    """A folder with options on ``doctor items`` maps its items (openai-agents' are the wire's)."""
    read = [sdk for sdk in FOLDERS if has_module(sdk, "options")]
    assert read == ["js", "adk"]
    for sdk in read:
        assert sdk_module(sdk, "items").__name__ == f"{FOLDERS[sdk]}.items"


def test_openai_agents_is_the_first_folder() -> None:
    """The Python SDK's folder is registered like the others, first (runs name it ``python``)."""
    assert list(FOLDERS)[0] == "python"
    assert FOLDERS["python"] == "approval_compaction.openai_agents"


def test_an_unknown_sdk_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(
        InvestigationError, match="no SDK 'go': expected one of python, js, adk, langchain"
    ):
        sdk_module("go", "items")


@pytest.mark.parametrize("sdk", list(FOLDERS), ids=list(FOLDERS))
def test_every_folder_names_its_package_for_the_shared_tables(sdk: str) -> None:
    """The display titles a run by the folder's words, loaded by name (``sdks.words``)."""
    found = words(sdk)
    assert found is not None and found.package
    assert "{mode}" in found.mode


def test_words_of_openai_agents_name_its_package_and_an_unknown_name_none() -> None:
    """openai-agents' words name its package only: its modes, hooks and models are the core's."""
    assert words("python") == Words(package="openai-agents")
    assert words("go") is None
