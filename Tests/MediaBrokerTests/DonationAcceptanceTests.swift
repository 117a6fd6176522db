import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Whether a `Donate` is taken, by the listen rule and the person's settings, without a bus:
/// each refusal has its own error.
@Suite("Donate: what the rule and the settings accept")
struct DonationAcceptanceTests {
    static let now: Microseconds = 1_800_000_000_000_000
    static let day: Microseconds = 86_400_000_000

    static func donation(_ extra: [String: DBusValue] = [:]) -> [String: DBusValue] {
        ["app_id": .string("org.example.Journal"), "title": .string("Song"), "started": .int64(now - 600_000_000)]
            .merging(extra) { $1 }
    }

    static func refusal(_ fields: [String: DBusValue], settings: PrivacySettings = PrivacySettings()) -> ErrorName? {
        do {
            _ = try MediaAsset(donation: fields, now: now, rule: .default, settings: settings)
            return nil
        } catch {
            return error.name
        }
    }

    @Test("a plain donation is taken as a donation")
    func taken() throws {
        let asset = try MediaAsset(donation: Self.donation(), now: Self.now, rule: .default, settings: PrivacySettings())
        #expect(asset.title == "Song" && asset.source == .donation)
    }

    @Test("of the artists, only the first 256 items are looked at: a name after 256 blanks is not kept, one among them is")
    func artistsBeyondThoseLookedAt() throws {
        func artists(_ list: [String]) throws -> [String] {
            try MediaAsset(donation: Self.donation(["artists": .strings(list)]), now: Self.now, rule: .default, settings: PrivacySettings()).artists
        }
        let blanks = Array(repeating: " ", count: 256)
        #expect(try artists(blanks + ["Late"]).isEmpty)
        #expect(try artists(blanks.dropLast() + ["Early"]) == ["Early"])
    }

    @Test("a 'listened' too short to count is InvalidArgs; without 'listened' the app vouches for the listen")
    func tooShort() {
        #expect(Self.refusal(Self.donation(["listened": .int64(2_000_000), "length": .int64(200_000_000)])) == .invalidArgs)
        #expect(Self.refusal(Self.donation(["length": .int64(200_000_000)])) == nil)
    }

    @Test("a 'started' older than the history is kept is InvalidArgs")
    func tooOld() {
        let old = Self.donation(["started": .int64(Self.now - 10 * Self.day)])
        #expect(Self.refusal(old, settings: PrivacySettings(retentionDays: 7)) == .invalidArgs)
        #expect(Self.refusal(old, settings: PrivacySettings(retentionDays: 0)) == nil)
    }

    @Test("Media off is MediaDisabled; an opted-out app is AppOptedOut; a bad field is reported before either")
    func settingsRefuse() {
        #expect(Self.refusal(Self.donation(), settings: PrivacySettings(mediaEnabled: false)) == .mediaDisabled)
        #expect(Self.refusal(Self.donation(), settings: PrivacySettings(optOuts: ["org.example.Journal": .app])) == .appOptedOut)
        #expect(Self.refusal(Self.donation(["title": .int32(1)]), settings: PrivacySettings(mediaEnabled: false)) == .invalidArgs)
    }
}
