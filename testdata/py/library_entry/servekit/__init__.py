"""A serving engine; its server entry point chooses the start method."""
