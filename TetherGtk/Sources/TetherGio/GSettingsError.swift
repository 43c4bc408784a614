/// Why a GSettings schema, key or value was refused — the checks TetherGio makes before calling GSettings,
/// whose own reaction to these mistakes is to abort the process (an unknown schema) or to log a critical
/// and do nothing (an unknown key, a value of the wrong type or out of the key's range).
///
/// ```swift
/// do {
///     _ = try GSettingsHandle(schema: "org.example.NoSuchApp")
/// } catch .unknownSchema(let id) {
///     print("install the schema \(id) (glib-compile-schemas) or pass schemaDirectory:")
/// } catch {
///     print(error)
/// }
/// ```
public enum GSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No installed schema (nor one in the `schemaDirectory` given) has this id.
    case unknownSchema(String)
    /// The schema directory could not be read (no `gschemas.compiled` there, or an invalid one).
    case unreadableSchemaDirectory(path: String, message: String)
    /// The schema is relocatable (it has no path of its own): a `path` must be given.
    case pathRequired(schema: String)
    /// The path is not a valid GSettings path (it must start and end with `/` and contain no `//`), or the
    /// schema has a fixed path that differs from it.
    case invalidPath(schema: String, path: String)
    /// The schema has no key of this name.
    case unknownKey(schema: String, key: String)
    /// The key's GVariant type is not the one the Swift type reads and writes (`keyType` and `valueType`
    /// are GVariant type strings, such as `"s"` and `"i"`).
    case typeMismatch(schema: String, key: String, keyType: String, valueType: String)
    /// The value is outside what the key accepts: its range or choices in the schema, or what its GVariant
    /// type can hold (an `Int` beyond 32 bits for an `i` key).
    case outOfRange(schema: String, key: String, value: String)
    /// The key is not writable (locked down by the system administrator, or a read-only backend).
    case notWritable(schema: String, key: String)

    /// A sentence that names the schema, key and value involved.
    ///
    /// ```swift
    /// print(GSettingsError.unknownKey(schema: "org.example.App", key: "colour"))
    /// ```
    public var description: String {
        switch self {
        case .unknownSchema(let id):
            "no GSettings schema '\(id)' is installed (compile it with glib-compile-schemas into a directory "
                + "on XDG_DATA_DIRS/glib-2.0/schemas or GSETTINGS_SCHEMA_DIR, or pass schemaDirectory:)"
        case .unreadableSchemaDirectory(let path, let message):
            "the GSettings schema directory '\(path)' could not be read: \(message)"
        case .pathRequired(let schema):
            "the GSettings schema '\(schema)' is relocatable: give a path (such as '/org/example/app/')"
        case .invalidPath(let schema, let path):
            "'\(path)' is not a valid path for the GSettings schema '\(schema)' (a path starts and ends with "
                + "'/', has no '//', and a schema with a fixed path takes no other)"
        case .unknownKey(let schema, let key):
            "the GSettings schema '\(schema)' has no key '\(key)'"
        case .typeMismatch(let schema, let key, let keyType, let valueType):
            "the key '\(key)' of the GSettings schema '\(schema)' has the type '\(keyType)', not '\(valueType)'"
        case .outOfRange(let schema, let key, let value):
            "the key '\(key)' of the GSettings schema '\(schema)' does not accept \(value)"
        case .notWritable(let schema, let key):
            "the key '\(key)' of the GSettings schema '\(schema)' is not writable"
        }
    }
}
