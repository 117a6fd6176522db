import Localization
import MediaDonationClient
import ClientMomentText
public import PickerChannel
public import SwiftGtk

/// The picker's window: who asks and why above, *Recommended* moments and *Recent* listens in one
/// pane, what is opened — its listens, each with a check box — in the other, *Share* and *Cancel*
/// in the title bar. While the window is wide both panes show and art is large; once narrow, one
/// pane shows at a time and a *Back* button returns to the list.
///
/// Opened to copy (a suggestion taken with no journal app chosen, issue 35), *Copy* stands for
/// *Share*: what is ticked goes to the clipboard as text (``CopiedText``).
@MainActor
public final class PickerWindow {
    private let request: PickerRequest
    private let content: PickerContent
    private var selection: PickSelection
    private let finish: (PickerAnswer) -> Void
    private let copy: (String) -> Void

    public let window: Window
    private let leaflet = Leaflet()
    private let detail = Box(.vertical, spacing: 6)
    private let detailTitle = Label("", wraps: true)
    private var listPaneView: Widget?
    private var detailPaneView: Widget?
    private var backButton: Button?
    /// The list's first entry, where the keyboard starts.
    private var firstEntry: Button?
    private var shareButton: Button?
    private var artwork: [Image] = []
    private var answered = false
    /// Runs when the person has read the first-use explanation.
    public var introduced: (() -> Void)?

    /// - Parameters:
    ///   - copy: puts the picked listens' text on the clipboard, when the request is to copy.
    ///   - finish: gets the person's answer, once.
    public init(application: Application, request: PickerRequest, content: PickerContent, introduce: Bool,
                copy: @escaping (String) -> Void = { _ in }, finish: @escaping (PickerAnswer) -> Void) {
        self.request = request
        self.content = content
        self.selection = PickSelection(multiple: request.multiple)
        self.copy = copy
        self.finish = finish
        window = Window(application: application, title: request.windowTitle, width: 960, height: 640)
        build(introduce: introduce)
    }

    private func build(introduce: Bool) {
        let share = Button(request.purpose == .copy ? localized("_Copy") : localized("_Share")) { [unowned self] in
            if request.purpose == .copy { copy(copiedText) }
            answer(selection.answer)
        }.styleClass("suggested-action")
        share.isSensitive = false
        shareButton = share
        let cancel = Button(localized("Cancel")) { [unowned self] in answer(.cancelled) }
        let header = HeaderBar(title: Label(request.headerTitle).styleClass("title"), showsCloseButton: false)
        header.start(cancel)
        header.end(share)

        let page = Box(.vertical)
        page.append(header)
        page.append(AskerBanner(request: request))
        if content.isEmpty {
            page.append(StatusPage(icon: "audio-x-generic-symbolic", title: localized("Nothing to Share"),
                                   description: localized("Nothing was listened to in this span, or recording was off."))
                .expand(vertically: true))
        } else {
            let list = listPane(), detailPane = detailPane()
            listPaneView = list.widget
            detailPaneView = detailPane.widget
            leaflet.append(list)
            leaflet.append(detailPane)
            leaflet.expand(horizontally: true, vertically: true)
            leaflet.onFoldChange { [unowned self] folded in fit(folded: folded) }
            page.append(leaflet)
            // A suggestion's moment is open from the start, its listens ticked (issue 35).
            if let id = request.openMoment, let offer = content.recommended.first(where: { $0.moment.id == id }) { open(offer) }
        }
        // The first-use page explains sharing with an app; copying shares with none.
        if introduce, request.purpose == .share {
            let cancelIntroduction = Button(localized("Cancel")) { [unowned self] in answer(.cancelled) }
            let introductionHeader = HeaderBar(title: Label(request.headerTitle).styleClass("title"), showsCloseButton: false)
            introductionHeader.start(cancelIntroduction)
            let introduction = Box(.vertical, spacing: 0, [introductionHeader, AskerBanner(request: request), Introduction.page(appName: request.askerName) { [unowned self] in
                introduced?()
                show(page)
            }])
            window.setContent(introduction)
        } else {
            show(page)
        }
        window.onCloseRequest { [unowned self] in
            answer(.cancelled)
            return false
        }
        window.closesOnEscape()
        window.transient(forForeign: request.parentWindow)
    }

    /// Shows the page of moments and listens, the keyboard on the first of them.
    private func show(_ page: Box) {
        window.setContent(page)
        firstEntry?.grabFocus()
    }

    // MARK: Panes

