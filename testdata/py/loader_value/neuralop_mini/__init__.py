"""A small neural-operator library: its data helpers build DataLoaders, its
trainer iterates them."""
from .darcy import load_darcy_flow_small
from .trainer import Trainer
