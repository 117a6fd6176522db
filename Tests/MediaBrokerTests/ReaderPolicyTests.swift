import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Issue 20's rules, alone: who may make which call.
@Suite struct ReaderPolicyTests {
    static let allowed = PrivacySettings(readers: ["org.example.Journal": ReaderGrant(access: .allowed, decided: 1)])
    static let denied = PrivacySettings(readers: ["org.example.Journal": ReaderGrant(access: .denied, decided: 1)])
    static let app = Reader.app("org.example.Journal")

    static func right(_ member: String, property: String? = nil) -> ReaderPolicy.Right {
        let arguments: [DBusValue] = property.map { [.string("org.mediabroker.MediaBroker1"), .string($0)] } ?? []
        return ReaderPolicy.right(interface: property == nil ? nil : .properties, member: member, arguments: arguments)
    }

    @Test("each call needs its right", arguments: [
        ("RecentMedia", nil, ReaderPolicy.Right.readHistory), ("Moments", nil, .readHistory), ("MediaByID", nil, .readHistory),
        ("NowPlaying", nil, .readHistory), ("Apps", nil, .readHistory), ("Subscribe", nil, .readHistory),
        ("Donate", nil, .donate), ("OptOut", nil, .optOutItself), ("OptIn", nil, .optOutItself),
        ("SetAppOptedOut", nil, .changeSettings), ("Purge", nil, .changeSettings), ("SetReaderAccess", nil, .changeSettings),
        ("Readers", nil, .seeGrants), ("RequestAccess", nil, .askForAccess), ("Status", nil, .anyoneIdentified),
        ("Get", "Version", .anyone), ("Get", "MediaEnabled", .anyone), ("Get", "RetentionDays", .anyone),
        ("Get", "OptedOutApps", .readHistory), ("GetAll", nil as String?, .readHistory), ("Set", "MediaEnabled", .changeSettings),
        ("Set", "RetentionDays", .changeSettings),
    ] as [(String, String?, ReaderPolicy.Right)])
    func rights(_ member: String, _ property: String?, _ right: ReaderPolicy.Right) {
        let interface: InterfaceName? = (member == "Get" || member == "GetAll" || member == "Set") ? .properties : nil
        let arguments: [DBusValue] = property.map { [.string("org.mediabroker.MediaBroker1"), .string($0)] } ?? [.string("org.mediabroker.MediaBroker1")]
        #expect(ReaderPolicy.right(interface: interface, member: member, arguments: arguments) == right)
    }

    @Test("the host may do everything, with or without grants")
    func hostMayDoEverything() {
        for right in [ReaderPolicy.Right.readHistory, .donate, .changeSettings, .seeGrants, .askForAccess] {
            #expect(ReaderPolicy.refusal(of: right, to: .host, settings: PrivacySettings()) == nil)
        }
    }

    @Test("a sandboxed app reads only with the person's grant")
    func appsReadOnlyWhenAllowed() {
        #expect(ReaderPolicy.refusal(of: .readHistory, to: Self.app, settings: PrivacySettings())?.name == .brokerAccessDenied)
        #expect(ReaderPolicy.refusal(of: .readHistory, to: Self.app, settings: Self.denied)?.name == .brokerAccessDenied)
        #expect(ReaderPolicy.refusal(of: .readHistory, to: Self.app, settings: Self.allowed) == nil)
        #expect(ReaderPolicy.refusal(of: .readHistory, to: .app("org.example.Other"), settings: Self.allowed) != nil, "a grant is per app")
    }

    @Test("a sandboxed app never changes settings or sees grants, even when allowed to read")
    func appsChangeNothing() {
        for right in [ReaderPolicy.Right.changeSettings, .seeGrants] {
            #expect(ReaderPolicy.refusal(of: right, to: Self.app, settings: Self.allowed)?.name == .brokerAccessDenied)
        }
        for right in [ReaderPolicy.Right.donate, .askForAccess, .optOutItself, .anyone, .anyoneIdentified] {
            #expect(ReaderPolicy.refusal(of: right, to: Self.app, settings: PrivacySettings()) == nil)
        }
    }

    @Test("an unidentified process may only opt its own player out or in, and read what anyone may")
    func unidentifiedMayDoLittle() {
        for right in [ReaderPolicy.Right.readHistory, .donate, .changeSettings, .seeGrants, .askForAccess] {
            #expect(ReaderPolicy.refusal(of: right, to: .unidentified, settings: Self.allowed)?.name == .brokerAccessDenied)
        }
        for right in [ReaderPolicy.Right.optOutItself, .anyone, .anyoneIdentified] {
            #expect(ReaderPolicy.refusal(of: right, to: .unidentified, settings: Self.allowed) == nil)
        }
    }

    @Test("the refusal tells the app what to call")
    func theRefusalSaysWhatToDo() throws {
        let error = try #require(ReaderPolicy.refusal(of: .readHistory, to: Self.app, settings: PrivacySettings()))
        #expect(error.message.contains("RequestAccess") && error.message.contains("broker-ctl allow org.example.Journal"))
    }

    @Test("live listens go to subscribers that may read, now")
    func subscribersFollowGrants() {
        var subscribers = Subscribers()
        let added = [subscribers.add(":1.1", reader: .host), subscribers.add(":1.2", reader: Self.app),
                     subscribers.add(":1.3", reader: .unidentified)]
        #expect(added == [true, true, true])
        #expect(subscribers.recipients(under: PrivacySettings()) == [":1.1"])
        #expect(subscribers.recipients(under: Self.allowed) == [":1.1", ":1.2"])
        #expect(subscribers.recipients(under: Self.denied) == [":1.1"], "a revoked grant stops them at once")
        subscribers.remove(":1.1")
        #expect(subscribers.recipients(under: Self.allowed) == [":1.2"])
    }
}
