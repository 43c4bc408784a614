// Per-thread slots read on hot paths (see TetherShims.h).
#include "TetherShims.h"

_Thread_local void *tether_deep_chain_state_slot = 0;
