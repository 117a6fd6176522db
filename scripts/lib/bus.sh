# shellcheck shell=bash
# Starting and stopping a private D-Bus session bus. Sourced by scripts/test and scripts/run.
# Requires mb_die from deps.sh.

MB_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Starts a session-like dbus-daemon listening in DIR (created if needed), configured from
# private-bus.conf.in: allow-everything policy, no standard service directories (so nothing
# installed on this machine can be bus-activated by accident), DIR/services as its only one.
# Reads the address and pid from the daemon's --print-address/--print-pid pipe (no sleeping), then
# exports DBUS_SESSION_BUS_ADDRESS and sets MB_BUS_PID.
mb_start_private_bus() {
    local dir=$1 fd address pid
    mkdir -p "$dir/services"
    local conf
    conf=$(<"$MB_LIB_DIR/private-bus.conf.in")
    # Quoted replacements: bash 5.2 would otherwise treat & in a path specially.
    conf=${conf//@LISTEN_DIR@/"$dir"}
    conf=${conf//@SERVICE_DIR@/"$dir/services"}
    printf '%s\n' "$conf" >"$dir/bus.conf"
    # The daemon prints its address, then its pid, one per line, on the pipe we read from.
    exec {fd}< <(exec dbus-daemon --config-file="$dir/bus.conf" --nofork \
        --print-address=1 --print-pid=1 2>>"$dir/dbus-daemon.log" </dev/null)
    if ! read -r -t 30 -u "$fd" address || ! read -r -t 30 -u "$fd" pid; then
        exec {fd}<&-
        mb_die "dbus-daemon did not start; its log: $(cat "$dir/dbus-daemon.log" 2>/dev/null)"
    fi
    exec {fd}<&-
    MB_BUS_PID=$pid
    DBUS_SESSION_BUS_ADDRESS=$address
    export DBUS_SESSION_BUS_ADDRESS
}

# Stops the bus started by mb_start_private_bus, if any.
mb_stop_private_bus() {
    if [[ -n ${MB_BUS_PID:-} ]]; then
        kill "$MB_BUS_PID" 2>/dev/null || true
        MB_BUS_PID=
    fi
}

# True when DBUS_SESSION_BUS_ADDRESS names a bus that answers a Peer.Ping.
mb_session_bus_reachable() {
    [[ -n ${DBUS_SESSION_BUS_ADDRESS:-} ]] &&
        dbus-send --session --dest=org.freedesktop.DBus --print-reply=literal --reply-timeout=5000 \
            / org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1
}
