// expect-error: 'execute()' is unavailable: a command whose Input is Void executes with `execute(())`
// `execute()` on a Void command names `execute(())`, not "missing argument for parameter #1".
import Binding
import Observable

func signIn() {
    let signIn = Command { print("signing in") }
    signIn.execute()
}
