"""Alembic migrations, shipped inside the package so that an installed bot can upgrade its
database on start (:func:`db.migrate.upgrade`)."""
