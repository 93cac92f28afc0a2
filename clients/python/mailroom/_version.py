"""The library's version, read by the package metadata and the User-Agent header."""

__version__ = "0.1.0"
