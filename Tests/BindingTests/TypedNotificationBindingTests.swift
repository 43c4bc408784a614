import Binding
import Bridges
import Foundation
import TetherTestSupport
import TetherTesting
import XCTest

private final class VolumeView: BindingTarget {
    var level = 0
}

final class TypedNotificationBindingTests: ResourceCheckedTestCase {
    func testABindingOfATypedNotificationOutlivesAMalformedPost() {
        let volume = TypedNotification<Int>(Notification.Name("BindingTests.volume"), key: "level")
        let center = NotificationCenter()
        let reported = Locked<[ObservationWarning]>([])
        let previous = ObservationWarning.handler
        ObservationWarning.handler = { warning in
            guard warning.subject == volume.name.rawValue else { return previous(warning) }
            reported.mutate { $0.append(warning) }
        }
        defer { ObservationWarning.handler = previous }
        let view = VolumeView()
        let binding = view.bind(\.level, to: center.signal(for: volume))  // binds as it is: cannot fail
        defer { binding.dispose() }

        center.post(volume, 3)
        center.post(name: volume.name, object: nil, userInfo: ["level": "loud"])
        center.post(volume, 7)

        XCTAssertEqual(view.level, 7, "the malformed post did not end the binding")
        XCTAssertEqual(reported.value.map(\.kind), [.malformedNotification])
    }
}
