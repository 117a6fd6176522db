@testable import Localization
import Testing

/// Named placeholders are filled after the lookup, in any order a translation puts them.
@Suite struct PlaceholdersTests {
    @Test("each {name} becomes its value, wherever the translation puts it")
    func reordered() {
        #expect(Placeholders.filled("{app} asks {person}", ["person": "Ada", "app": "Diary"]) == "Diary asks Ada")
        #expect(Placeholders.filled("{person}, {app} asks", ["person": "Ada", "app": "Diary"]) == "Ada, Diary asks")
        #expect(Placeholders.filled("{app} and {app}", ["app": "Diary"]) == "Diary and Diary")
    }

    @Test("a value holding braces is not filled again, and unknown braces stay as written")
    func oneFilling() {
        #expect(Placeholders.filled("Play {title}", ["title": "{title} {x}"]) == "Play {title} {x}")
        #expect(Placeholders.filled("{unknown} {", ["title": "T"]) == "{unknown} {")
        #expect(Placeholders.filled("{", ["a": "b"]) == "{")
    }

    @Test("the names a text holds are what a translation must keep")
    func names() {
        #expect(Placeholders.names(in: "{count} tracks by {artist}") == ["artist", "count"])
        #expect(Placeholders.names(in: "no { name } here {}") == [])
    }
}
