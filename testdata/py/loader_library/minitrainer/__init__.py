"""A training library in the shape of MosaicML Composer, read from source
(the examples of its own repository import it): the Trainer wraps the
loaders it is made with in a DataSpec, hands them to its State through a
setter method, and iterates the State's dataloader property in fit()."""
from minitrainer.models import Classifier
from minitrainer.trainer import Trainer

__all__ = ["Classifier", "Trainer"]
