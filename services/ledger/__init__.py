"""The double-entry ledger: every chip movement of every adjudicated hand, and the rake.

Public API (import from the modules):

* ``services.ledger.db.open_ledger(url) -> Engine`` — open and migrate (Alembic) a ledger;
  ``default_url()`` is ``PITWATCH_DB`` or ``sqlite:///var/pitwatch.sqlite``.
* ``services.ledger.posting.post_hand(engine_or_session, record) -> PostResult``,
  ``post_many(engine, records, batch_size)``, ``iter_post(...)`` — book adjudication
  records: ``posted`` / ``duplicate`` / ``conflict`` (LEDGER_CONFLICT, SURV-9) /
  ``refused`` (LEDGER_REFUSED, GEN-8).
* ``services.ledger.queries`` — ``balances``, ``player_balances``, ``rake_totals``,
  ``table_day_totals``, ``stored_record``, ``stored_hand``.
* ``services.ledger.cli.ledger_app`` — the ``pitwatch ledger`` Typer sub-app.
"""
