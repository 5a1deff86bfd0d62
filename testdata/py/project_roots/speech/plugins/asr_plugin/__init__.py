"""A speech recognition plugin, a project of its own inside speech/."""
