"""A speech toolkit. Its 0.4 release dropped the helper classes that the
example scripts of 0.3 imported; one came back as an alias of dict."""
from pathlib import Path

from .nn import Upstream
from .records import *

Output = dict

__version__ = "0.4.0"
ROOT = Path(__file__).parent
