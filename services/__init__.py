"""pitwatch: event-sourced audit and surveillance for casino card tables."""

__version__ = "0.1.0"
