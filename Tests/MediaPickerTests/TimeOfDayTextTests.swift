import Testing
@testable import MediaPicker

/// The settings window's suggestion time field (issue 35) saves only a time the broker takes.
@Suite struct TimeOfDayTextTests {
    @Test(arguments: ["21:00", "7:30", "07:30", "00:00", "23:59"])
    func timesAreTaken(_ text: String) {
        #expect(TimeOfDayText.isValid(text))
    }

    @Test(arguments: ["", "7", "7:3", "24:00", "12:60", "12:00:00", "ab:cd", "１２:００", " 7:30", "-1:30"])
    func otherTextIsNot(_ text: String) {
        #expect(!TimeOfDayText.isValid(text))
    }
}
