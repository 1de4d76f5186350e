"""pipgammon's application shell: the command line, and later the service loop and web page."""

import os

# numpy's BLAS must not start threads of its own for the readers' small matrix products: with
# another job on the second core, a 1280 x 960 frame with its dice took 15 to 21 ms to read with
# OpenBLAS's threads and 9.5 to 10 ms without (docs/vision.md).  The referee reads frames in one
# thread and leaves the other cores to the web page, the lights and the system.  This runs before
# anything imports numpy (the command line imports this package first); a caller may still
# choose otherwise in its environment.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

__version__ = "0.1.0"
