/// The error the tests send and expect, told apart by `code`.
package struct TestError: Error, Equatable {
    package let code: Int
    package init(_ code: Int = 1) { self.code = code }
}
