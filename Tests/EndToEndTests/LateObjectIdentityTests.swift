import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 17 §1: a player that owns its MPRIS name before it exports its object (Firefox, ~45 ms)
/// is still recorded as the app it says it is — its listens are held until its identity is read,
/// so an opt-out of that app covers every one of them.
@Suite struct LateObjectIdentityTests {
    static let desktopID = "scripted-browser-esr"
    static let busName = "scriptedbrowser.instance_1_77"

    /// A data folder whose `applications` holds the app the player names in `DesktopEntry`.
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "late-object-data")
        let applications = home.appending("applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Scripted Browser ESR\nExec=true\n"
            .write(toFile: applications + "/\(Self.desktopID).desktop", atomically: true, encoding: .utf8)
    }

    /// Starts a broker and a player that owns its name with no object; returns once the broker's
    /// first read of it failed, with the object exported and a track played through.
    func playThroughLateObject(optingOut: Bool) async throws -> (RunningBroker, MediaBrokerClient) {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"], environment: ["XDG_DATA_HOME": home.path])
        let client = try broker.client()
        if optingOut { try await client.setAppOptedOut(Self.desktopID, true) }
        let player = try await ScriptedPlayer(bus: bus, name: Self.busName, identity: "Scripted Browser",
                                              desktopEntry: Self.desktopID, exportingLater: true)
        let uniqueName = player.connection.uniqueName
        try broker.process.waitForOutput(containing: "\(uniqueName) did not tell its identity", in: .standardError,
                                         timeout: .seconds(10))
        player.exportObject()
        try await player.playThrough(ScriptedPlayer.metadata(title: "Late Object Song"), for: .milliseconds(800), seenBy: client)
        player.quit()
        try await broker.waitUntilNoPlayers(client)
        return (broker, client)
    }

    @Test("a name owned before its object: the listen is recorded as the app DesktopEntry names")
    func identityReadAgain() async throws {
        let (broker, client) = try await playThroughLateObject(optingOut: false)
        let assets = try await broker.assets(client)
        #expect(assets.map(\.title) == ["Late Object Song"])
        #expect(assets.map(\.appID) == [Self.desktopID])
        #expect(assets.map(\.appName) == ["Scripted Browser ESR"])
        #expect(try await client.apps().map(\.appID) == [Self.desktopID])
    }

    @Test("a name owned before its object: an opt-out of the app it names leaves no row")
    func optOutCoversTheEarlyListen() async throws {
        let (broker, client) = try await playThroughLateObject(optingOut: true)
        #expect(try await broker.assets(client).isEmpty)
        let rows = try ChildProcess.run("/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT count(*) FROM assets;"])
        #expect(rows.status == .exited(0) && rows.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test("a player that never exports its root interface is still recorded, as its name tells, after the retries")
    func givenUpOn() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0.5"])
        let client = try broker.client()
        let player = try await ScriptedPlayer(bus: bus, name: "rootless.instance9", exportingLater: true)
        player.exportPlayerInterfaceOnly()
        try await player.playThrough(ScriptedPlayer.metadata(title: "Rootless Song"), for: .milliseconds(800), seenBy: client)
        try broker.process.waitForOutput(containing: "never told its identity", in: .standardError, timeout: .seconds(30))
        try await waitUntil("the listen is recorded", timeout: .seconds(10)) {
            try await broker.assets(client).map(\.appID) == ["rootless"]
        }
    }
}
