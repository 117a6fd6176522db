/// What players report — their signals and the answers to reads — taken into each player's state
/// and listening, and the reads asked again.
extension PlayersCore {
    // MARK: Signals

    func propertiesChanged(from sender: String, path: String?, _ signal: PropertiesChangedSignal?) {
        guard !stopped, let player = players[sender], path == Self.mprisPath else { return }
        let startedRead = signal.map { apply($0, to: player) } ?? false
        if !startedRead { repeatableSender = sender }
    }

    /// Applies a `PropertiesChanged` signal; returns whether that started a read of the player,
    /// which a repeat of the signal would start again (so it must not be dropped).
    func apply(_ signal: PropertiesChangedSignal, to player: FollowedPlayer) -> Bool {
        // Other interfaces (Playlists, TrackList) are none of our business (quirk 12).
        guard signal.interface == Self.playerInterface else {
            guard signal.interface == Self.rootInterface else { return false }
            readIdentity(of: player)
            return true
        }
        let changed = signal.changed
        // A new track without its status: the player may not re-send PlaybackStatus (quirk 10),
        // so it is read again.
        let newTrack = apply(changed, to: player)
        let newTrackWithoutStatus = newTrack && changed.playbackStatus == nil
        // Only-invalidated properties are re-read, not taken as cleared (quirk 11).
        let reread = signal.invalidated.contains(where: changed.lacks)
        guard reread || newTrackWithoutStatus else { return false }
        readPlayerProperties(of: player)
        return true
    }

    /// Feeds the properties a player reported to its listening state, metadata first: a track
    /// change often arrives together with its status. The position comes before Playing (a player
    /// met already playing began where it says) and after Paused (Paused at the end is the end).
    /// Returns whether `Metadata` named a new track — not a repeat, and not the same track told
    /// again with a field filled in or revised (Chromium's growing `mpris:length` when a server
    /// has no range requests, each of which would otherwise start a read).
    @discardableResult
    func apply(_ properties: PlayerProperties, to player: FollowedPlayer) -> Bool {
        var newTrack = false
        // Art is asked for as soon as it is told, even when nothing else changed: a browser's
        // art file may be gone a moment later.
        if let metadata = properties.metadata { requestArtwork(metadata.artURL, for: player) }
        if let metadata = properties.metadata, metadata != player.lastMetadata {
            newTrack = player.lastMetadata.map { !metadata.isSameTrack(as: $0) && !metadata.fillsIn(untitled: $0) } ?? true
            if logsPlayerEvents {
                log(.debug, "\(player.uniqueName) tells \(newTrack ? "a new track" : "the same track again"): \(metadata.title.map { "\"\($0)\"" } ?? "no title"), length \(metadata.length.map(String.init) ?? "unknown") µs\(sinceMet(player))")
            }
            player.lastMetadata = metadata
            tell(player, .metadata(metadata))
        }
        if let rate = properties.rate?.value, rate != player.lastRate {
            player.lastRate = rate
            tell(player, .rate(rate))
        }
        let position = properties.position
        let status = properties.playbackStatus?.value
        if let position, status != .paused { tell(player, .position(position)) }
        if let status {
            let changed = status != player.status
            if logsPlayerEvents, changed {
                log(.debug, "\(player.uniqueName) is \(status) at \(position.map { "\($0) µs" } ?? "an untold position")\(sinceMet(player))")
            }
            player.status = status
            tell(player, event(for: status, of: player))
            if changed || !player.armed.contains(.reread) { scheduleSafetyReread(of: player) }
            // Paused at the track's end is the track ended: where is it? (Firefox's `<audio>`.)
            if changed, status == .paused, position == nil { actions.append(.read(player.ref, .position)) }
        }
        if let position, status == .paused { tell(player, .position(position)) }
        return newTrack
    }

    /// The event for a status the player reported: its first Playing may have begun earlier
    /// (``LateStart``).
    func event(for status: PlaybackStatus, of player: FollowedPlayer) -> PlayerEvent {
        guard status == .playing, !player.hasPlayed else { return .playbackStatus(status) }
        player.hasPlayed = true
        let current = clocks.wall()
        let listening = player.listening
        guard let began = LateStart.began(position: listening.position(at: current), rate: listening.rate,
                                          length: listening.metadata?.length, metAt: player.metAt,
                                          followingSince: startedAt, now: current)
        else { return .playbackStatus(status) }
        return .playingSince(began)
    }

    // MARK: Reads

    /// Reads `Identity` and `DesktopEntry`, then resolves the app (desktop file, icon, Flatpak or
    /// snap sandbox from the player's process). A read that fails — the player owns its name but
    /// has not exported its object yet — is asked again (``ReadRetry``), and at once when the player
    /// interface first answers; the app is resolved only from an answer, or from the name and
    /// process alone once the player was given up on.
    func readIdentity(of player: FollowedPlayer) {
        cancel(.identityRetry, of: player)
        player.identity.isFindingApp = true
        actions.append(.read(player.ref, .identity))
    }

    /// Reads the player interface, asked again like the root interface until it first answers
    /// (the player may not have exported its object yet).
    func readPlayerProperties(of player: FollowedPlayer) {
        cancel(.playerRetry, of: player)
        actions.append(.read(player.ref, .player))
    }

    func answered(_ answer: Answer, for player: FollowedPlayer) {
        switch answer {
        case .identity(let name, let desktopEntry):
            player.identity.isFindingApp = false
            player.identity.answered(identity: name, desktopEntry: desktopEntry)
            resolveApp(of: player)
        case .failed(.identity, let reason):
            player.identity.isFindingApp = false
            switch player.identity.failed(at: clocks.monotonic()) {
            case .askAgain(let delay):
                log(.debug, "\(player.uniqueName) did not tell its identity (\(reason)); asking again in \(delay / 1000) ms")
                arm(.identityRetry, of: player, after: delay)
            case .resolveWithout:
                log(.warning, "\(player.uniqueName) never told its identity (\(reason)); its app is found from its name and process")
                resolveApp(of: player)
            case .nothing:
                break
            }
        case .player(let properties):
            player.playerRetry = ReadRetry()
            // Its first answer asks again at once for an identity that failed: the object is there now.
            if !player.hasReadPlayer {
                player.hasReadPlayer = true
                if player.armed.contains(.identityRetry) { readIdentity(of: player) }
            }
            if let waiting = leftovers.take(for: player.uniqueName) {
                resume(waiting, of: player, from: properties)
            } else {
                apply(properties, to: player)
            }
        case .failed(.player, let reason):
            // Once it has answered, its object is there: a failure then is the player's own
            // (the next signal or safety re-read asks again).
            guard !player.hasReadPlayer, let delay = player.playerRetry.failed(at: clocks.monotonic()) else {
                return log(.debug, "could not read \(Self.playerInterface) of \(player.uniqueName): \(reason)")
            }
            arm(.playerRetry, of: player, after: delay)
        case .position(let position):
            guard let position else { return }
            if logsPlayerEvents { log(.debug, "\(player.uniqueName) is at \(position) µs, read\(sinceMet(player))") }
            tell(player, .position(position))
        case .failed(.position, _), .gone:
            break
        }
    }

    /// While a player plays, re-read it now and then: some never signal. Nothing runs while
    /// nothing plays.
    func scheduleSafetyReread(of player: FollowedPlayer) {
        cancel(.reread, of: player)
        guard player.status == .playing, !stopped else { return }
        arm(.reread, of: player, after: safetyRereadInterval)
    }
}
