import Testing
@testable import DataQuality

@Suite("DeviceInfo from the POSIX environment")
struct DeviceInfoPOSIXTests {
    @Test func lcAllWinsOverLCMessagesAndLang() {
        #expect(POSIXLocale.identifier(environment: ["LC_ALL": "fr_FR", "LC_MESSAGES": "it_IT", "LANG": "de_DE"]) == "fr_FR")
        #expect(POSIXLocale.identifier(environment: ["LC_MESSAGES": "it_IT", "LANG": "de_DE"]) == "it_IT")
        #expect(POSIXLocale.identifier(environment: ["LANG": "de_DE"]) == "de_DE")
    }

    @Test func anEmptyVariableIsSkipped() {
        #expect(POSIXLocale.identifier(environment: ["LC_ALL": "", "LANG": "pt_BR"]) == "pt_BR")
    }

    @Test("the codeset and the modifier are stripped", arguments: [
        ("en_US.UTF-8", "en_US"), ("de_DE@euro", "de_DE"), ("de_DE.ISO-8859-15@euro", "de_DE"),
        ("sr_RS@latin", "sr_RS"), ("fr", "fr"),
    ])
    func codesetAndModifierAreStripped(value: String, identifier: String) {
        #expect(POSIXLocale.identifier(environment: ["LANG": value]) == identifier)
    }

    @Test("C, POSIX, empty or missing is the fallback", arguments: [
        ["LANG": "C"], ["LANG": "C.UTF-8"], ["LC_ALL": "POSIX"], ["LANG": ""], [:],
    ])
    func noLocaleIsTheFallback(environment: [String: String]) {
        #expect(POSIXLocale.identifier(environment: environment) == "en_US_POSIX")
    }

    @Test func theLanguageIsThePartBeforeTheTerritory() {
        #expect(POSIXLocale.language(of: "de_DE") == "de")
        #expect(POSIXLocale.language(of: "EN_GB") == "en")
        #expect(POSIXLocale.language(of: "fr") == "fr")
        #expect(POSIXLocale.language(of: "zh-Hant-TW") == "zh")
        #expect(POSIXLocale.language(of: "en_US_POSIX") == nil)
        #expect(POSIXLocale.language(of: "x") == nil)
        #expect(POSIXLocale.language(of: "12_AB") == nil)
    }

    @Test func tzWithALeadingColonNamesTheZone() {
        #expect(timeZone(["TZ": ":Europe/Paris"]) == "Europe/Paris")
        #expect(timeZone(["TZ": "Asia/Tokyo"]) == "Asia/Tokyo")
        #expect(timeZone(["TZ": "Etc/GMT+5"]) == "Etc/GMT+5")
    }

    @Test func tzAsAZoneinfoPathNamesTheZone() {
        #expect(timeZone(["TZ": "/usr/share/zoneinfo/Europe/Berlin"]) == "Europe/Berlin")
        #expect(timeZone(["TZ": ":/usr/share/zoneinfo/posix/America/Argentina/Buenos_Aires"]) == "America/Argentina/Buenos_Aires")
    }

    @Test func tzThatNamesNoZoneFallsThroughToTheLink() {
        let link = "/usr/share/zoneinfo/Europe/Rome"
        #expect(timeZone(["TZ": ":/etc/localtime"], link: link) == "Europe/Rome")
        #expect(timeZone(["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"], link: link) == "Europe/Rome")
        #expect(timeZone(["TZ": ""], link: link) == "Europe/Rome")
        #expect(timeZone(["TZ": "../Europe/Paris"], link: link) == "Europe/Rome")
    }

    @Test func theLocaltimeLinkNamesTheZone() {
        #expect(timeZone(link: "/usr/share/zoneinfo/Europe/Berlin") == "Europe/Berlin")
        #expect(timeZone(link: "/var/db/timezone/zoneinfo/Australia/Sydney") == "Australia/Sydney")
    }

    @Test func aRelativeLocaltimeLinkNamesTheZone() {
        #expect(timeZone(link: "../usr/share/zoneinfo/America/New_York") == "America/New_York")
    }

    @Test func theTimezoneFileIsTheNextFallback() {
        #expect(timeZone(link: "/some/other/file", file: "Europe/Lisbon\n") == "Europe/Lisbon")
        #expect(timeZone(file: "  Africa/Nairobi \nignored\n") == "Africa/Nairobi")
    }

    @Test func utcWhenNothingNamesAZone() {
        #expect(timeZone() == "UTC")
        #expect(timeZone(["TZ": "EST+5,M3.2.0"], link: "/etc/other", file: "\n") == "UTC")
        #expect(timeZone(file: "not a zone") == "UTC")
    }

    #if os(Linux)
    @Test func theCurrentDeviceReadsTheProcessEnvironment() {
        let current = DeviceInfo.current()
        let locale = POSIXLocale.identifier(environment: POSIXEnvironment.values(of: ["LC_ALL", "LC_MESSAGES", "LANG"]))
        #expect(current.locale == locale)
        #expect(current.language == POSIXLocale.language(of: locale))
        let zone = POSIXTimeZone.identifier(
            environment: POSIXEnvironment.values(of: ["TZ"]),
            localtimeTarget: POSIXEnvironment.symbolicLinkTarget("/etc/localtime"),
            timezoneFile: POSIXEnvironment.firstBytes(ofFile: "/etc/timezone")
        )
        #expect(current.timeZone == zone)
    }
    #endif

    private func timeZone(_ environment: [String: String] = [:], link: String? = nil, file: String? = nil) -> String {
        POSIXTimeZone.identifier(environment: environment, localtimeTarget: link, timezoneFile: file)
    }
}
