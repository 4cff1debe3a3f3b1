"""The floor both wings stand on: errors, the verdict vocabulary (``status``), the
deck and its cards (``model``), how to solve (``options``), the name-to-object
``registry``, the one shape of a method (``methods``), progress reporting and the
version.  Nothing here imports anything of
hanabi_cp above ``runtime``."""
