// expect-error: value of type 'Settings' has no member 'observe'
// `@Observed` works in any class; observing hangs on KeyPathObservable. Calling `observe` on a class that
// does not adopt it is reported on the caller's line (issue 43, item 10: before, `@Observed` itself
// failed with three errors at `<unknown>:0`).
import Observable

final class Settings {
    @Observed var theme = "light"
}

let settings = Settings()
let themes = settings.observe(\.theme)
