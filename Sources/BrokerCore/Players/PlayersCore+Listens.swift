/// Each player's app, its listens' effects (held until the app is known, then recorded as the
/// settings and the twin rule say), and the art they show.
extension PlayersCore {
    // MARK: Apps

    /// Resolves the app once the process id is known (the runtime asked for it on meeting).
    func resolveApp(of player: FollowedPlayer) {
        player.identity.isFindingApp = true
        guard player.identity.process != nil else {
            player.wantsApp = true
            return
        }
        player.wantsApp = false
        guard let clues = player.identity.clues(busNames: player.busNames) else { return }
        actions.append(.resolveApp(player.ref, clues))
    }

    func appResolved(_ app: AppIdentity, for player: FollowedPlayer) {
        player.identity.isFindingApp = false
        let (isNew, changedApp) = player.identity.resolved(app)
        player.isBrowser = BrowserSites.isBrowser(player.appID)
        if isNew { log(.info, "player \(player.uniqueName) is app \(app.appID)") }
        if player.waitingForApp.coalesced > 0 {
            log(.info, "\(player.uniqueName) (\(app.appID)): coalesced \(player.waitingForApp.coalesced) listen updates while its app was being found")
        }
        for held in player.waitingForApp.takeAll() {
            write(held.effect, of: player, settingsThen: held.settings)
        }
        if !recorder.privacy.allows(app.appID) && !recorder.privacy.awaitsAnswer(about: app.appID) {
            tell(player, .discard)
        } else if changedApp {
            tell(player, .appChanged)
        }
    }

    /// A player leaving (or the broker stopping) before its app resolved: resolve it here, on this
    /// thread — a rare path, and its held store work must not be lost or done under a guessed id.
    func resolveNowIfPending(_ player: FollowedPlayer) {
        guard player.app == nil, let clues = player.identity.clues(busNames: player.busNames) else { return }
        appResolved(resolveNow(clues), for: player)
    }

    // MARK: Listens

    /// Tells the player's listening what happened, and records what that ends or begins.
    func tell(_ player: FollowedPlayer, _ event: PlayerEvent) {
        for effect in player.listening.handle(event, at: clocks.wall()) { record(effect, of: player) }
        scheduleDeadline(for: player)
    }

    func scheduleDeadline(for player: FollowedPlayer) {
        let now = clocks.wall()
        let deadline = stopped ? nil : player.listening.nextDeadline(at: now)
        // A timer armed for no later than the deadline stays: if it fires early, the tick finds
        // nothing due and arms the next. Most track changes move the deadline later (the next
        // checkpoint), and re-arming a timer on each would cost every track change.
        if let deadline, let firesAt = player.deadlineFiresAt, firesAt <= deadline { return }
        cancel(.deadline, of: player)
        player.deadlineFiresAt = nil
        guard let deadline else { return }
        arm(.deadline, of: player, after: max(0, deadline - now))
        player.deadlineFiresAt = deadline
    }

    func asset(_ listen: Listen, of player: FollowedPlayer) -> MediaAsset? {
        listen.asset(appID: player.appID, appName: player.appName, appIcon: player.app?.appIcon)
    }

    /// Hands an effect to the recorder once the player's app is known; until then it is held
    /// (see ``HeldListenEffects``) with the settings in force when it happened.
    func record(_ effect: ListenEffect, of player: FollowedPlayer) {
        guard player.app == nil else { return write(effect, of: player, settingsThen: CollectionOfOne(recorder.privacy)) }
        player.waitingForApp.hold(effect, settings: CollectionOfOne(recorder.privacy))
        // Finished listens qualified and are never dropped, so they are what a flood could pile
        // up: past a bound the app is resolved now, from the clues at hand.
        if player.waitingForApp.finishedCount >= Self.maximumHeldListens {
            log(.warning, "\(player.uniqueName) finished \(Self.maximumHeldListens) listens before its app was known; resolving it now")
            resolveNowIfPending(player)
        }
    }

