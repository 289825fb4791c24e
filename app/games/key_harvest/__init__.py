"""Key Harvest (in progress)."""
