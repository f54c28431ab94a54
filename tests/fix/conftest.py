"""The workaround's fixtures: the throwaway servers the doctor's tests start (PostgreSQL,
MariaDB, Redis), for its runs on the server stores the study tests."""

from doctor.conftest import mariadb_server, postgres_server, redis_server

__all__ = ["mariadb_server", "postgres_server", "redis_server"]
