"""The throwaway MariaDB: found, started on loopback (as root with its flag), a database made,
and gone after."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.lab.stores import mariadb


@pytest.mark.servers
@pytest.mark.enable_socket
def test_server_starts_makes_a_database_and_leaves_nothing_behind() -> None:
    needs.require(mariadb.available(), "MariaDB")
    with mariadb.ThrowawayMariaDB() as server:
        url = server.create_database("throwaway_check")
        assert url == f"mysql+asyncmy://{mariadb.USER}@127.0.0.1:{server.port}/throwaway_check"
        folder = server.folder
        assert (folder / "data").is_dir()
    assert not folder.exists() and server.port == 0
