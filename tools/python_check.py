"""`make`'s first step: is this Python new enough for the bot? (Makefile: $(VENV)/.python.)

Run by whatever `PYTHON` names, before anything is installed, so it uses only the standard
library and syntax of Python 3.6: on 3.10 the install would succeed and the bot then die at its
first import (`cannot import name 'UTC'`). Prints the interpreter's major.minor when it will do;
otherwise one line naming the version found and the one needed, and exits 1.
"""

import sys

NEEDED = (3, 11)


def main() -> int:
    major, minor, micro = sys.version_info[:3]
    if (major, minor) < NEEDED:
        need = f"{NEEDED[0]}.{NEEDED[1]}"
        sys.stderr.write(
            f"Python {major}.{minor}.{micro} found ({sys.executable}); the bot needs Python {need} "
            f"or newer. Install it and run make again with PYTHON=python{need} (or the new "
            "Python's path).\n"
        )
        return 1
    sys.stdout.write(f"{major}.{minor}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
