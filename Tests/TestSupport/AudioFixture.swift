// Short tagged audio files for player tests, made on the spot.

import Foundation

/// Generates audio files for tests.
public enum AudioFixture {
    /// Writes a sine wave of `seconds` to `path` with title, artist and album tags, using sox.
    /// The format follows the extension: use `.ogg` (Ogg Vorbis, the default choice) or `.flac`;
    /// both carry Vorbis comments, which mpv reads and mpv-mpris reports as `xesam:title`,
    /// `xesam:artist` and `xesam:album` (checked by hand with mpv 0.35 / mpv-mpris 0.9).
    public static func makeTaggedTrack(
        at path: String, title: String, artist: String, album: String, seconds: Double
    ) throws {
        let result = try ChildProcess.run(
            "sox",
            arguments: [
                "--no-show-progress", "--null", "--rate", "44100", "--channels", "2",
                "--add-comment", "TITLE=\(title)", "--add-comment", "ARTIST=\(artist)",
                "--add-comment", "ALBUM=\(album)",
                path, "synth", String(seconds), "sine", "440", "vol", "0.1",
            ],
            timeout: .seconds(30))
        guard result.status.isSuccess else {
            throw TestSupportError("sox could not write \(path) (\(result.status)): \(result.standardError)")
        }
    }

    /// The tags ffprobe reads from `path`, stream and container tags together, keys lowercased
    /// (Ogg keeps them on the stream as TITLE/ARTIST/ALBUM, FLAC on the container).
    public static func tags(of path: String) throws -> [String: String] {
        let result = try ChildProcess.run(
            "ffprobe",
            arguments: ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", path],
            timeout: .seconds(30))
        guard result.status.isSuccess else {
            throw TestSupportError("ffprobe could not read \(path) (\(result.status)): \(result.standardError)")
        }
        struct Probe: Decodable {
            struct Tagged: Decodable { var tags: [String: String]? }
            var streams: [Tagged]?
            var format: Tagged?
        }
        let probe = try JSONDecoder().decode(Probe.self, from: Data(result.standardOutput.utf8))
        var tags: [String: String] = [:]
        for tagged in (probe.streams ?? []) + [probe.format].compactMap({ $0 }) {
            for (key, value) in tagged.tags ?? [:] { tags[key.lowercased()] = value }
        }
        return tags
    }
}
