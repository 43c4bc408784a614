// expect-error: requires that 'Settings' conform to 'KeyPathObservable'
// `@Observed` in a class that does not adopt KeyPathObservable. The message names the protocol to
// adopt; Swift reports it at `<unknown>:0` (the accessor that uses the wrapper's enclosing-instance
// subscript is synthesized), and a wrapper may have only one such subscript, so no unavailable
// overload can reword it.
import Observable

final class Settings {
    @Observed var theme = "light"
}
