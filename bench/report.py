"""Turns bench/run's raw measurements (one JSON object per line) into the table and latest.json.

Each raw line: {"item", "metric", "who", "values": [...], "unit"}; a "check" line records a
verdict the script established (no signal lost). Targets compare the broker's median with the
baseline's median measured in the same run. Floors (FLOORS) are context, never a verdict: what a C
libdbus program costs for the same call in the same run, to show where a target lies below what
libdbus and dbus-daemon can do."""
import json
import statistics
import sys

raw_path, out_path, meta_path = sys.argv[1:4]
rows = [json.loads(line) for line in open(raw_path) if line.strip()]
meta = json.load(open(meta_path))


def series(item, metric, who):
    for r in rows:
        if r.get("item") == item and r.get("metric") == metric and r.get("who") == who:
            return r
    return None


def summary(r):
    v = r["values"]
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v), "unit": r["unit"]}


def fmt(x):
    if x is None:
        return "—"
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


# (item, metric, broker label, baseline who, baseline label, target text, verdict(broker, base))
TARGETS = [
    ("ingest", "cpu_us_per_signal", "receiver", "C receiver", "≤ 1.11× baseline", lambda b, r: b <= 1.11 * r),
    ("ingest", "signals_per_s", "receiver", "C receiver", "≥ 0.9× baseline", lambda b, r: b >= 0.9 * r),
    ("track_change", "cpu_us_per_change", "playerctld", "playerctld", "≤ 50 µs", lambda b, r: b <= 50),
    ("track_change_no_art", "cpu_us_per_change", None, None, "—", None),
    ("storm", "cpu_us_per_signal", "receiver", "C receiver (same signals)", "≤ 1.5× baseline", lambda b, r: b <= 1.5 * r),
    ("storm_300k", "peak_rss_kb", None, None, "≤ 32768 kB", lambda b, r: b <= 32768),
    ("storm_300k", "anon_after_kb", None, None, "≤ 4096 kB", lambda b, r: b <= 4096),
    ("storm_1m", "peak_rss_kb", None, None, "≤ 32768 kB", lambda b, r: b <= 32768),
    ("storm_1m", "anon_after_kb", None, None, "≤ 4096 kB", lambda b, r: b <= 4096),
    ("storm_1m_20_players", "peak_rss_kb", None, None, "≤ 32768 kB", lambda b, r: b <= 32768),
    ("storm_1m_20_players", "anon_after_kb", None, None, "≤ 4096 kB", lambda b, r: b <= 4096),
    ("storm_1m_20_players", "signals", None, None, "—", None),
    ("query_1m", "p50_us", "ping", "Ping p50", "≤ 2× Ping", lambda b, r: b <= 2 * r),
    ("query_1m", "p99_us", "ping", "Ping p99", "—", None),
    ("query_1m", "assets_per_reply", None, None, "—", None),
    ("query_100k", "p50_us", "ping", "Ping p50", "—", None),
    ("query_10k", "p50_us", "ping", "Ping p50", "—", None),
    ("moments_day_1m", "p50_us", None, None, "≤ 5000 µs", lambda b, r: b <= 5000),
    ("moments_day_1m", "p50_us", "broker-10k-dense", "the same on 10k as dense", "≤ 1.5× (log 1M / log 10k)", lambda b, r: b <= 1.5 * r),
    ("moments_day_1m", "p99_us", None, None, "—", None),
    ("moments_day_1m", "moments_per_reply", None, None, "—", None),
    ("moments_year_1m", "p50_us", None, None, "≤ 20000 µs", lambda b, r: b <= 20000),
    ("moments_year_1m", "p50_us", "broker-10k-dense", "the same on 10k as dense", "≤ 1.5× (log 1M / log 10k)", lambda b, r: b <= 1.5 * r),
    ("moments_year_1m", "p99_us", None, None, "—", None),
    ("moments_year_1m", "moments_per_reply", None, None, "—", None),
    ("moments_day_100k", "p50_us", "ping", "Ping p50", "—", None),
    ("moments_day_10k", "p50_us", "ping", "Ping p50", "—", None),
    ("moments_year_10k", "p50_us", "ping", "Ping p50", "—", None),
    ("moments_day_10k-dense", "p50_us", "ping", "Ping p50", "—", None),
    ("moments_day_10k-dense", "moments_per_reply", None, None, "—", None),
    ("memory_idle", "rss_kb", "playerctld", "playerctld", "—", None),
    ("memory_idle", "anon_kb", "playerctld", "playerctld", "≤ 2048 kB", lambda b, r: b <= 2048),
    ("memory_10k_listens", "anon_kb", None, None, "—", None),
    ("memory_1m", "anon_kb", None, None, "—", None),
    ("memory_1m_100_players", "rss_kb", "playerctld", "playerctld (100 players)", "—", None),
    ("memory_1m_100_players", "anon_kb", "playerctld", "playerctld (100 players)", "≤ 4096 kB", lambda b, r: b <= 4096),
    ("idle_no_player", "wakeups", "playerctld", "playerctld", "0", lambda b, r: b == 0),
    ("idle_no_player", "cpu_ms", "playerctld", "playerctld", "—", None),
    ("idle_one_playing", "wakeups", "playerctld", "playerctld", "—", None),
    ("idle_one_playing", "cpu_ms", "playerctld", "playerctld", "—", None),
    ("startup_10k", "exec_to_name_ms", "playerctld", "playerctld", "≤ playerctld", lambda b, r: b <= r),
    ("startup_10k", "exec_to_recent_ms", None, None, "—", None),
    ("startup_empty", "exec_to_name_ms", "playerctld", "playerctld", "—", None),
    ("startup_1m", "exec_to_name_ms", "playerctld", "playerctld", "—", None),
    ("cli", "wall_ms", "dbus-send", "dbus-send (Ping)", "≤ 1.5× dbus-send", lambda b, r: b <= 1.5 * r),
    ("picker", "mapped_ms", "gtk-floor", "the least GTK 4 window", "≤ 250 ms", lambda b, r: b <= 250),
    ("picker", "rss_kb", "gtk-floor", "the least GTK 4 window", "—", None),
    ("picker_broker_idle", "rss_kb", "before", "before picking", "≤ 1.05× before", lambda b, r: b <= 1.05 * r),
    ("cli", "wall_ms", "busctl", "busctl (same call)", "—", None),
    ("cli", "wall_ms", "gdbus", "gdbus call (same call)", "—", None),
    ("cli", "wall_ms", "playerctl", "playerctl metadata", "—", None),
]

