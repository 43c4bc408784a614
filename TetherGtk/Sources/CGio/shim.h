// What Swift cannot see in GLib's, GObject's and GIO's headers: macros become static inline functions
// here, and libdispatch's run-loop hooks (the ones CoreFoundation uses) get declarations. No GTK: a daemon
// links only GIO.
#ifndef TETHER_CGIO_SHIM_H
#define TETHER_CGIO_SHIM_H

#include <gio/gio.h>
#include <glib-unix.h>

// libdispatch's main-queue hooks for run loops other than its own (exported by libdispatch, declared only
// in its private headers): the handle is an eventfd that becomes readable when the main queue has work;
// the callback drains the main queue.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

#endif
