import AssetContract
import MediaBrokerVersion
import SwiftDBus

/// The documentation of the broker's D-Bus interface, member by member: what binding generators
/// read from the introspection data and the interface file (`org.gtk.GDBus.DocString` on every
/// element and argument, `org.gtk.GDBus.Since` on what came after version 1,
/// `org.freedesktop.DBus.Deprecated` on what is deprecated) and the versions the file describes.
/// ``BrokerObject`` declares the members; ``documented(_:)`` adds these annotations to them, so the
/// declaration stays short and served introspection and file carry the same words.
/// `BrokerInterfaceDocsTests` fails for a member or argument without a doc here, or a doc for
/// none. The full reference is docs/dbus-api.md.
enum BrokerInterfaceDocs {
    /// One member's documentation.
    struct Doc {
        var text: String
        /// The interface version that added the member (docs/dbus-api.md, "Versions"); `nil` for 1.
        var since: UInt32?
        var deprecated: Bool
        /// Each argument's documentation, by name.
        var arguments: [String: String]

        init(_ text: String, since: UInt32? = nil, deprecated: Bool = false, arguments: [String: String] = [:]) {
            self.text = text
            self.since = since
            self.deprecated = deprecated
            self.arguments = arguments
        }
    }

    /// gdbus-codegen's documentation annotation: DocBook text, on any element or argument.
    static let docString = "org.gtk.GDBus.DocString"
    /// gdbus-codegen's one-line summary of an interface.
    static let shortDocString = "org.gtk.GDBus.DocString.Short"
    /// The version an element appeared in (gdbus-codegen orders generated code and docs by it).
    static let since = "org.gtk.GDBus.Since"
    static let deprecated = "org.freedesktop.DBus.Deprecated"
    /// The interface version the declaration serves: the `Version` property's value.
    static let interfaceVersion = "org.mediabroker.MediaBroker1.InterfaceVersion"
    /// The MediaBroker release the declaration comes from: the version `media-broker --version`,
    /// `Status()` and the Debian package carry.
    static let brokerVersion = "org.mediabroker.MediaBroker1.BrokerVersion"

    static let summary = "Listens recorded from MPRIS media players, for journaling apps"

    static let interfaceText: String = """
        MediaBroker follows every MPRIS media player on the session bus, records what the person \
        actually listened to as assets in a history of theirs, and answers journaling apps. Every \
        instant is x, microseconds since the Unix epoch (UTC); every duration is x microseconds. \
        Errors are org.mediabroker.MediaBroker1.Error.Name (MediaDisabled, NotAPlayer, \
        OptedOutByUser, AppOptedOut, AccessDenied, Paused); a malformed argument is \
        org.freedesktop.DBus.Error.InvalidArgs, with a message naming the key. A sandboxed app reads \
        nothing until the person allows it (RequestAccess) and changes no setting. The full \
        reference is dbus-api.md (/usr/share/doc/media-broker/ when installed from the package).
        """ + " " + assetKeys

