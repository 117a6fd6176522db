// A web server on loopback for browser tests.

import Foundation

/// Serves one directory on `127.0.0.1` at a port of its own, with or without range requests.
///
/// With ranges, Chromium learns an Ogg file's length at once; without them it never does, and its
/// MPRIS name appears only ~2.7 s into the audio with a growing `mpris:length` and a `Seeked`
/// every ~23 ms (mpris-quirks.md, web browsers) — both are cases the tests want.
public final class HTTPRangeServer: Sendable {
    public let process: ChildProcess
    public let port: Int

    /// The address of `page` on this server.
    public func url(_ page: String) -> String { "http://127.0.0.1:\(port)/\(page)" }

    public init(serving directory: String, rangeRequests: Bool = true, timeout: Duration = .seconds(15)) throws {
        process = try ChildProcess.launch(
            "/usr/bin/python3", arguments: ["-c", Self.program, directory, rangeRequests ? "ranges" : "whole"])
        let process = process
        var port: Int?
        try waitUntil("the web server tells its port", timeout: timeout) {
            guard process.isRunning else { throw TestSupportError("the web server ended early\n\(process.transcript)") }
            port = process.standardOutput.split(separator: "\n").first.flatMap { Int($0.dropFirst("port ".count)) }
            return port != nil
        }
        self.port = port!
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.waitForExit(timeout: .seconds(5))
    }

    /// Python's own server, which answers every request whole, taught single byte ranges
    /// (`bytes=A-B`, `bytes=A-`, `bytes=-N`), as browsers ask for media.
    static let program = #"""
    import http.server, os, re, sys

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_head(self):
            path = self.translate_path(self.path)
            if sys.argv[2] != "ranges" or not os.path.isfile(path):
                return super().send_head()
            size = os.path.getsize(path)
            match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
            start, end = 0, size - 1
            if match and (match.group(1) or match.group(2)):
                if match.group(1):
                    start = int(match.group(1))
                    end = min(int(match.group(2)), size - 1) if match.group(2) else size - 1
                else:
                    start = max(size - int(match.group(2)), 0)
                if start > end:
                    self.send_error(416)
                    return None
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            else:
                self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(end - start + 1))
            self.end_headers()
            source = open(path, "rb")
            source.seek(start)
            self.remaining = end - start + 1
            return source

        def copyfile(self, source, destination):
            remaining = getattr(self, "remaining", None)
            while remaining is None or remaining > 0:
                chunk = source.read(65536 if remaining is None else min(65536, remaining))
                if not chunk:
                    break
                destination.write(chunk)
                if remaining is not None:
                    remaining -= len(chunk)

    os.chdir(sys.argv[1])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("port", server.server_address[1], flush=True)
    server.serve_forever()
    """#
}
