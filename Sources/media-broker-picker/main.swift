import FoundationEssentials
import MediaPicker
#if canImport(Glibc)
import Glibc
#endif

exit(MainActor.assumeIsolated {
    PickerProgram.main(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
})
