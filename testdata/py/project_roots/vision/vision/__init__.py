"""Image models and their data pipeline."""
