import Localization
/// How `apps` and `readers` print their list of apps: a table, one JSON object a line, or the
/// ids alone (for shell completion).
enum ListFormat: Equatable, Sendable {
    case table, json, ids

    static let jsonOption = OptionSpec("json", help: localized("Print one JSON object per app, one a line."))
    static let idsOption = OptionSpec("ids", help: localized("Print only the app ids, one a line (for shell completion)."))
    static let options = [jsonOption, idsOption]

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        switch (arguments.contains(Self.jsonOption), arguments.contains(Self.idsOption)) {
        case (true, true): throw UsageError(localized("{json} and {ids} cannot be used together", ["json": Self.jsonOption.longSpelling, "ids": Self.idsOption.longSpelling]))
        case (true, false): self = .json
        case (false, true): self = .ids
        case (false, false): self = .table
        }
    }
}
