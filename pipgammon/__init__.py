"""pipgammon's application shell: the command line, and later the service loop and web page."""

__version__ = "0.1.0"
