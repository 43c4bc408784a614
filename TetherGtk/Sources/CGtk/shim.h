// GTK's headers for Swift. GLib's, GObject's and GIO's macros (type constants, casts), with libdispatch's
// run-loop hooks, are static inline functions in CGio's shim, which TetherGObject and TetherGio use.
#ifndef TETHER_CGTK_SHIM_H
#define TETHER_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>

#endif
