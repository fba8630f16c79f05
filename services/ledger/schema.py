"""Every table of the pitwatch database, gathered on one metadata: the ledger
(``models``), the event archive (``archive_tables``) and the cases (``case_tables``).

Alembic's environment and the schema tests compare the migrated database with this
metadata, so a table declared in any of the three modules and missing from the
migrations (or the other way round) is found.
"""

from __future__ import annotations

from sqlalchemy import MetaData

from services.ledger import archive_tables, case_tables, models
from services.ledger.base import Base

MODULES = (models, archive_tables, case_tables)  # imported for their tables
metadata: MetaData = Base.metadata
