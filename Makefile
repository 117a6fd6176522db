# MediaBroker: build, install and uninstall.
#
#   make                          release build of media-broker and broker-ctl
#   make install   [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]   (use the same PREFIX and DESTDIR as install)
#   make deb                      the Debian package, with Debian's tools, into .build/deb/
#   make interface                rewrite data/org.mediabroker.MediaBroker1.xml from the broker
#   make pot                      rewrite po/media-broker.pot from the strings marked in Sources
#   make wayland-foreign          rewrite Sources/CWaylandForeign's protocol code with wayland-scanner
#
# Build as your user, then install with sudo: `make && sudo make install`. `make install` builds
# only when the binaries are missing, so it does not rebuild as root.
#
# BUILD_DIR is where install takes the binaries from: the release build by default. Another
# directory (the debug build, as Tests/PackagingTests/InstallTests.swift uses) must already hold
# both binaries; install never builds into it.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

BINDIR := $(PREFIX)/bin
DBUS_SERVICEDIR := $(PREFIX)/share/dbus-1/services
DBUS_INTERFACEDIR := $(PREFIX)/share/dbus-1/interfaces
APPLICATIONSDIR := $(PREFIX)/share/applications
ICONDIR := $(PREFIX)/share/icons
SYSTEMD_USERUNITDIR := $(PREFIX)/lib/systemd/user
MAN1DIR := $(PREFIX)/share/man/man1
MAN8DIR := $(PREFIX)/share/man/man8
# bash-completion looks in <each of $XDG_DATA_DIRS>/bash-completion/completions, which includes
# /usr/local/share and /usr/share, and loads a command's file on its first Tab.
BASH_COMPLETIONDIR := $(PREFIX)/share/bash-completion/completions
# zsh: Debian's zsh puts /usr/share/zsh/vendor-completions (for packages) and
# /usr/local/share/zsh/site-functions (for the local administrator) on $fpath;
# /usr/local/share/zsh/vendor-completions is on no one's. Other distributions read site-functions
# under /usr too: set ZSH_COMPLETIONDIR=/usr/share/zsh/site-functions when packaging for them.
ifeq ($(PREFIX),/usr)
ZSH_COMPLETIONDIR := $(PREFIX)/share/zsh/vendor-completions
else
ZSH_COMPLETIONDIR := $(PREFIX)/share/zsh/site-functions
endif

PROGRAMS := media-broker broker-ctl media-broker-picker
# The settings window's desktop file (installed to share/applications/) and its icon (a path under
# data/icons/, installed to the same path under share/icons/). install and uninstall take
# everything from these lists, and the Debian packages from install (debian/*.install split it).
# data/*.desktop.in holds the English; make merges each po/LL.po's translation of its Name,
# GenericName, Comment and Keywords into .build/data/*.desktop (msgfmt --desktop), which is what
# the menus of GNOME and KDE show in the person's language.
DESKTOP_SOURCES := data/org.mediabroker.ListeningHistory.desktop.in
DESKTOP_FILES := $(patsubst data/%.in,.build/data/%,$(DESKTOP_SOURCES))
ICONS := hicolor/scalable/apps/org.mediabroker.ListeningHistory.svg
RELEASE_DIR := .build/release
BUILD_DIR ?= $(RELEASE_DIR)
BUILT := $(addprefix $(BUILD_DIR)/,$(PROGRAMS))
DBUS_SERVICE := org.mediabroker.MediaBroker1.service
USER_UNIT := media-broker.service
# Man pages are installed uncompressed, as upstream projects do: man-db reads them either way, and
# distribution packaging compresses them itself (Debian's dh_compress).
MAN1 := man/broker-ctl.1 man/media-broker-picker.1
MAN8 := man/media-broker.8
BASH_COMPLETION := completions/broker-ctl.bash
ZSH_COMPLETION := completions/_broker-ctl
# The interface as introspection XML, generated from the declaration the broker serves
# (`media-broker --print-interface`, `make interface`) and committed, so that packaging and the C
# example need no Swift build. Tests/PackagingTests/InterfaceFileTests.swift fails when it is stale.
INTERFACE_XML := data/org.mediabroker.MediaBroker1.xml

