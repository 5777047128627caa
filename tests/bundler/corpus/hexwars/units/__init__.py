"""Every unit kind; importing the package registers them all in ``Unit.kinds``."""

from .archer import Archer
from .base import Unit
from .healer import Healer
from .infantry import Infantry, Knight

__all__ = ["Unit", "Infantry", "Knight", "Archer", "Healer"]
