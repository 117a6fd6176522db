import AssetContract
import Testing

@testable import broker_ctl

/// broker-ctl words the app id rule itself, to translate it; in English it is the contract's.
@Suite struct AppIDRuleTests {
    @Test("broker-ctl's rule for app ids is the contract's, word for word, in the C locale")
    func sameAsTheContract() {
        #expect(AppIDRule.text == AssetContract.appIDRule)
    }
}
