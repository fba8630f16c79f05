"""Russian Poker: the rules (``adjudicate``), its profile section and the steps it is
made of, one module per job."""
