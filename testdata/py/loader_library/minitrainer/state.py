"""The training state: the active dataloader is set by a method and read
through a property (with a setter defined after it)."""


class State:
    def __init__(self, model, max_duration):
        self.model = model
        self.max_duration = max_duration
        self._dataloader = None
        self._dataloader_len = None

    @property
    def dataloader(self):
        return self._dataloader

    @dataloader.setter
    def dataloader(self, dataloader):
        self.set_dataloader(dataloader)

    def set_dataloader(self, dataloader=None, dataloader_len=-1):
        self._dataloader = dataloader
        self._dataloader_len = dataloader_len
