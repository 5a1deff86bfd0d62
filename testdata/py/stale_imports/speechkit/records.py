"""Training records, re-exported by the package with a star import."""


class Logs:
    def __init__(self):
        self.rows = []

    def add(self, **row):
        self.rows.append(row)
