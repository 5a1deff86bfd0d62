"""A package that re-exports its module's names."""
from .launch import *
