import Localization
import MediaDonationClient

/// `broker-ctl`, the command a person runs to ask the media broker what they listened to.
enum BrokerCtl {
    /// Every subcommand, in the order `--help` lists them. Help, the man page and shell completion
    /// are all checked against this list, so a subcommand added here is documented everywhere.
    static let allSubcommands: [any Subcommand.Type] = [
        RecentCommand.self,
        MomentsCommand.self,
        DayCommand.self,
        NowCommand.self,
        FollowCommand.self,
        StatusCommand.self,
        DonateCommand.self,
        MediaCommand.self,
        PauseCommand.self,
        ResumeCommand.self,
        AppsCommand.self,
        NewAppsCommand.self,
        OptOutCommand.self,
        OptInCommand.self,
        ReadersCommand.self,
        AllowCommand.self,
        DenyCommand.self,
        ForgetCommand.self,
        EditCommand.self,
        RulesCommand.self,
        SuggestCommand.self,
        PurgeCommand.self,
        RetentionCommand.self,
        ExportCommand.self,
        HelpCommand.self,
    ]

    /// Options `broker-ctl` itself accepts before any subcommand.
    static let globalOptions: [OptionSpec] = [.help, .version]

    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        allSubcommands.first { $0.name == name }
    }

    /// Runs one invocation: `arguments` is the full argv, program name first. Returns the exit status.
    static func run(arguments: [String], in environment: RunEnvironment) async -> Int32 {
        let command: Command
        do {
            command = try CommandParser.parse(
                Array(arguments.dropFirst()),
                context: ParseContext(now: environment.now, timeZone: environment.timeZone))
        } catch {
            environment.standardError.write(error.report)
            return ExitCode.usageError
        }

        switch command {
        case .showVersion:
            environment.standardOutput.write(BrokerCtlVersion.current + "\n")
            return ExitCode.success
        case .run(let subcommand):
            do {
                try await subcommand.run(in: environment)
                return ExitCode.success
            } catch let error as UsageError {
                environment.standardError.write(error.report)
                return ExitCode.usageError
            } catch {
                environment.standardError.write(localized("broker-ctl: {error}", ["error": String(describing: error)]) + "\n")
                return ExitCode.failure
            }
        }
    }
}

/// Exit statuses, following swift-argument-parser and BSD `sysexits.h`.
enum ExitCode {
    static let success: Int32 = 0
    /// The broker could not be reached or refused the request.
    static let failure: Int32 = 1
    /// `EX_USAGE`: the command line itself was wrong.
    static let usageError: Int32 = 64
}

/// A runtime failure that is not the broker's error, such as a stream that ended or a question
/// answered no. Printed as `broker-ctl: <message>`, exit 1.
struct CommandFailure: Error, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
