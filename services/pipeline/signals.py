"""How a service hears it should stop: SIGINT and SIGTERM set one event it checks between
batches.

Installed first, before the service's set-up (its database opened and migrated, its
topics asked for, its state read): a SIGTERM during that set-up killed the process with
the signal's default (exit 143, QA) instead of a clean stop with nothing begun. A signal
then only sets the event; the service sees it when its loop starts, and stops before its
first batch.
"""

from __future__ import annotations

import asyncio
import signal


def stop_on_signals() -> asyncio.Event:
    """An event that SIGINT and SIGTERM set from now on (in the running loop)."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    return stopping
