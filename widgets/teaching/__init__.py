"""What sits around a table to teach: lessons that guide a table, puzzles, and the stars a reader earns."""
