"""Every table of the pitwatch database, gathered on one metadata: the ledger
(``models``), the event archive (``archive_tables``), the cases (``case_tables``) and
the console's users (``console_tables``).

Alembic's environment and the schema tests compare the migrated database with this
metadata, so a table declared in any of these modules and missing from the
migrations (or the other way round) is found.
"""

from __future__ import annotations

from sqlalchemy import MetaData

from services.ledger import archive_tables, case_tables, console_tables, models
from services.ledger.base import Base

MODULES = (models, archive_tables, case_tables, console_tables)  # imported for their tables
metadata: MetaData = Base.metadata
