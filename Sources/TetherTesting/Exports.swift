// `import TetherTesting` is all a test of signals needs: the core it tests (`Signal`, `TestScheduler`,
// subjects, operators: the module Observable) comes with it, as `import Tether` brings the three modules.
// A test of bindings or bridges imports Binding or Bridges (or Tether) too. (Issue 43: the README's test and
// "Testing on Virtual Time" did not compile with `import TetherTesting` alone.)
@_exported import Observable
