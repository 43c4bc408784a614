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

#endif
