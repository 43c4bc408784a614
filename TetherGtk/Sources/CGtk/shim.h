// What Swift cannot see in GTK's and GLib's headers: macros (type constants, casts) become static inline
// functions here. (GLib's and GIO's own shims, with libdispatch's run-loop hooks, are in CGio.)
#ifndef TETHER_CGTK_SHIM_H
#define TETHER_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>

// Fundamental GTypes (macros in gtype.h).
static inline GType tether_gtype_invalid(void) { return G_TYPE_INVALID; }
static inline GType tether_gtype_none(void) { return G_TYPE_NONE; }
static inline GType tether_gtype_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType tether_gtype_int(void) { return G_TYPE_INT; }
static inline GType tether_gtype_uint(void) { return G_TYPE_UINT; }
static inline GType tether_gtype_long(void) { return G_TYPE_LONG; }
static inline GType tether_gtype_ulong(void) { return G_TYPE_ULONG; }
static inline GType tether_gtype_int64(void) { return G_TYPE_INT64; }
static inline GType tether_gtype_uint64(void) { return G_TYPE_UINT64; }
static inline GType tether_gtype_float(void) { return G_TYPE_FLOAT; }
static inline GType tether_gtype_double(void) { return G_TYPE_DOUBLE; }
static inline GType tether_gtype_string(void) { return G_TYPE_STRING; }
static inline GType tether_gtype_enum(void) { return G_TYPE_ENUM; }
static inline GType tether_gtype_flags(void) { return G_TYPE_FLAGS; }
static inline GType tether_gtype_object(void) { return G_TYPE_OBJECT; }

// The type of an instance (G_OBJECT_TYPE).
static inline GType tether_object_type(gpointer object) { return G_OBJECT_TYPE(object); }
static inline const char *tether_object_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }
// The class of an instance (G_OBJECT_GET_CLASS).
static inline GObjectClass *tether_object_class(gpointer object) { return G_OBJECT_GET_CLASS(object); }
// Whether `object` is a GObject whose type is or derives from `type` (G_TYPE_CHECK_INSTANCE_TYPE).
static inline gboolean tether_object_is_a(gpointer object, GType type) {
    return G_TYPE_CHECK_INSTANCE_TYPE(object, type);
}
// Whether a GValue holds a GObject (G_VALUE_HOLDS_OBJECT).
static inline gboolean tether_object_is_a_value(const GValue *value) { return G_VALUE_HOLDS_OBJECT(value); }
// A GValue's type (G_VALUE_TYPE).
static inline GType tether_value_type(const GValue *value) { return G_VALUE_TYPE(value); }

// The flag bits GLib may add to a signal's parameter and return types (G_SIGNAL_TYPE_STATIC_SCOPE).
static inline GType tether_signal_type_static_scope(void) { return G_SIGNAL_TYPE_STATIC_SCOPE; }

#endif
