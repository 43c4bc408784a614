// What Swift cannot see in GLib's, GObject's and GIO's headers: macros become static inline functions
// here, and libdispatch's run-loop hooks (the ones CoreFoundation uses) get declarations. No GTK: a daemon
// links only GIO.
#ifndef TETHER_CGIO_SHIM_H
#define TETHER_CGIO_SHIM_H

#include <gio/gio.h>
#include <glib-unix.h>
// g_keyfile_settings_backend_new and g_memory_settings_backend_new: GSettings backends chosen by the
// program rather than by GSETTINGS_BACKEND.
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

// libdispatch's main-queue hooks for run loops other than its own (exported by libdispatch, declared only
// in its private headers): the handle is an eventfd that becomes readable when the main queue has work;
// the callback drains the main queue.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// GVariant type constants (macros in gvarianttype.h).
static inline const GVariantType *tether_variant_type_boolean(void) { return G_VARIANT_TYPE_BOOLEAN; }
static inline const GVariantType *tether_variant_type_int32(void) { return G_VARIANT_TYPE_INT32; }
static inline const GVariantType *tether_variant_type_uint32(void) { return G_VARIANT_TYPE_UINT32; }
static inline const GVariantType *tether_variant_type_int64(void) { return G_VARIANT_TYPE_INT64; }
static inline const GVariantType *tether_variant_type_uint64(void) { return G_VARIANT_TYPE_UINT64; }
static inline const GVariantType *tether_variant_type_double(void) { return G_VARIANT_TYPE_DOUBLE; }
static inline const GVariantType *tether_variant_type_string(void) { return G_VARIANT_TYPE_STRING; }
static inline const GVariantType *tether_variant_type_string_variant_entry(void) {
    return G_VARIANT_TYPE("{sv}");
}
static inline const GVariantType *tether_variant_type_string_array(void) { return G_VARIANT_TYPE_STRING_ARRAY; }

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