# The translations (docs/translating.md): one po/LL.po a language, listed in po/LINGUAS, compiled
# with msgfmt --check into LOCALE_BUILD_DIR/LL/LC_MESSAGES/media-broker.mo (a wrong placeholder
# count, a bad header or a broken plural fails the build) and installed under LOCALEDIR, where the
# programs look (Sources/Localization: share/locale beside their bin/).
LOCALEDIR := $(PREFIX)/share/locale
LINGUAS := $(shell sed 's/\#.*//' po/LINGUAS)
LOCALE_BUILD_DIR := .build/locale
CATALOGS := $(foreach l,$(LINGUAS),$(LOCALE_BUILD_DIR)/$(l)/LC_MESSAGES/media-broker.mo)
# The template: every Swift file of Sources that marks a string, read by xgettext's C parser
# (xgettext 0.21 has no Swift one; a marked literal is a one-line "…" or a multi-line """ … """
# without \( : Tests/LocalizationTests/MarkedStringsTests.swift checks). POT is where
# `make pot` writes it; TemplateTests writes one elsewhere to compare.
POT ?= po/media-broker.pot
POT_SOURCES ?= .build/pot-sources
OPEN_PAREN := (
POTFILES = $(shell grep -rlE --include='*.swift' 'localized(Plural|InContext)?[$(OPEN_PAREN)]"' Sources | LC_ALL=C sort)
XGETTEXT_FLAGS := --language=C --from-code=UTF-8 --keyword= --keyword=localized:1 \
	--keyword=localizedPlural:1,2 --keyword=localizedInContext:1c,2 --add-comments=TRANSLATORS: \
	--add-location=file --package-name=MediaBroker --msgid-bugs-address=maintainers@mediabroker.org

# The directories install puts files in. Uninstall removes each of them and then its parents while
# they are empty (`rmdir --ignore-fail-on-non-empty`: a directory holding anything stays), never
# going above $(DESTDIR): the directories install created go, shared ones stay.
INSTALL_DIRS := $(DBUS_SERVICEDIR) $(DBUS_INTERFACEDIR) $(SYSTEMD_USERUNITDIR) $(BINDIR) $(MAN1DIR) $(MAN8DIR) \
	$(BASH_COMPLETIONDIR) $(ZSH_COMPLETIONDIR) \
	$(if $(DESKTOP_FILES),$(APPLICATIONSDIR)) $(sort $(foreach i,$(ICONS),$(ICONDIR)/$(dir $(i)))) \
	$(foreach l,$(LINGUAS),$(LOCALEDIR)/$(l)/LC_MESSAGES)

.PHONY: all build catalogs install uninstall deb interface pot wayland-foreign

all: build catalogs $(DESKTOP_FILES)

# scripts/build links the Swift runtime into the executables (see there); SwiftPM decides what is
# out of date.
build:
	SWIFT='$(SWIFT)' scripts/build >/dev/null

$(BUILT):
ifeq ($(BUILD_DIR),$(RELEASE_DIR))
	$(MAKE) build
else
	@echo "make: $@ does not exist; build it first (BUILD_DIR=$(BUILD_DIR))" >&2; exit 1
endif

catalogs: $(CATALOGS)

.build/data/%.desktop: data/%.desktop.in $(wildcard po/*.po) po/LINGUAS
	@mkdir -p '$(dir $@)'
	msgfmt --desktop --template='$<' -d po -o '$@'

$(LOCALE_BUILD_DIR)/%/LC_MESSAGES/media-broker.mo: po/%.po
	@mkdir -p '$(dir $@)'
	msgfmt --check -o '$@' '$<'

# xgettext reads copies in which each of Swift's multi-line literals (""" … """) is one C literal
# of the same value (scripts/lib/swift-for-xgettext.py): C has none, and their apostrophes would
# read to it as broken character literals.
pot:
	rm -rf '$(POT_SOURCES)'
	for f in $(POTFILES); do \
		mkdir -p "$(POT_SOURCES)/$$(dirname "$$f")" && \
		python3 scripts/lib/swift-for-xgettext.py "$$f" > "$(POT_SOURCES)/$$f" || exit 1; \
	done
	xgettext $(XGETTEXT_FLAGS) --directory='$(POT_SOURCES)' -o '$(POT)' $(POTFILES)
	xgettext --language=Desktop --from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file --package-name=MediaBroker \
		--msgid-bugs-address=maintainers@mediabroker.org --join-existing -o '$(POT)' $(DESKTOP_SOURCES)
	rm -rf '$(POT_SOURCES)'

install: $(BUILT) $(CATALOGS) $(DESKTOP_FILES)
	install -d $(foreach d,$(INSTALL_DIRS),'$(DESTDIR)$(d)')
	install -m 0755 $(BUILT) '$(DESTDIR)$(BINDIR)/'
	sed 's|@bindir@|$(BINDIR)|g' dbus-policy/$(DBUS_SERVICE) > '$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)'
	chmod 0644 '$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)'
	sed 's|@bindir@|$(BINDIR)|g' dbus-policy/$(USER_UNIT) > '$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)'
	chmod 0644 '$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)'
	install -m 0644 $(MAN1) '$(DESTDIR)$(MAN1DIR)/'
	install -m 0644 $(MAN8) '$(DESTDIR)$(MAN8DIR)/'
	install -m 0644 $(BASH_COMPLETION) '$(DESTDIR)$(BASH_COMPLETIONDIR)/broker-ctl'
	install -m 0644 $(ZSH_COMPLETION) '$(DESTDIR)$(ZSH_COMPLETIONDIR)/_broker-ctl'
	install -m 0644 $(INTERFACE_XML) '$(DESTDIR)$(DBUS_INTERFACEDIR)/'
	$(if $(DESKTOP_FILES),install -m 0644 $(DESKTOP_FILES) '$(DESTDIR)$(APPLICATIONSDIR)/')
	$(foreach i,$(ICONS),install -m 0644 data/icons/$(i) '$(DESTDIR)$(ICONDIR)/$(i)';)
	$(foreach l,$(LINGUAS),install -m 0644 $(LOCALE_BUILD_DIR)/$(l)/LC_MESSAGES/media-broker.mo '$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES/';)

uninstall:
	rm -f $(foreach p,$(PROGRAMS),'$(DESTDIR)$(BINDIR)/$(p)') \
		'$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)' \
		'$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)' \
		$(foreach m,$(MAN1),'$(DESTDIR)$(MAN1DIR)/$(notdir $(m))') \
		'$(DESTDIR)$(MAN8DIR)/$(notdir $(MAN8))' \
		'$(DESTDIR)$(BASH_COMPLETIONDIR)/broker-ctl' \
		'$(DESTDIR)$(ZSH_COMPLETIONDIR)/_broker-ctl' \
		'$(DESTDIR)$(DBUS_INTERFACEDIR)/$(notdir $(INTERFACE_XML))' \
		$(foreach f,$(DESKTOP_FILES),'$(DESTDIR)$(APPLICATIONSDIR)/$(notdir $(f))') \
		$(foreach i,$(ICONS),'$(DESTDIR)$(ICONDIR)/$(i)') \
		$(foreach l,$(LINGUAS),'$(DESTDIR)$(LOCALEDIR)/$(l)/LC_MESSAGES/media-broker.mo')
	@for d in $(INSTALL_DIRS); do \
		while [ -n "$$d" ] && [ "$$d" != / ]; do \
			[ -d '$(DESTDIR)'"$$d" ] && rmdir --ignore-fail-on-non-empty '$(DESTDIR)'"$$d"; \
			d=$$(dirname "$$d"); \
		done; \
	done

# The interface file from the release build's broker: run after changing the interface (its
# declaration in BrokerObject or its docs in BrokerInterfaceDocs), and commit the result.
interface: build
	$(RELEASE_DIR)/media-broker --print-interface > '$(INTERFACE_XML).new'
	mv '$(INTERFACE_XML).new' '$(INTERFACE_XML)'

# The xdg-foreign v2 client code Sources/CWaylandForeign compiles, which wayland-scanner
# (libwayland-bin) writes from the protocol Debian's wayland-protocols installs. It is committed, so
# a build needs neither; run this after either changes, and commit the result
# (Tests/PackagingTests/WaylandProtocolCodeTests.swift says when they differ).
WAYLAND_PROTOCOLS ?= /usr/share/wayland-protocols
FOREIGN_PROTOCOL := $(WAYLAND_PROTOCOLS)/unstable/xdg-foreign/xdg-foreign-unstable-v2.xml
FOREIGN_CODE := Sources/CWaylandForeign/xdg-foreign-unstable-v2
wayland-foreign:
	wayland-scanner client-header '$(FOREIGN_PROTOCOL)' '$(FOREIGN_CODE)-client-protocol.h'
	wayland-scanner private-code '$(FOREIGN_PROTOCOL)' '$(FOREIGN_CODE)-protocol.c'

# The Debian package (debian/rules says how it finds Swift; a SWIFT given to make is passed on),
# built by dpkg-buildpackage into
# DEB_DIR rather than into the parent directory, where every worktree beside this one would write
# its own: media-broker_VERSION_ARCH.deb, its -dbgsym package, .buildinfo and .changes. What it
# stages in debian/ is cleaned away afterwards.
DEB_DIR := .build/deb
deb:
	rm -rf '$(DEB_DIR)'
	mkdir -p '$(DEB_DIR)'
	name=media-broker_$$(dpkg-parsechangelog -S Version)_$$(dpkg --print-architecture) && \
	DEB_OUTPUT_DIR='$(CURDIR)/$(DEB_DIR)' $(if $(filter-out file,$(origin SWIFT)),SWIFT='$(SWIFT)') dpkg-buildpackage -us -uc -b --post-clean \
		--buildinfo-file='$(CURDIR)/$(DEB_DIR)'/$$name.buildinfo --buildinfo-option=-u'$(CURDIR)/$(DEB_DIR)' \
		--changes-file='$(CURDIR)/$(DEB_DIR)'/$$name.changes --changes-option=-u'$(CURDIR)/$(DEB_DIR)' && \
	echo "make deb: built $(DEB_DIR)/$$name.deb"
