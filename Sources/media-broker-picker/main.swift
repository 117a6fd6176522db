import FoundationEssentials
import Localization
import MediaPicker
#if canImport(Glibc)
import Glibc
#endif

// The locale and the catalogs before the first word: GTK takes the same locale in its own start-up.
Localization.setUp()
exit(MainActor.assumeIsolated {
    PickerProgram.main(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
})
