# shellcheck shell=bash
# What /proc tells about a running process, for bench/run and scripts/reliability.

# status_kb PID FIELD: a field of /proc/PID/status in kB (VmRSS, VmHWM, RssAnon…).
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# switches PID: context switches (voluntary + involuntary) of every thread: each is a wake-up.
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^(non)?voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'; }
# cpu_ns PID: CPU time of every thread, from the scheduler's own accounting.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }
# settle PID [SECONDS]: waits until PID has used no CPU for half a second (at most SECONDS, 40).
settle() {
    local last now
    last=$(cpu_ns "$1")
    for _ in $(seq $(( ${2:-40} * 2 ))); do
        sleep 0.5
        now=$(cpu_ns "$1")
        [[ $now == "$last" ]] && return 0
        last=$now
    done
}
