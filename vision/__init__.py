"""Camera pipeline: board, points, checkers, dice and cube from frames (see ARCHITECTURE.md)."""