# Context rows: (item, metric, who, label, baseline who, baseline label). Target "—", no verdict.
FLOORS = [
    ("query_1m", "p50_us", "broker", "query_1m p50_us vs floor", "page-copy", "C page service (copy)"),
    ("query_1m", "p50_us", "broker", "query_1m p50_us vs floor", "page-build", "C page service (build)"),
    ("query_1m", "p99_us", "broker", "query_1m p99_us vs floor", "page-copy", "C page service (copy)"),
    ("query_1m", "p50_us", "page-copy", "floor: page (copy) p50_us", "page-copy-ping", "Ping p50 (to page)"),
    ("query_1m", "p50_us", "page-build", "floor: page (build) p50_us", "page-build-ping", "Ping p50 (to page)"),
    ("query_1m", "reply_bytes", "broker", "query_1m reply_bytes (mean)", "page-copy", "C page service"),
    ("query_1m", "demarshal_us", "page", "floor: demarshal one reply µs", None, None),
    ("query_1m", "build_us", "page", "floor: build one reply µs", None, None),
    ("ingest", "commit_cpu_us", "durable-full", "floor: a change committed alone in C (FULL) cpu µs", None, None),
    ("ingest", "commit_cpu_us", "durable-normal", "floor: the same, synchronous=NORMAL, cpu µs", None, None),
    ("track_change", "cpu_us_per_change", "broker", "track_change cpu_us_per_change vs floor", "c-follower",
     "C follower (same changes)"),
    ("track_change", "cpu_us_per_change", "c-follower",
     "floor: the same changes followed by a C program (libdbus + SQLite, same schema, 25 ms commit window) cpu µs",
     None, None),
    ("cli", "wall_ms", "broker", "cli wall_ms vs floor", "c-client", "C client (same call)"),
    ("cli", "wall_ms", "c-client", "floor: C client wall_ms", "dbus-send", "dbus-send (Ping)"),
]

table, results = [], []
for item, metric, base_who, base_label, target, verdict in TARGETS:
    b = series(item, metric, "broker")
    if b is None:
        continue
    bs = summary(b)
    base = series(item, metric, base_who) if base_who else None
    rs = summary(base) if base else None
    ratio = bs["median"] / rs["median"] if rs and rs["median"] else None
    status = "" if verdict is None else ("PASS" if verdict(bs["median"], rs["median"] if rs else None) else "MISS")
    entry = {"item": item, "metric": metric, "unit": b["unit"], "who": "broker", "broker": bs, "baseline": base_label,
             "baseline_values": rs, "ratio": ratio, "target": target, "verdict": status or None}
    results.append(entry)
    table.append([f"{item} {metric}", f"{fmt(bs['median'])} ({fmt(bs['min'])}–{fmt(bs['max'])})",
                  base_label or "—", f"{fmt(rs['median'])} ({fmt(rs['min'])}–{fmt(rs['max'])})" if rs else "—",
                  f"{ratio:.2f}×" if ratio else "—", target, status or "—"])

for item, metric, who, label, base_who, base_label in FLOORS:
    v = series(item, metric, who)
    base = series(item, metric, base_who) if base_who else None
    if v is None or (base_who and base is None):
        continue
    vs = summary(v)
    rs = summary(base) if base else None
    ratio = vs["median"] / rs["median"] if rs and rs["median"] else None
    results.append({"item": item, "metric": metric, "unit": v["unit"], "kind": "floor", "label": label, "who": who,
                    "value": vs, "baseline": base_label, "baseline_who": base_who, "baseline_values": rs,
                    "ratio": ratio, "target": "—", "verdict": None})
    table.append([label, f"{fmt(vs['median'])} ({fmt(vs['min'])}–{fmt(vs['max'])})", base_label or "—",
                  f"{fmt(rs['median'])} ({fmt(rs['min'])}–{fmt(rs['max'])})" if rs else "—",
                  f"{ratio:.2f}×" if ratio else "—", "—", "—"])

checks = [r for r in rows if r.get("item") == "check"]
for c in checks:
    table.append([c["metric"], c["detail"], "", "", "", "no loss", "PASS" if c["ok"] else "MISS"])
    results.append({"item": "check", "metric": c["metric"], "detail": c["detail"], "verdict": "PASS" if c["ok"] else "MISS"})

head = ["measure (broker, median (min–max))", "broker", "baseline", "baseline", "ratio", "target", ""]
widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
lines = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(head, widths)) + " |",
         "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
lines += ["| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |" for r in table]
print("\n".join(lines))
extra = {r["item"] + "." + r["metric"]: r for r in rows if r.get("item") == "info"}
json.dump({"meta": meta, "results": results, "raw": rows}, open(out_path, "w"), indent=1)
