// The per-thread pointer slots declared with TETHER_THREAD_SLOT in TetherShims.h.
#include "TetherShims.h"

_Thread_local void *tether_deep_chain_state_slot = 0;
_Thread_local void *tether_debug_thread_context_slot = 0;
_Thread_local void *tether_current_scheduler_slot = 0;
_Thread_local void *tether_current_actor_slot = 0;
_Thread_local void *tether_deferred_submission_watch_slot = 0;
_Thread_local void *tether_read_tracker_slot = 0;
_Thread_local void *tether_enabled_read_probe_slot = 0;

// The thread's count of operators made (`tether_count_operator_made()`).
_Thread_local unsigned long tether_operators_made = 0;

// Its address is the thread's identity (`tether_thread_id()`); never written.
_Thread_local _Alignas(8) char tether_thread_anchor = 0;
