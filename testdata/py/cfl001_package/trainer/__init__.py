"""A package whose modules reach each other through relative imports."""
