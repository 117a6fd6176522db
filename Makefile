# MediaBroker: build, install and uninstall.
#
#   make                          release build of media-broker and broker-ctl
#   make install   [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]   (use the same PREFIX and DESTDIR as install)
#
# Build as your user, then install with sudo: `make && sudo make install`. `make install` builds
# only when the binaries are missing, so it does not rebuild as root.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

BINDIR := $(PREFIX)/bin
DBUS_SERVICEDIR := $(PREFIX)/share/dbus-1/services
SYSTEMD_USERUNITDIR := $(PREFIX)/lib/systemd/user
# Later work: man pages ($(PREFIX)/share/man/man1) and shell completions
# ($(PREFIX)/share/bash-completion/completions, …) get their variables here.

PROGRAMS := media-broker broker-ctl
BUILT := $(addprefix .build/release/,$(PROGRAMS))
DBUS_SERVICE := org.mediabroker.MediaBroker1.service
USER_UNIT := media-broker.service

# The directories install puts files in. Uninstall removes each of them and then its parents while
# they are empty (`rmdir --ignore-fail-on-non-empty`: a directory holding anything stays), never
# going above $(DESTDIR): the directories install created go, shared ones stay.
INSTALL_DIRS := $(DBUS_SERVICEDIR) $(SYSTEMD_USERUNITDIR) $(BINDIR)
# Later work: man page and completion directories join this list.

.PHONY: all build install uninstall

all: build

# SwiftPM decides what is out of date. `swift build` takes one --product, so one run each.
build:
	$(SWIFT) build -c release --product media-broker
	$(SWIFT) build -c release --product broker-ctl

$(BUILT):
	$(MAKE) build

install: $(BUILT)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(DBUS_SERVICEDIR)' '$(DESTDIR)$(SYSTEMD_USERUNITDIR)'
	install -m 0755 $(BUILT) '$(DESTDIR)$(BINDIR)/'
	sed 's|@bindir@|$(BINDIR)|g' dbus-policy/$(DBUS_SERVICE) > '$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)'
	chmod 0644 '$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)'
	sed 's|@bindir@|$(BINDIR)|g' dbus-policy/$(USER_UNIT) > '$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)'
	chmod 0644 '$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)'
# Later work: install man pages and shell completions here.

uninstall:
	rm -f $(foreach p,$(PROGRAMS),'$(DESTDIR)$(BINDIR)/$(p)') \
		'$(DESTDIR)$(DBUS_SERVICEDIR)/$(DBUS_SERVICE)' \
		'$(DESTDIR)$(SYSTEMD_USERUNITDIR)/$(USER_UNIT)'
# Later work: remove man pages and shell completions here.
	@for d in $(INSTALL_DIRS); do \
		while [ -n "$$d" ] && [ "$$d" != / ]; do \
			[ -d '$(DESTDIR)'"$$d" ] && rmdir --ignore-fail-on-non-empty '$(DESTDIR)'"$$d"; \
			d=$$(dirname "$$d"); \
		done; \
	done