    /// Asks the recorder what `effect` means for the store (see ``ListenRecorder``), and queues that
    /// work — unless the person is being asked about the player's app: then it is held.
    func write(_ effect: ListenEffect, of player: FollowedPlayer, settingsThen: some Collection<PrivacySettings>) {
        if recorder.privacy.awaitsAnswer(about: player.appID), holdForAnswer(effect, of: player, settingsThen: settingsThen) { return }
        let source = ListenRecorder.Source(uniqueName: player.uniqueName, appID: player.appID, appName: player.appName,
                                           appIcon: player.app?.appIcon, isProxy: player.isProxy, isBrowser: player.isBrowser,
                                           artworkFiles: player.art.files)
        let now = clocks.wall()
        let work = recorder.perform(effect, from: source, settingsThen: settingsThen, at: now) {
            players.values.compactMap { other in
                guard other !== player, let playing = other.listening.current(at: now) else { return nil }
                return TwinRule.Playing(listen: playing, isProxy: other.isProxy)
            }
        }
        guard let work else { return }
        if logsPlayerEvents, case .record(let asset, _) = work {
            log(.debug, "\(player.uniqueName)'s listen of \"\(asset.title)\" ends: \(asset.listened) µs heard\(sinceMet(player))")
        }
        switch work {
        case .removeTwin:
            log(.debug, "\(player.uniqueName) mirrored a listen recorded from another player; not counted twice")
        case .saveOpenListen(_, let asset, _), .record(let asset, _):
            // The art goes to the store with the listen's first write that names it, not before:
            // a track that never becomes a listen leaves no art behind.
            if asset.artwork != nil, let url = effect.listen.metadata.artURL, let artwork = player.art.takePending(url) {
                pendingArtworkBytes -= artwork.bytes.count
                actions.append(.store(.keepArtwork(artwork)))
            }
        default:
            break
        }
        actions.append(.store(work))
    }

    // MARK: New apps

    /// Holds an effect of an app the person is (to be) asked about; asks on its first. `false`
    /// when it is not held: the recorder then records nothing of it, as the app is not allowed.
    private func holdForAnswer(_ effect: ListenEffect, of player: FollowedPlayer, settingsThen: some Collection<PrivacySettings>) -> Bool {
        switch awaitingAnswer.hold(effect, of: player, settings: settingsThen) {
        case .notHeld:
            return false
        case .held:
            return true
        case .heldFirst:
            log(.info, "\(player.appID) is new: its listens wait in memory while the person is asked whether to record it")
            actions.append(.askAboutApp(player.appID, name: player.appName, icon: player.app?.appIcon))
            return true
        }
    }

    /// After a settings change: the held listens of apps no longer waiting for an answer are
    /// written, as if the app had been allowed when they were played, or dropped.
    func writeOrDropSettledListens() {
        for (appID, held) in awaitingAnswer.settled(by: recorder.privacy) {
            actions.append(.withdrawQuestion(appID))
            guard recorder.privacy.allows(appID) else {
                log(.info, "\(appID) is not recorded: its held listens are dropped")
                continue
            }
            log(.info, "\(appID) is recorded from now on, and its held listens are written")
            for var playerHeld in held {
                for item in playerHeld.effects.takeAll() {
                    write(item.effect, of: playerHeld.player, settingsThen: item.settings.map { $0.allowing(appID) })
                }
            }
        }
    }

    // MARK: Artwork

    /// Asks for the art at `url` to be read, once per URL, when the history keeps art and the URL
    /// is a local file or a `data:` URL (an `http(s)` URL is only kept as text, never fetched).
    func requestArtwork(_ url: String?, for player: FollowedPlayer) {
        guard artworkFolder != nil, let url, url != player.art.requested else { return }
        player.art.requested = url
        // The URL is parsed where it is read (``ArtworkReads``); an http(s) one is never read.
        guard player.art.files[url] == nil, !ArtworkSource.isRemote(url) else { return }
        // A file is read as the player's process sees its files (it may be sandboxed): once the
        // bus daemon has told which process that is.
        guard let process = player.identity.process else { return player.art.awaitingProcess = true }
        actions.append(.secureArtwork(player.ref, url: url, process: process))
    }

    /// Asks for the art that waited for the player's process.
    func requestAwaitedArtwork(for player: FollowedPlayer) {
        guard player.art.awaitingProcess, let url = player.art.requested, let process = player.identity.process else { return }
        player.art.awaitingProcess = false
        actions.append(.secureArtwork(player.ref, url: url, process: process))
    }

    func secured(_ artwork: SecuredArtwork, from url: String, for player: FollowedPlayer) {
        guard let folder = artworkFolder else { return }
        guard pendingArtworkBytes + artwork.bytes.count <= Self.maximumPendingArtworkBytes else {
            return log(.debug, "not keeping art from \(player.uniqueName): \(pendingArtworkBytes) bytes of art wait already")
        }
        pendingArtworkBytes += artwork.bytes.count - player.art.secured(artwork, from: url, folder: folder)
        log(.debug, "secured art \(artwork.fileName) (\(artwork.bytes.count) bytes) from \(player.uniqueName)")
    }
}
