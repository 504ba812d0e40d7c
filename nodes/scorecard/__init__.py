"""Brand scorecard: DNA maturity (level 1) and content criteria K1–K7 (level 2)."""
