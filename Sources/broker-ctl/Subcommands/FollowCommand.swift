import MediaDonationClient
import Localization

/// `broker-ctl follow`: a line per listen as the broker records it, until stopped.
struct FollowCommand: Subcommand, Equatable {
    static let name = "follow"
    static let summary = localized("Print each listen as it is recorded, until Ctrl-C.")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print one JSON object per listen, one a line, with the keys of 'recent --json'."))
    }

    static let options = [Option.json]

    static let discussion = localized("""
        Each line is written as soon as the broker records the listen, also into a pipe. Ctrl-C
        (SIGINT) or SIGTERM stops following with exit status 0; losing the session bus ends it with
        status 1. Times are local.

        Examples:
          broker-ctl follow
          broker-ctl follow --json | jq -r '.artist + " - " + .title'
        """)

    static var connectionLostMessage: String { localized("the connection to the media broker was lost; no more listens will arrive") }
    static var mediaOffNote: String {
        localized("broker-ctl: media recording is switched off; nothing will be recorded until 'broker-ctl media on'") + "\n"
    }

    var printsJSON = false

    init(printsJSON: Bool = false) {
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        // Watch for Ctrl-C before subscribing, so a stop at any moment from here on is clean.
        let stops = environment.stopSignals()
        let added = try await broker.mediaAdded()
        // Subscribed first, then asked: nothing recorded in between is missed, and the call starts
        // the broker by D-Bus activation or fails here when there is none.
        do {
            let recording = try await broker.isMediaEnabled()
            if !recording { environment.standardError.write(Self.mediaOffNote) }
        } catch .brokerNotRunning {
            throw MediaBrokerError.brokerNotRunning
        } catch .busUnavailable(let why) {
            throw MediaBrokerError.busUnavailable(why)
        } catch {
            // A broker without the toggle (an older one) still sends MediaAdded: follow it anyway.
        }
        let timeZone = environment.timeZone
        let output = environment.standardOutput
        let printsJSON = printsJSON
        let ending = await Self.firstEnding(
            printing: {
                for await item in added {
                    output.write(printsJSON ? FollowOutput.jsonLine(item) : FollowOutput.line(item, timeZone: timeZone))
                }
            },
            until: stops)
        if ending == .streamEnded {
            throw CommandFailure(Self.connectionLostMessage)
        }
    }

    enum Ending: Equatable, Sendable {
        /// SIGINT or SIGTERM.
        case stopped
        /// The stream of new listens finished: the broker or the bus connection is gone.
        case streamEnded
    }

    /// Runs `printing` until it returns or a stop signal arrives, whichever is first, and cancels
    /// the other (which ends the subscription or restores the signals' default action).
    static func firstEnding(
        printing: @escaping @Sendable () async -> Void, until stops: AsyncStream<Int32>
    ) async -> Ending {
        await withTaskGroup(of: Ending?.self) { group in
            group.addTask {
                await printing()
                return .streamEnded
            }
            group.addTask {
                for await _ in stops { return .stopped }
                return nil  // Nobody can send a signal (as in tests): only the stream can end it.
            }
            var ending = Ending.streamEnded
            while let next = await group.next() {
                if let next {
                    ending = next
                    break
                }
            }
            group.cancelAll()
            return ending
        }
    }
}
