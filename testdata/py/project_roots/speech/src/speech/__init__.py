"""Speech feature extraction."""
