"""Numbers modulo m packed from answers of varying size (infobot's hat arithmetic).

A hinter who can express m values asks each other player a sequence of questions
and packs the answers into one number below m, mixed-radix: the first answer is
the lowest digit.  How many answers the next question may have depends on the
digits so far (``room``): it is the largest q such that any answer below q still
keeps the packed number below m.  The receiver unpacks with ``split``, which
computes the same sizes from the same digits, so both sides ask the same
questions in the same order.

>>> code = Modular.none()
>>> code.room(12), code.combine(Modular(3, 2), 12), code
(12, None, Modular(modulus=3, value=2))
>>> code.room(12)                  # 2 + 3 * (q - 1) < 12
4
>>> code.combine(Modular(4, 3), 12); code
Modular(modulus=12, value=11)
>>> first = code.split(3); first, code
(Modular(modulus=3, value=2), Modular(modulus=4, value=3))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Modular:
    modulus: int
    value: int

    def __post_init__(self) -> None:
        if not 0 <= self.value < self.modulus:
            raise ValueError(f"value {self.value} out of range for modulus {self.modulus}")

    @classmethod
    def none(cls) -> Modular:
        return cls(1, 0)

    def room(self, limit: int) -> int:
        """The most answers a next digit may have, packed under ``limit``."""
        return (limit - self.value - 1) // self.modulus + 1

    def combine(self, digit: Modular, limit: int) -> None:
        """Append ``digit`` (its modulus at most ``room(limit)``) as the next digit."""
        if digit.modulus > self.room(limit):
            raise ValueError("digit does not fit")
        self.value += self.modulus * digit.value
        self.modulus = min(limit, self.modulus * digit.modulus)

    def split(self, modulus: int) -> Modular:
        """Take off the lowest digit, of ``modulus`` answers; what stays has as many
        values as the packer had room for after that digit."""
        if modulus > self.modulus:
            raise ValueError("digit larger than the number")
        digit = self.value % modulus
        self.value //= modulus
        self.modulus = (self.modulus - digit - 1) // modulus + 1
        return Modular(modulus, digit)
