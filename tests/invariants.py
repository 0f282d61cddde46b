"""The shared invariant checks live in the engine (``engine.checks``) so the soak command can
run them too; tests import them from here."""
from engine.checks import (check_conservation, check_determinize, check_junk_refused,  # noqa: F401
                           check_legal_actions, play_checked_match, snapshot)
