from tests.kit.room import cast, database, db_url, pg_url, room  # noqa: F401
