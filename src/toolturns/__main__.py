"""``python -m toolturns``: the command line, as the ``toolturns`` script runs it."""

from ._cli import run

# Guarded, so that importing the module (documentation tools do) runs nothing.
if __name__ == "__main__":
    run()