    private func listPane() -> some View {
        let list = Box(.vertical, spacing: 6).margin(12)
        if !content.recommended.isEmpty {
            list.append(Label(localized("Recommended")).styleClass("heading"))
            for offer in content.recommended {
                list.append(row(title: MomentText.title(of: offer.moment), subtitle: MomentText.summary(of: offer.moment),
                                art: Self.art(of: offer.assets.first, icon: offer.moment.appIcon)) { [unowned self] in open(offer) })
            }
        }
        if !content.recent.isEmpty {
            list.append(Label(localized("Recent")).styleClass("heading").margin(6))
            for listen in content.recent {
                list.append(row(title: listen.title ?? untitled, subtitle: listen.summary ?? listen.appName ?? "",
                                art: Self.art(of: listen, icon: nil)) { [unowned self] in open(listen) })
            }
        }
        return ScrolledWindow(list).minimumSize(width: 320)
    }

    private func detailPane() -> some View {
        let back = Button(icon: "go-previous-symbolic", label: localized("Back to the list")) { [unowned self] in
            if let listPaneView { leaflet.show(listPaneView) }
        }
        back.isVisible = false
        backButton = back
        let pane = Box(.vertical, spacing: 6).margin(12).expand(horizontally: true)
        pane.append(Box(.horizontal, spacing: 6, [back, detailTitle.styleClass("title-2").expand(horizontally: true)]))
        pane.append(ScrolledWindow(detail))
        detailTitle.text = localized("Choose a moment or a listen")
        return pane
    }

    /// One entry of the list: a button showing art, a title and a line, named for screen readers
    /// by its title and line.
    private func row(title: String, subtitle: String, art: (file: String?, icon: String), action: @escaping @MainActor () -> Void) -> Button {
        let image = Self.image(of: art, size: 48)
        let text = Box(.vertical, spacing: 2, [Label(title).styleClass("heading"), Label(subtitle).styleClass("dim-label")])
        let content = Box(.horizontal, spacing: 12, [image, text])
        let entry = Button(child: content, action: action).styleClass("flat").accessibleLabel(subtitle.isEmpty ? title : localized("{title}, {line}", ["title": title, "line": subtitle]))
        if firstEntry == nil { firstEntry = entry }
        return entry
    }

    private static func art(of asset: GenericMedia?, icon: String?) -> (file: String?, icon: String) {
        (asset?.artwork ?? asset?.appIcon ?? icon, "audio-x-generic")
    }

    private static func image(of art: (file: String?, icon: String), size: Int32) -> Image {
        Image.picture(art.file, size: size, placeholder: art.icon)
    }

    // MARK: Opening and ticking

    private func open(_ offer: PickerContent.Offer) {
        selection.open(offer)
        showOffered(title: MomentText.title(of: offer.moment))
    }

    private func open(_ listen: GenericMedia) {
        selection.open(listen)
        showOffered(title: listen.title ?? untitled)
    }

    private func showOffered(title: String) {
        detailTitle.text = title
        detail.removeAll()
        artwork.removeAll()
        var first: CheckButton?
        for asset in selection.offered {
            let label = asset.summary ?? asset.title ?? untitled
            let check = CheckButton(label, isActive: selection.isTicked(asset.id)) { [unowned self] ticked in
                selection.set(asset.id, ticked: ticked)
                shareButton?.isSensitive = selection.canShare
            }.expand(horizontally: true)
            if let first {
                if !request.multiple { check.group(with: first) }
            } else {
                first = check
            }
            let image = Self.image(of: Self.art(of: asset, icon: nil), size: artSize)
            artwork.append(image)
            detail.append(Box(.horizontal, spacing: 12, [image, check]))
        }
        shareButton?.isSensitive = selection.canShare
        if let detailPaneView { leaflet.show(detailPaneView) }
        backButton?.isVisible = leaflet.isFolded
        // The keyboard goes where the person looks next: the first listen's check box.
        first?.grabFocus()
    }

    // TRANSLATORS: what a listen whose player told no title is called.
    private var untitled: String { localized("Untitled") }

    private var artSize: Int32 { leaflet.isFolded ? 48 : 96 }

    private func fit(folded: Bool) {
        for image in artwork { image.size = artSize }
        backButton?.isVisible = folded && selection.opened != nil
    }

    /// The ticked listens as text, under their moment's title when a moment is open.
    private var copiedText: String {
        let listens = selection.offered.filter { selection.isTicked($0.id) }
        guard case .moment(let id) = selection.opened else { return CopiedText.of(listens, moment: nil) }
        return CopiedText.of(listens, moment: content.recommended.first { $0.moment.id == id }?.moment)
    }

    private func answer(_ answer: PickerAnswer) {
        guard !answered else { return }
        answered = true
        finish(answer)
        window.destroy()
    }
}
