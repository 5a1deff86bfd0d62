"""Helpers shared by the repository's tools."""
