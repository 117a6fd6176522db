import PickerChannel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the broker and its picker say over their socket (issue 21): every value comes back as it
/// went, whatever it holds, and anything else is refused whole.
@Suite struct PickerChannelTests {
    static let request = PickerRequest(
        appID: "org.example.Journal", appName: "Example\nJournal \\ n", appIcon: "/usr/share/icons/j.png",
        reason: "Add music to\ntoday's entry", since: -5, until: 1_800_000_000_000_000, multiple: false,
        parentWindow: "x11:1e00004", busAddress: "unix:path=/run/user/1000/bus", openMoment: "42")

    @Test("a request survives the channel, line breaks and backslashes included")
    func requestRoundTrips() throws {
        let bytes = Self.request.text.encoded
        #expect(try PickerRequest(ChannelText(decoding: bytes)) == Self.request)
        #expect(bytes.split(separator: UInt8(ascii: "\n")).count == Self.request.text.fields.count, "one line per field")
    }

    @Test("answers survive the channel", arguments: [
        PickerAnswer.cancelled, .shared(assetIDs: [4, 1, 3], momentID: "1"), .shared(assetIDs: [7], momentID: nil),
    ])
    func answerRoundTrips(_ answer: PickerAnswer) throws {
        #expect(try PickerAnswer(ChannelText(decoding: answer.text.encoded)) == answer)
    }

    @Test("malformed messages are refused", arguments: [
        "outcome shared\nasset -3\n", "outcome maybe\n", "outcome shared\nasset 1e3\n", " value without key\n",
        "outcome sh\\ared\n", "outcome shared\\", "",
    ])
    func refused(_ text: String) {
        #expect(throws: ChannelError.self) { try PickerAnswer(ChannelText(decoding: Array(text.utf8))) }
    }

    @Test("an app the broker could not name travels as no name, and comes back so (issue 31)")
    func namelessRequestRoundTrips() throws {
        var nameless = Self.request
        nameless.appID = nil
        nameless.appName = nil
        #expect(try PickerRequest(ChannelText(decoding: nameless.text.encoded)) == nameless)
    }

    @Test("a request to copy says so; one from an older broker, with no purpose, shares; an unknown purpose is refused (issue 35)")
    func purpose() throws {
        var copy = Self.request
        copy.purpose = .copy
        #expect(try PickerRequest(ChannelText(decoding: copy.text.encoded)).purpose == .copy)
        #expect(Self.request.text.value("purpose") == nil)
        #expect(try PickerRequest(ChannelText(decoding: Self.request.text.encoded)).purpose == .share)
        var unknown = Self.request.text
        unknown.add("purpose", "print")
        #expect(throws: ChannelError.self) { try PickerRequest(unknown) }
    }

    @Test("a request without its span or bus is refused")
    func incompleteRequest() throws {
        var text = ChannelText()
        text.add("app_name", "Journal")
        text.add("since", "1")
        #expect(throws: ChannelError.self) { try PickerRequest(text) }
    }

    @Test("a message longer than the bound is refused before it is read")
    func bounded() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: ChannelText.maximumBytes + 1)
        #expect(throws: ChannelError.self) { try ChannelText(decoding: long) }
    }

    @Test("what one end sends over a socket pair the other receives, and the end of it")
    func overASocket() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let broker = ChannelSocket(descriptor: ends[0]), picker = ChannelSocket(descriptor: ends[1])
        try broker.send(Self.request.text)
        #expect(try picker.receive().map(PickerRequest.init) == Self.request)
        picker.close()
        #expect(try broker.receive() == nil, "the picker went without answering")
    }
}
