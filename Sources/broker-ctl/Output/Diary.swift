import ClientMomentText
import FoundationEssentials
import Localization
import MediaDonationClient

/// Listening laid out as a journal reads it, whichever command read it: listening days oldest
/// first, each with its moments (or, for `recent`, one run of listens without a heading), each
/// with its listens oldest first, all in local time. ``MarkdownOutput`` and ``PlainTextOutput``
/// print it; neither decides what goes where. Its words are the person's language (moment titles as
/// ``MomentText`` words them, "Untitled"), its dates and times fixed forms, for the scripts that read it.
struct Diary: Equatable {
    struct Day: Equatable {
        var day: ListeningDay
        var entries: [Entry]
    }

    /// A moment, or a day's listens when they come without moments.
    struct Entry: Equatable {
        var heading: Heading?
        /// The art shown once under the heading.
        var art: Art?
        var listens: [Listen]
    }

    /// A moment's title and when it began and ended.
    struct Heading: Equatable {
        var title: String
        var started: CivilTime
        var ended: CivilTime
    }

    struct Listen: Equatable {
        var started: CivilTime
        var title: String?
        /// All its artists, joined as the broker joins them.
        var artists: String?
        var album: String?
        /// The app's id, or its name when the id is unknown.
        var app: String?
        /// Art shown with this listen: only in a run without a heading, and only when it is not
        /// the art shown just before, so an album played through shows its cover once.
        var art: Art?
    }

    /// An image file the broker kept, and the words that stand for it where it cannot be shown.
    struct Art: Equatable {
        var path: String
        var description: String
    }

    var days: [Day]

    /// The moments by listening day. The broker answers newest first; a diary reads forwards.
    init(moments: [Moment], tracks: [Int64: GenericMedia], timeZone: some UTCOffsetRule, showsArt: Bool) {
        let forwards = moments.sorted { ($0.started, $0.id) < ($1.started, $1.id) }
        let byDay = Self.grouped(forwards, by: { ListeningDay(containing: $0.started, in: timeZone) }) { moment in
            let listens = moment.assetIDs.compactMap { tracks[$0] }
            let art = showsArt ? listens.lazy.compactMap { Self.art(of: $0) }.first : nil
            return Entry(
                heading: Heading(
                    title: MomentText.title(of: moment), started: timeZone.civilTime(at: moment.started), ended: timeZone.civilTime(at: moment.ended)),
                art: art, listens: listens.map { Self.listen($0, timeZone: timeZone) })
        }
        days = byDay.map { Day(day: $0.day, entries: $0.entries) }
    }

    /// Listens without moments (`recent`) by listening day, each day one run without a heading.
    init(listens: [GenericMedia], timeZone: some UTCOffsetRule, showsArt: Bool) {
        let forwards = listens.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        let byDay = Self.grouped(forwards, by: { ListeningDay(containing: $0.date, in: timeZone) }) { $0 }
        days = byDay.map { day in
            var shownArt: String?
            let listens = day.entries.map { item in
                var listen = Self.listen(item, timeZone: timeZone)
                if showsArt, let art = Self.art(of: item), art.path != shownArt {
                    listen.art = art
                    shownArt = art.path
                }
                return listen
            }
            return Day(day: day.day, entries: [Entry(heading: nil, art: nil, listens: listens)])
        }
    }

    var isEmpty: Bool { days.isEmpty }

    /// Consecutive items of one listening day together, in the order given.
    private static func grouped<Item, Grouped>(
        _ items: [Item], by dayOf: (Item) -> ListeningDay, _ make: (Item) -> Grouped
    ) -> [(day: ListeningDay, entries: [Grouped])] {
        var groups: [(day: ListeningDay, entries: [Grouped])] = []
        for item in items {
            let day = dayOf(item)
            if groups.last?.day == day {
                groups[groups.count - 1].entries.append(make(item))
            } else {
                groups.append((day, [make(item)]))
            }
        }
        return groups
    }

    private static func listen(_ item: GenericMedia, timeZone: some UTCOffsetRule) -> Listen {
        Listen(
            started: timeZone.civilTime(at: item.date), title: item.title,
            artists: item.artists.isEmpty ? item.artist : item.artists.joined(separator: ", "),
            album: item.album, app: item.appID ?? item.appName)
    }

    private static func art(of item: GenericMedia) -> Art? {
        guard let path = item.artwork, !path.isEmpty else { return nil }
        // TRANSLATORS: the words for a listen's cover picture where the album and title are unknown.
        return Art(path: path, description: item.album ?? item.title ?? localized("Cover"))
    }
}

extension Diary.Heading {
    /// `Mezzanine — Massive Attack · 21:04–22:10`, with the title made fit by `escaping`.
    func line(escaping escape: (String) -> String) -> String {
        "\(escape(title)) · \(started.clockText)–\(ended.clockText)"
    }
}

extension Diary.Listen {
    static var untitled: String { localized("Untitled") }

    /// `21:04 Teardrop — Massive Attack · Mezzanine · mpv`: what is unknown is left out, and each
    /// word from a player made fit by `escaping`.
    func line(escaping escape: (String) -> String) -> String {
        var what = escape(Self.known(title) ?? Self.untitled)
        if let artists = Self.known(artists) { what += " — " + escape(artists) }
        return ([started.clockText + " " + what] + [album, app].compactMap(Self.known).map(escape)).joined(separator: " · ")
    }

    private static func known(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
