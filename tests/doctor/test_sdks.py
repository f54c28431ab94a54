"""The doctor's list of SDK folders: each loads, and an unknown SDK is one line naming the list."""

import pytest

from approval_compaction.doctor.sdks import FOLDERS, sdk_module
from approval_compaction.errors import InvestigationError


def test_every_folder_hands_the_doctor_its_items_map() -> None:
    for sdk in FOLDERS:
        assert sdk_module(sdk, "items").__name__ == f"{FOLDERS[sdk]}.items"


def test_an_unknown_sdk_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(InvestigationError, match="no SDK 'go': expected one of js, adk"):
        sdk_module("go", "items")
