"""Persistence: SQLAlchemy 2.0 models, repositories and Alembic migrations."""
