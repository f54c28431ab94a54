"""Stores the lab fills: throwaway PostgreSQL, MariaDB and Redis servers on 127.0.0.1 (started
and stopped by whoever needs one: the heal of notebook 07, the tests, the benchmarks), and
synthetic stores of many sessions of each verdict in the SDK's layout.
"""
