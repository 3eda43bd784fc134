"""A bot process whose SQLite file turns read-only for a while (item 9 of issue 20).

    python -m tests.db.readonly_worker PATH

Creates the database, then waits for ``go`` on stdin (the test opens another process's
connection meanwhile, so the WAL files stay, as in a live deployment), makes the file
read-only, presses once, makes it writable again and presses three times. Prints one JSON list
of outcomes: ``ok`` or the exception's class name. Run where the file's mode binds: an ordinary
user, or root without CAP_DAC_OVERRIDE (root writes read-only files through it).
"""

from __future__ import annotations

import json
import os
import sys

from sqlalchemy import text

from db.connection import make_engine


def main(path: str) -> None:
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE presses (n INTEGER)"))
    print("created", flush=True)
    assert sys.stdin.readline().strip() == "go"
    engine.dispose()  # connections opened from now on see a read-only file

    def press() -> str:
        try:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO presses VALUES (1)"))
        except Exception as exc:
            return type(exc).__name__
        return "ok"

    os.chmod(path, 0o444)
    outcomes = [press()]
    os.chmod(path, 0o644)
    outcomes += [press() for _ in range(3)]
    print(json.dumps(outcomes), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
