import TetherDemoModels

/// Which screen is showing. The login and search screens are always reachable (Tab moves through
/// both); the welcome screen appears after a successful sign-in and gives way to the search.
enum Screen: Equatable, Sendable {
    case login
    case welcome(User)
    case search

    /// The header tab this screen belongs to: the welcome screen leads into the search.
    var tab: Screen {
        self == .login ? .login : .search
    }

    var title: String {
        switch self {
        case .login: return "Login"
        case .welcome: return "Welcome"
        case .search: return "Search"
        }
    }
}

/// Where the keyboard goes: the Tab order runs through the login form, then the search field.
enum Focus: CaseIterable, Equatable, Sendable {
    case username
    case password
    case signInButton
    case searchField

    var screen: Screen {
        self == .searchField ? .search : .login
    }

    var next: Focus {
        let all = Focus.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    var previous: Focus {
        let all = Focus.allCases
        return all[(all.firstIndex(of: self)! + all.count - 1) % all.count]
    }
}
