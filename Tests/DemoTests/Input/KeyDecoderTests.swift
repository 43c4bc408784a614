import XCTest

@testable import tether_demo

final class KeyDecoderTests: XCTestCase {
    private func decode(_ chunks: [[UInt8]]) -> [Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.decode($0) }
    }

    func testPrintableASCIIAndControlKeysDecode() {
        XCTAssertEqual(
            decode([Array("ab 1".utf8) + [0x09, 0x0D, 0x7F, 0x08, 0x03]]),
            [
                .character("a"), .character("b"), .character(" "), .character("1"), .tab, .enter, .backspace,
                .backspace, .interrupt,
            ])
    }

    func testMultiByteUTF8CharactersDecodeEvenWhenSplitAcrossReads() {
        let bytes = Array("é中😀".utf8)  // 2 + 3 + 4 bytes
        XCTAssertEqual(decode([bytes]), [.character("é"), .character("中"), .character("😀")])
        for split in 1..<bytes.count {
            XCTAssertEqual(
                decode([Array(bytes[..<split]), Array(bytes[split...])]),
                [.character("é"), .character("中"), .character("😀")], "split at \(split)")
        }
    }

    func testArrowsAndShiftTabDecodeFromCSIAndSS3Sequences() {
        XCTAssertEqual(
            decode([[0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x43, 0x1B, 0x5B, 0x44, 0x1B, 0x5B, 0x5A]]),
            [.up, .down, .right, .left, .shiftTab])
    }

    func testAnEscapeSequenceSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.decode([0x1B, 0x5B]), [])
        XCTAssertEqual(decoder.decode([0x31, 0x3B, 0x32]), [])  // ESC [ 1 ; 2 …
        XCTAssertEqual(
            decoder.decode([0x41, 0x61]), [.unknown([0x1B, 0x5B, 0x31, 0x3B, 0x32, 0x41]), .character("a")])
    }

    func testALoneEscapeAtTheEndOfAReadIsTheEscapeKey() {
        XCTAssertEqual(decode([[0x1B]]), [.escape])
        XCTAssertEqual(decode([[0x1B, 0x61]]), [.escape, .character("a")])
    }

    func testInvalidUTF8BytesAreSkipped() {
        XCTAssertEqual(decode([[0xFF, 0x61, 0x80, 0xC3, 0x28]]), [.character("a"), .character("(")])
    }

    func testOtherControlBytesBecomeUnknownKeys() {
        XCTAssertEqual(decode([[0x01, 0x1A]]), [.unknown([0x01]), .unknown([0x1A])])
    }
}
