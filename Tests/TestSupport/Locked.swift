// Tests share state between threads behind the broker's own lock (`Locking.Locked`): a pthread
// mutex ThreadSanitizer sees, as the suite also runs under `swift test --sanitize=thread`.
@_exported import Locking