    /// What an asset is: every key of the contract (``AssetContract``) with its type and meaning,
    /// told once, on the interface.
    static var assetKeys: String {
        // DocBook has no code spans: the contract's markdown backticks are left out.
        let keys = AssetContract.keys.map { "\($0.key.rawValue) (\($0.type.signature)): \($0.meaning.filter { $0 != "`" })" }
        return "An asset is an a{sv}; an absent key means unknown, a string is never empty. Keys: "
            + keys.joined(separator: "; ") + ". artwork, artwork_url and summary are new in version 2; keep keys you do not know."
    }

    /// An asset argument's documentation: `lead`, then the keys by name.
    static func assets(_ lead: String) -> String {
        lead + " Each is an asset (its keys are described on the interface): "
            + AssetContract.keys.map(\.key.rawValue).joined(separator: ", ") + "."
    }

    /// `Donate`'s media: the keys the contract lets a donation carry.
    static var donation: String {
        func keys(_ donate: AssetKeySpec.Donation) -> String {
            AssetContract.keys.filter { $0.donate == donate }.map { "\($0.key.rawValue) (\($0.type.signature))" }
                .joined(separator: ", ")
        }
        return "The listen. Required: \(keys(.required)). Optional: \(keys(.optional)). started defaults to now "
            + "(at most a minute ahead, not older than RetentionDays); ended to started + length; listened to "
            + "ended - started, and when given it must pass the broker's listen rule. Text is bounded like MPRIS "
            + "metadata (\(AssetContract.maximumTextBytes) bytes, \(AssetContract.maximumArtists) artists). "
            + "A missing required key, an unknown key, a wrong type or a bad value is InvalidArgs."
    }

    static let methods: [String: Doc] = [
        "RecentMedia": Doc(
            "Listens from the history, newest first (by started, then id). Opted-out apps' listens are never returned; with Media off the answer is empty. Page with limit and before_id: a page of limit assets may have more after it.",
            arguments: [
                "filter": "All keys optional: since (x, inclusive) and until (x, exclusive), instants; limit (u, 1 to 1000, default 50); app_id (s), only this app; before_id (x), the paging cursor: the assets after this one. Integer keys take any D-Bus integer type. An unknown key, a wrong type or a value out of range is InvalidArgs.",
                "assets": assets("A page of assets, newest first."),
            ]),
        "Moments": Doc(
            "Listening grouped as a person would tell it (an evening with one album, 9 tracks), newest first, ready to offer as journaling suggestions. A moment is a run of listens, across apps, each starting no more than gap after the latest end before it; it never crosses 04:00 local time and holds at most 13 listens.",
            since: 2,
            arguments: [
                "filter": "All keys optional: since and until (x), moments that began in this range; limit (u, 1 to 200, default 20); app_id (s), moments of this app's listens only; gap (x, 1 minute to 6 hours, default 30 minutes), the silence that ends a moment; before (s), the paging cursor: the moments older than the one with this id; on_this_day (x), the moments of the listening day on this instant's date in each earlier year, nearest year first (not with since, until or before).",
                "moments": "Each moment is an a{sv}: id (s, stable while it grows); title (s); summary (s, one line to show); started, ended (x); listened (x); count (u); asset_ids (ax, oldest first, for MediaByID); artists (as); album (s); app_ids (as); app_icon (s); kind (s); title_rule (s: show, album, artist or mixed); artist (s); show, episode (s); episode_count (u, show rule: how many episodes); artist_count (u); part_of_day (s: morning, afternoon, evening or night).",
            ]),
        "MediaByID": Doc(
            "The assets with these ids, in the order asked: a moment's asset_ids, or ids an app kept. Ids the history does not hold and assets of opted-out apps are skipped; with Media off the answer is empty.",
            since: 2,
            arguments: [
                "ids": "At most 1000 asset ids.",
                "assets": assets("The assets found, in the order asked."),
            ]),
        "NowPlaying": Doc(
            "What each active player plays now, as assets not yet finally recorded.",
            arguments: ["assets": assets("One asset per playing player, without id; ended and listened as of now.")]),
        "Apps": Doc(
            "Every app seen (in the history, on the bus now, or asked about in this run), opted out or allowed.",
            arguments: [
                "apps": "Each app is an a{sv}: app_id (s); app_name (s); app_icon (s, when one resolves); opted_out (b); opted_out_by (s: user or app, when opted out); allowed (b, version 7: the person allowed it, so it is recorded whatever NewApps says); sites (as, version 7: for a web browser, the sites its kept listens played on); listens (u); last_seen (x, the start of its newest asset).",
            ]),
        "SetAppOptedOut": Doc(
            "The person's opt-out of one app, for every instance: from now on nothing of it is recorded (a listen in progress is discarded) and its past assets are not returned. Answers once the change is on disk.",
            arguments: [
                "app_id": "The app; empty or longer than 255 bytes is InvalidArgs.",
                "opted_out": "true to opt the app out (and take back allowing it); false clears the opt-out, whoever made it, and allows the app (version 7).",
            ]),
        "EditMedia": Doc(
            "Corrects a kept listen's words (host callers only): readers, exports and subscribers (MediaChanged) see the correction; the words first recorded are kept, so UndoEdit can put them back. Answers once it is on disk.",
            since: 7,
            arguments: [
                "id": "The asset; one the history does not hold is InvalidArgs.",
                "changes": "Any of title (s, not empty), artist (s) or artists (as), album (s; empty clears it), read and cleaned as Donate reads them; another key, or none, is InvalidArgs. from_now_on (b, version 8): also keep the correction as a rule for the same app's later listens told with the words this one was first recorded with (see Rules).",
                "asset": assets("The asset as it now reads."),
            ]),
        "UndoEdit": Doc(
            "Puts back the words a corrected listen was first recorded with (host callers only); told to subscribers as MediaChanged. An asset with no correction is InvalidArgs.",
            since: 7,
            arguments: ["id": "The asset.", "asset": assets("The asset as it now reads.")]),
        "Rules": Doc(
            "The correction rules made with EditMedia's from_now_on (host callers only), oldest first. As a listen is recorded, the newest rule for its app and its words as told corrects it; exclusion, opt-outs and a pause apply first.",
            since: 8,
            arguments: [
                "rules": "Each rule is an a{sv}: id (x); app_id (s); title (s) and artists (as), the words it matches as the app tells them; correction (a{sv}: title (s), artists (as), album (s, empty clears it) — only the words it changes); created (x, µs since the epoch).",
            ]),
        "RemoveRule": Doc(
            "Removes a correction rule (host callers only): later listens are recorded as told. The listens it corrected keep their correction, and UndoEdit still puts each one's first words back. An unknown id is InvalidArgs.",
            since: 8,
            arguments: ["id": "The rule, as Rules gives it."]),
        "JournalApps": Doc(
            "The installed journal apps (host callers only): those whose desktop file declares X-MediaBroker-Suggestion-URL (docs/journal-apps.md).",
            since: 9,
            arguments: [
                "apps": "Each app is an a{sv}: id (s, its desktop-file id without .desktop); name (s); icon (s, when one resolves); url (s, its suggestion URL template, when usable) or problem (s, why it cannot be used).",
            ]),
        "SetSiteOptedOut": Doc(
            "The person keeps a site out of the history in every web browser, or lets it in again: from now on a listen on the site (or a subdomain) is not recorded, and one playing now is discarded. Listens kept from it stay until purged (Purge with site). Answers once the change is on disk.",
            since: 7,
            arguments: [
                "site": "A host name such as youtube.com (lowercased; a leading www. is dropped); anything else is InvalidArgs.",
                "opted_out": "true to keep the site out; false to let it in again.",
            ]),
        "OptOut": Doc("A player opts its own app out: the caller must own an org.mpris.MediaPlayer2 name (Error.NotAPlayer otherwise); the app is the one the broker derived from that player."),
        "OptIn": Doc("A player withdraws its own app's opt-out; never the person's (Error.OptedOutByUser)."),
        "Purge": Doc(
            "Deletes assets for good, overwriting them in the file; MediaRemoved announces their ids.",
            arguments: [
                "filter": "Exactly one scope: app_id (s); or site (s, version 7: every listen on that site in a browser, and on its subdomains); or since (x, inclusive) and/or until (x, exclusive); or all (b) true. An empty filter, two scopes, an unknown key or a bad value is InvalidArgs.",
                "removed": "How many assets were deleted.",
            ]),
        "Donate": Doc(
            "Records a listen from an app without MPRIS. The same donation twice is stored once. Error.MediaDisabled while the Media toggle is off, Error.AppOptedOut for an opted-out app, Error.AppNotAllowed for an app the person has not allowed while NewApps is ask or ignore (version 7). A sandboxed app donates in its own name only, 20 at once and then one a second (LimitsExceeded beyond).",
            arguments: ["media": donation, "id": "The stored asset's id; 0 to a sandboxed app that may not read (since version 5)."]),
        "Status": Doc(
            "Whether the broker runs, its version, and what it follows.",
            arguments: [
                "status": "version (s), the broker's version, as media-broker --version prints it; to a caller that may read, also assets (t), how many the history holds, and players (aa{sv}), each followed MPRIS name: bus_name, unique_name, app_id (s) and playback_status (s: Playing, Paused or Stopped, once known).",
            ]),
        "Subscribe": Doc(
            "From now on MediaAdded and MediaRemoved are sent to the caller alone, for as long as its connection lives and it may read. At most 256 connections subscribe (LimitsExceeded beyond).",
            since: 3),
        "RequestAccess": Doc(
            "A sandboxed app asks the person whether it may read: a notification with Allow and Don't allow, answered within two minutes (call it with a timeout of at least 130 s). Error.AccessDenied at once when the app was refused, or its question left unanswered, in the last 24 hours, a question of it is open, or no notification service runs.",
            since: 3,
            arguments: [
                "options": "reason (s, optional): one line shown with the question, at most 200 bytes.",
                "answer": "allowed (also for a host caller, always); denied (the app may not ask again for 24 hours); or unanswered (dismissed, or two minutes passed: it counts as asked, and the app may not ask again for 24 hours).",
            ]),
        "Readers": Doc(
            "The sandboxed apps the person decided about (host callers only).",
            since: 3,
            arguments: [
                "readers": "Each reader is an a{sv}: app_id (s); app_name and app_icon (s, from its desktop file when installed); access (s: allowed or denied); decided (x); last_read (x, noted at most every ten minutes).",
            ]),
        "SetReaderAccess": Doc(
            "The person's decision about a sandboxed app (host callers only), stored with the other settings.",
            since: 3,
            arguments: [
                "app_id": "The sandboxed app's id.",
                "access": "allowed, denied, or unset to forget the decision (the app reads nothing and may ask again).",
            ]),
        "Pause": Doc(
            "Pauses recording (host callers only): while paused nothing is recorded from any source, a listen in progress is discarded, NowPlaying answers empty and Donate fails with Error.Paused; what is kept can still be read. A new pause replaces the one in force; it survives a restart and ends by itself at its time. MediaEnabled stays the master switch.",
            since: 6,
            arguments: [
                "options": "Either duration (x, microseconds, at most a year) or until (x, an instant within a year); neither: until Resume.",
            ]),
        "Resume": Doc("Ends a pause now (host callers only); nothing happens when recording is not paused.", since: 6),
        "PickMedia": Doc(
            "Shows the person a picker of their moments and recent listens, over the caller's window, and hands the caller only what they choose, as xdg-desktop-portal's requests do: the call returns a request object at once (org.freedesktop.portal.Request), whose Response signal, sent to the caller alone, brings the result; Close() on it cancels. A sandboxed app needs no grant: what it gets is what the person picked. One open request per connection and per sandboxed app, 8 in all (LimitsExceeded beyond).",
            since: 4,
            arguments: [
                "parent_window": "The caller's window, as portals spell it: x11:XID, wayland:HANDLE, or empty.",
                "options": "All optional: since and until (x), the listens offered (default the last 7 days); reason (s), the app's line shown in the picker; multiple (b, default true), whether more than one asset may be picked; handle_token (s), the last element of the request's path, as portals take it.",
                "handle": "The request object: its Response (u response, a{sv} results) says 0 shared, 1 cancelled or 2 ended otherwise; results hold assets (aa{sv}) and, when a moment was picked, moment (a{sv}).",
            ]),
    ]

    static let properties: [String: Doc] = [
        "Version": Doc("The interface's version, bumped whenever a behaviour a client sees changes. A broker without it is version 1.", since: 2),
        "MediaEnabled": Doc("The Media toggle. Off: nothing new is recorded from any source, RecentMedia, Moments, MediaByID and NowPlaying answer empty, Donate fails. Set answers once the change is on disk."),
        "OptedOutApps": Doc("The app ids opted out by the person or by themselves, sorted. A change is signalled as invalidated, without the list: Get it again."),
        "RetentionDays": Doc("Assets older than this many days are deleted automatically: 0 keeps everything, at most 10000, default 90."),
        "PausedUntil": Doc("When the pause in force ends: 0 when recording is not paused, 9223372036854775807 when it lasts until Resume.", since: 6),
        "NewApps": Doc("What becomes of an app the person has neither allowed nor opted out: record (at once, the default), ask (its listens are held in memory while one notification asks the person; the answer allows the app or opts it out), or ignore (only allowed apps are recorded). Leaving record, the apps in the history count as allowed. Set answers once the change is on disk.", since: 7),
        "OptedOutSites": Doc("The sites the person keeps out of the history in web browsers, sorted: a listen on such a site, or on one of its subdomains, is not recorded. A change is signalled as invalidated, without the list: Get it again.", since: 7),
        "AllowedApps": Doc("The app ids the person allowed, sorted: recorded whatever NewApps says. A change is signalled as invalidated, without the list: Get it again.", since: 7),
        "SuggestAt": Doc("When the daily journaling suggestion comes, HH:MM (or HH:MM:SS), the person's local time; empty while suggestions are off, the default. Once a day at that time, when the day holds a moment worth writing about (or the same date in an earlier year does), one notification offers it; nothing is sent while recording is off or paused, nor twice a day. Set answers once the change is on disk.", since: 9),
        "JournalApp": Doc("The desktop-file id of the journal app a suggestion's Write about it opens, one of JournalApps; empty for none. Set answers once the change is on disk.", since: 9),
    ]

    static let signals: [String: Doc] = [
        "MediaAdded": Doc(
            "A listen was recorded (sent once it is on disk), to each subscriber (Subscribe) that may read.",
            arguments: ["asset": assets("The recorded asset.")]),
        "MediaChanged": Doc(
            "A kept listen's words were corrected, or the correction undone (EditMedia, UndoEdit), to each subscriber that may read.",
            since: 7,
            arguments: ["asset": assets("The asset as it now reads.")]),
        "MediaRemoved": Doc(
            "Assets were purged or expired, to each subscriber that may read; at most 1000 ids a signal.",
            arguments: ["ids": "The ids of the assets removed."]),
    ]

    /// `interface` with the documentation above added to it, and its versions.
    static func documented(_ interface: ExportedInterface) -> ExportedInterface {
        var documented = interface
        documented.annotations += [
            Annotation(shortDocString, summary), Annotation(docString, interfaceText),
            Annotation(interfaceVersion, String(BrokerContract.version)),
            Annotation(brokerVersion, MediaBrokerVersion.current),
        ]
        for index in documented.methods.indices {
            let method = documented.methods[index]
            guard let doc = methods[method.name.rawValue] else { continue }
            documented.methods[index].annotations += annotations(doc)
            documented.methods[index].inputs = method.inputs.map { document($0, doc) }
            documented.methods[index].outputs = method.outputs.map { document($0, doc) }
        }
        for index in documented.properties.indices {
            guard let doc = properties[documented.properties[index].name.rawValue] else { continue }
            documented.properties[index].annotations += annotations(doc)
        }
        for index in documented.signals.indices {
            let signal = documented.signals[index]
            guard let doc = signals[signal.name.rawValue] else { continue }
            documented.signals[index].annotations += annotations(doc)
            documented.signals[index].arguments = signal.arguments.map { document($0, doc) }
        }
        return documented
    }

    private static func annotations(_ doc: Doc) -> [Annotation] {
        [Annotation(docString, doc.text)]
            + (doc.since.map { [Annotation(since, String($0))] } ?? [])
            + (doc.deprecated ? [Annotation(deprecated, "true")] : [])
    }

    private static func document(_ argument: Argument, _ doc: Doc) -> Argument {
        guard let text = doc.arguments[argument.name] else { return argument }
        var documented = argument
        documented.annotations.insert(Annotation(docString, text), at: 0)
        return documented
    }
}
