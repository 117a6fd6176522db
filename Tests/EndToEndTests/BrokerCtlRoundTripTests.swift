import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Every `broker-ctl` command against a real broker, in human and `--json` output (issue 5), and
/// the live and bulk paths: `follow` (issue 3) and `export` of 10,000 assets.
@Suite struct BrokerCtlRoundTripTests {
    typealias Run = (status: ChildProcess.ExitStatus, standardOutput: String, standardError: String)

    func json(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func ok(_ run: Run, _ what: String) -> Bool {
        if run.status != .exited(0) { Issue.record("\(what) exited \(run.status): \(run.standardError)") }
        return run.status == .exited(0)
    }

    @Test("each command works end to end, in human and --json output")
    func everyCommand() throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0"])
        let ctl = broker.brokerCtl

        let donated = try ctl(["donate", "--app", "notes", "--title", "Memo", "--artist", "A", "--artist", "B", "--album", "C", "--json"])
        #expect(ok(donated, "donate"))
        let id = try json(donated.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))["id"] as? Int
        #expect(id == 1)
        #expect(try ctl(["donate", "--app", "mpv", "--title", "Second"]).standardOutput == "2\n")

        let recent = try ctl(["recent"])
        #expect(ok(recent, "recent"))
        #expect(recent.standardOutput.contains("Memo") && recent.standardOutput.contains("A, B") && recent.standardOutput.contains("notes"))
        let lines = try ctl(["recent", "--json"]).standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try json(lines[1])["artists"] as? [String] == ["A", "B"])
        #expect(try ctl(["recent", "--app", "mpv", "--json"]).standardOutput.split(separator: "\n").count == 1)

        #expect(try ctl(["now"]).standardOutput.contains("Nothing is playing"))
        #expect(try ctl(["now", "--json"]).standardOutput.isEmpty)

        let status = try json(try ctl(["status", "--json"]).standardOutput)
        #expect(status["assets"] as? Int == 2)
        #expect(status["version"] as? String == MediaBrokerClient.version)
        #expect(try ctl(["status"]).standardOutput.contains("Assets: 2"))

        #expect(ok(try ctl(["media", "off"]), "media off"))
        #expect(try json(try ctl(["media", "status", "--json"]).standardOutput)["media_enabled"] as? Bool == false)
        #expect(try ctl(["recent", "--json"]).standardOutput.isEmpty, "Media off: journaling apps get nothing")
        let refused = try ctl(["donate", "--app", "notes", "--title", "While off"])
        #expect(refused.status == .exited(1))
        #expect(refused.standardError.contains("switched off"))
        #expect(ok(try ctl(["media", "on"]), "media on"))
        #expect(try ctl(["media", "status"]).standardOutput.contains("on"))

        let apps = try ctl(["apps", "--json"]).standardOutput.split(separator: "\n").map(json)
        #expect(apps.compactMap { $0["app_id"] as? String } == ["mpv", "notes"])
        #expect(apps.first?["app_name"] as? String == "mpv Media Player")
        #expect(try ctl(["apps", "--ids"]).standardOutput == "mpv\nnotes\n")
        #expect(try ctl(["apps"]).standardOutput.contains("mpv Media Player"))

        #expect(ok(try ctl(["opt-out", "notes"]), "opt-out"))
        #expect(try ctl(["apps"]).standardOutput.contains("by you"))
        #expect(try ctl(["recent", "--json"]).standardOutput.split(separator: "\n").count == 1)
        #expect(ok(try ctl(["opt-in", "notes"]), "opt-in"))
        #expect(try ctl(["recent", "--json"]).standardOutput.split(separator: "\n").count == 2)

        #expect(try ctl(["retention"]).standardOutput.contains("90"))
        #expect(ok(try ctl(["retention", "30"]), "retention 30"))
        #expect(try json(try ctl(["retention", "--json"]).standardOutput)["retention_days"] as? Int == 30)

        let unconfirmed = try ctl(["purge", "--all"])
        #expect(unconfirmed.status == .exited(64), "no terminal and no --yes: nothing deleted")
        #expect(try ctl(["recent", "--json"]).standardOutput.split(separator: "\n").count == 2)
        let purged = try ctl(["purge", "--app", "notes", "--yes"])
        #expect(ok(purged, "purge --app"))
        #expect(purged.standardOutput.contains("1"))
        #expect(ok(try ctl(["opt-out", "mpv", "--purge", "--yes"]), "opt-out --purge"))
        #expect(try ctl(["recent"]).standardOutput.contains("No media"))
        #expect(try ctl(["purge", "--all", "--yes"]).status == .exited(0))

        #expect(try ctl(["recent", "--limit", "0"]).status == .exited(64))
        #expect(try ctl(["no-such-command"]).status == .exited(64))
        try broker.stop()
        let gone = try ctl(["status"])
        #expect(gone.status == .exited(1))
    }

    @Test("broker-ctl follow --json prints an asset within 1 s of it being recorded, and exits 1 when the broker goes away")
    func followPrintsPromptly() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "0"])
        let follow = try ChildProcess.launch(try BuiltProducts.path(of: "broker-ctl"), arguments: ["follow", "--json"],
                                             environment: bus.environment)
        // follow is live once it prints what is recorded: donate warm-ups until one shows.
        let client = try broker.client()
        var warmups = 0
        try await waitUntil("follow prints a warm-up asset") {
            warmups += 1
            _ = try await client.donate(Donation(appID: "notes", title: "Warm-up \(warmups)"))
            return follow.standardOutput.contains("Warm-up")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let id = try await client.donate(Donation(appID: "notes", title: "Followed"))
        try follow.waitForOutput(containing: "\"Followed\"", in: .standardOutput, timeout: .seconds(5))
        let elapsed = clock.now - start
        #expect(elapsed < .seconds(1), "printed after \(elapsed)")
        #expect(follow.standardOutput.contains("\"id\":\(id)"))
        try broker.stop()
        #expect(try follow.waitForExit(timeout: .seconds(10)) == .exited(1))
    }

    @Test("export of 10,000 assets is valid JSON, and valid ListenBrainz import JSON field by field")
    func exportTenThousand() throws {
        let bus = try PrivateBus.start()
        let data = try TemporaryDirectory(prefix: "export")
        // Create the schema with a broker, then fill the file directly while no broker runs.
        let first = try RunningBroker(bus: bus, data: data)
        try first.stop()
        // A week of listens ending about a day ago: well inside the default 90-day retention.
        let base = (Int(Date().timeIntervalSince1970) - 8 * 86_400)
        let insert = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO assets(started, ended, listened, length, title, artists, album, app_id, app_name, source)
            SELECT \(base)000000 + i * 60000000, \(base)000000 + i * 60000000 + 30000000, 30000000, 200000000,
                   'Track ' || i, 'Artist ' || (i % 7) || char(31) || 'Guest', 'Album ' || (i % 13), 'mpv', 'mpv Media Player', 'mpris'
            FROM n;
            """
        let filled = try ChildProcess.run("/usr/bin/sqlite3", arguments: [first.databasePath, insert])
        #expect(filled.status == .exited(0), "\(filled.standardError)")

        let broker = try RunningBroker(bus: bus, data: data)
        let plain = try broker.brokerCtl(["export"])
        #expect(plain.status == .exited(0), "\(plain.standardError)")
        let all = try #require(try JSONSerialization.jsonObject(with: Data(plain.standardOutput.utf8)) as? [[String: Any]])
        #expect(all.count == 10_000)
        #expect(Set(all.compactMap { $0["id"] as? Int }).count == 10_000, "each asset exactly once")

        let lb = try broker.brokerCtl(["export", "--format", "listenbrainz"])
        #expect(lb.status == .exited(0), "\(lb.standardError)")
        let document = try json(lb.standardOutput)
        #expect(document["listen_type"] as? String == "import")
        let payload = try #require(document["payload"] as? [[String: Any]])
        #expect(payload.count == 10_000)
        for listen in payload {
            let at = listen["listened_at"] as? Int
            let track = listen["track_metadata"] as? [String: Any]
            guard let at, let track, let title = track["track_name"] as? String, let artist = track["artist_name"] as? String,
                  let number = Int(title.dropFirst("Track ".count)) else {
                Issue.record("not a ListenBrainz listen: \(listen)")
                break
            }
            #expect(at == base + number * 60)
            #expect(artist == "Artist \(number % 7), Guest")
            #expect(track["release_name"] as? String == "Album \(number % 13)")
            let info = track["additional_info"] as? [String: Any]
            #expect(info?["duration_ms"] as? Int == 200_000)
            #expect(info?["artist_names"] as? [String] == ["Artist \(number % 7)", "Guest"])
            #expect(info?["media_player"] as? String == "mpv Media Player")
        }
        try broker.stop()
    }
}
