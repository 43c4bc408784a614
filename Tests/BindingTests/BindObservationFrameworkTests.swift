import Binding
import Foundation
import Observation
import TetherEngine
import TetherTestSupport
import TetherTesting
import XCTest

@Observation.Observable
final class Mixer {
    var volume = 5
    var label = ""
}

/// A `@MainActor` model that records, for each set of `title` through `recordedTitle`, whether it ran on
/// the main thread.
@MainActor @Observation.Observable
final class MainActorTitleModel {
    var title = ""
    @ObservationIgnored var setOnMainThread: [Bool] = []
    var recordedTitle: String {
        get { title }
        set {
            setOnMainThread.append(Thread.isMainThread)
            title = newValue
        }
    }
}

final class VolumeForm: KeyPathObservable {
    @Observed var volume = 0
}

/// Waits (on the main actor, up to 10 s) until `model.title` is `expected`.
@MainActor
private func waitForTitle(_ expected: String, of model: MainActorTitleModel) async {
    let deadline = Date().addingTimeInterval(10)
    while model.title != expected && Date() < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
    XCTAssertEqual(model.title, expected, "not set within 10 s")
}

final class BindObservationFrameworkTests: ResourceCheckedTestCase {
    func testBindSetsTheObservablePropertyToEveryValue() {
        let mixer = Mixer()
        let levels = Subject<Int, Never>()
        let binding = mixer.bind(\.volume, to: levels)
        levels.send(7)
        XCTAssertEqual(mixer.volume, 7)
        levels.send(9)
        XCTAssertEqual(mixer.volume, 9)
        binding.dispose()
        levels.send(1)
        XCTAssertEqual(mixer.volume, 9, "nothing after disposal")
    }

    func testBindEndsWhenTheModelDeinitializesAndNeverRetainsIt() {
        var mixer: Mixer? = Mixer()
        weak let weakMixer = mixer
        let levels = Subject<Int, Never>()
        let binding = mixer!.bind(\.volume, to: levels)
        levels.send(3)
        XCTAssertEqual(mixer?.volume, 3)
        mixer = nil
        XCTAssertNil(weakMixer, "the binding does not keep the model alive")
        XCTAssertTrue(binding.isDisposed, "the binding ended at the model's deinit, before any other value")
    }

    func testBindEndsWhenTheSourceCompletes() {
        let mixer = Mixer()
        let levels = Subject<Int, Never>()
        let binding = mixer.bind(\.volume, to: levels)
        levels.sendCompleted()
        XCTAssertTrue(binding.isDisposed)
    }

    @MainActor
    func testBackgroundSignalBoundFromTheMainActorSetsTheMainActorModelOnTheMainThread() async {
        let model = MainActorTitleModel()
        let titles = Subject<String, Never>()
        let binding = model.bind(\.recordedTitle, to: titles)
        await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                titles.send("first")
                titles.send("second")
                sent.resume()
            }
        }
        await waitForTitle("second", of: model)
        XCTAssertEqual(model.setOnMainThread, [true, true], "every value hopped to the main actor")
        binding.dispose()
    }

    @MainActor
    func testTheLastValueSentFromAnotherThreadBeforeCompletionReachesTheMainActorModel() async {
        let baseline = ResourceCounter.total
        let model = MainActorTitleModel()
        do {
            let titles = Subject<String, Never>()
            let binding = model.bind(\.recordedTitle, to: titles)
            await withCheckedContinuation { (sent: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    titles.send("last")
                    titles.sendCompleted()  // ends the binding while "last" hops to the main actor
                    sent.resume()
                }
            }
            await waitForTitle("last", of: model)
            XCTAssertEqual(model.setOnMainThread, [true])
            // The completion follows the value to the main actor; wait for it (a watchdog, not a timing).
            let deadline = Date().addingTimeInterval(10)
            while !binding.isDisposed && Date() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
            XCTAssertTrue(binding.isDisposed, "the completion ended the binding within 10 s")
        }
        XCTAssertEqual(model.title, "last")
        // The hops' last references go on the main actor, which the leak check in tearDown would block:
        // let them go first.
        let deadline = Date().addingTimeInterval(10)
        while ResourceCounter.total > baseline && Date() < deadline { try? await Task.sleep(for: .milliseconds(1)) }
    }

    func testChannelKeepsAnObservablePropertyAndAMutablePropertyInSync() {
        let mixer = Mixer()
        let volume = MutableProperty(1)
        let link = mixer.channel(\.volume) <~> volume.channel()
        settleObservations()
        XCTAssertEqual(mixer.volume, 1, "the leader's value wins at first")
        volume.value = 7
        settleObservations()
        XCTAssertEqual(mixer.volume, 7)
        mixer.volume = 9
        settleObservations()
        XCTAssertEqual(volume.value, 9)
        link.dispose()
        volume.value = 2
        settleObservations()
        XCTAssertEqual(mixer.volume, 9, "unlinked")
    }

    func testChannelKeepsAnObservablePropertyAndAnObservedPropertyInSync() {
        let mixer = Mixer()
        let form = VolumeForm()
        form.volume = 4
        let link = form.channel(\.volume) <~> mixer.channel(\.volume)
        settleObservations()
        XCTAssertEqual(form.volume, 5, "the leader (the @Observable side) wins at first")
        form.volume = 8
        settleObservations()
        XCTAssertEqual(mixer.volume, 8)
        mixer.volume = 6
        settleObservations()
        XCTAssertEqual(form.volume, 6)
        link.dispose()
    }

    func testChannelEndsWhenTheObservableModelDeinitializes() {
        var mixer: Mixer? = Mixer()
        weak let weakMixer = mixer
        let volume = MutableProperty(1)
        let link = mixer!.channel(\.volume) <~> volume.channel()
        settleObservations()
        mixer = nil
        XCTAssertNil(weakMixer, "the channel does not keep the model alive")
        volume.value = 3
        settleObservations()
        XCTAssertTrue(link.isDisposed, "the link ended with the model")
    }
}
