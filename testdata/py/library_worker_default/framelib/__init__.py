"""A small dataset library (lightly's LightlyDataset shape)."""
from framelib.folder import VideoFolder
