# shellcheck shell=bash disable=SC2034  # the package lists are used by the scripts that source this file
# The one list of Debian packages MediaBroker needs, and the helpers that install what is missing.
# Sourced by scripts/test and scripts/run; not meant to be run on its own.

# Headers and tools the build needs (CDBus and CSQLite use pkg-config / system headers), and the
# static libstdc++ that scripts/build links into the release executables.
MB_BUILD_PACKAGES=(libdbus-1-dev libsqlite3-dev pkg-config libstdc++-12-dev)
# What running the broker needs: a bus daemon and the clients scripts/run uses to check it.
MB_RUNTIME_PACKAGES=(dbus-daemon dbus-bin libglib2.0-bin)
# What the tests drive: real MPRIS players (mpv with mpv-mpris; VLC, whose MPRIS control is in
# vlc-plugin-base), audio fixtures, probes and D-Bus clients. VLC refuses to run as root: as root
# the VLC test runs it as `nobody` with runuser (util-linux, always installed), so no user is made.
MB_TEST_PACKAGES=(mpv mpv-mpris vlc-bin vlc-plugin-base sox libsox-fmt-all ffmpeg playerctl python3-dbus procps
    # Packaging tests: man page lint (groff), completion scripts (zsh -n, shellcheck), make install.
    groff-base zsh shellcheck make
    # Tests that read the database file itself (sqlite3) and compare icon lookups (python3-xdg).
    sqlite3 python3-xdg
    # Real browsers playing real pages (issue 17): Chromium (headless) and Firefox ESR (on Xvfb),
    # PulseAudio with a null sink so that media really plays; the web server is python3's.
    chromium firefox-esr pulseaudio xvfb
    # Sandboxed readers (issue 20): clients run as Flatpak runs apps, in bubblewrap behind a real
    # xdg-dbus-proxy; the test notification server and subscriber are python3-dbus on GLib.
    bubblewrap xdg-dbus-proxy python3-gi)
# What bench/run needs beyond building and running: a C compiler for its programs, the sqlite3 shell
# that fills the stores, playerctl (playerctld, playerctl) and busctl as baselines, python3 for the
# report, valgrind for profiling a miss.
MB_BENCH_PACKAGES=(gcc libc6-dev sqlite3 playerctl systemd python3 valgrind)

mb_log() { printf '%s: %s\n' "${MB_SCRIPT_NAME:-media-broker}" "$*" >&2; }
mb_die() { mb_log "error: $*"; exit 1; }

# Runs a command as root: directly when we are root, through sudo otherwise.
mb_as_root() {
    if [[ $EUID -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        mb_die "need root to run '$*' and sudo is not installed; run this script as root"
    fi
}

# Installs every named package that dpkg does not report as installed.
# `apt-get update` runs only when something is missing.
mb_ensure_packages() {
    command -v dpkg-query >/dev/null 2>&1 ||
        mb_die "dpkg-query not found: these scripts install packages on Debian/Ubuntu only. Install by hand: $*"
    local missing=() package status
    for package in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
        [[ $status == "install ok installed" ]] || missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return 0
    mb_log "installing missing packages: ${missing[*]}"
    mb_as_root apt-get update
    mb_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# Puts a Swift toolchain on PATH, or explains how to get one.
mb_ensure_swift() {
    command -v swift >/dev/null 2>&1 && return 0
    if [[ -x /opt/swift/usr/bin/swift ]]; then
        PATH="/opt/swift/usr/bin:$PATH"
        export PATH
        return 0
    fi
    mb_die "no Swift toolchain found (looked on PATH and in /opt/swift/usr/bin).
Install Swift 6 for Debian 12 from https://www.swift.org/install/linux/ : download the
debian12 tarball, unpack it so that /opt/swift/usr/bin/swift exists (or put its usr/bin on PATH),
then run this script again."
}

# When a desktop user runs a script through sudo (we are root and SUDO_USER is set), re-runs the
# given command as that user once the root-only work (apt) is done: the build tree, the broker's
# data and its session bus then belong to the user, not to root. sudo clears the user's
# DBUS_SESSION_BUS_ADDRESS, so the user's systemd session bus at /run/user/UID/bus is passed on when
# it exists. MB_AS_SUDO_USER=1 marks the re-run so it does not loop. Does nothing otherwise.
mb_reexec_as_sudo_user() {
    [[ $EUID -eq 0 && -n ${SUDO_USER:-} && $SUDO_USER != root && -z ${MB_AS_SUDO_USER:-} ]] || return 0
    local uid home runtime
    uid=$(id -u "$SUDO_USER") || mb_die "SUDO_USER=$SUDO_USER is not a known user"
    home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
    runtime=/run/user/$uid
    local vars=(MB_AS_SUDO_USER=1 "HOME=$home" "USER=$SUDO_USER" "LOGNAME=$SUDO_USER" "PATH=$PATH")
    [[ -d $runtime ]] && vars+=("XDG_RUNTIME_DIR=$runtime")
    if [[ -n ${DBUS_SESSION_BUS_ADDRESS:-} ]]; then
        vars+=("DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS")
    elif [[ -S $runtime/bus ]]; then
        vars+=("DBUS_SESSION_BUS_ADDRESS=unix:path=$runtime/bus")
    fi
    mb_log "packages are in place; continuing as $SUDO_USER"
    exec runuser -u "$SUDO_USER" -- env "${vars[@]}" "$@"
}

# Fails with a fix when the build directory exists but this user cannot write it
# (typically left behind by an earlier build as root).
mb_check_build_dir() {
    local build=$1/.build
    [[ ! -e $build || -w $build ]] ||
        mb_die "$build is not writable by $(id -un) (built earlier as root?). Fix: sudo chown -R $(id -un) '$build'"
}
