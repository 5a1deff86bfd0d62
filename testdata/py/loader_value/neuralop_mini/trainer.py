"""A trainer in the shape of neuralop.training.Trainer: train() iterates the
training loader every epoch and evaluates on every test loader it is given."""
import torch


class Trainer:
    def __init__(self, model, n_epochs, eval_interval=1):
        self.model = model
        self.n_epochs = n_epochs
        self.eval_interval = eval_interval

    def train(self, train_loader, test_loaders, optimizer, loss):
        for epoch in range(self.n_epochs):
            self.train_one_epoch(epoch, train_loader, optimizer, loss)
            if epoch % self.eval_interval == 0:
                self.evaluate_all(test_loaders, loss)

    def train_one_epoch(self, epoch, train_loader, optimizer, loss):
        for idx, (x, y) in enumerate(train_loader):
            optimizer.zero_grad()
            loss(self.model(x), y).backward()
            optimizer.step()

    def evaluate_all(self, test_loaders, loss):
        errors = {}
        for loader_name, loader in test_loaders.items():
            errors[loader_name] = self.evaluate(loader, loss)
        return errors

    def evaluate(self, data_loader, loss):
        total = 0.0
        with torch.no_grad():
            for idx, (x, y) in enumerate(data_loader):
                total += loss(self.model(x), y).item()
        return total
