"""The one exception type the package raises."""


class TonearmError(Exception):
    """Starting, calling or stopping `tonearm serve` failed; the message says what and where."""
