import Foundation
import TonearmServer

extension ServerConfiguration {
    /// WireMock's root directory, version and response templating; setting it (or any of its members)
    /// installs WireMock in the server: its admin API under `/__admin/` and its stub mappings, answering
    /// ahead of the cassette. A configuration nobody set it on serves no WireMock.
    public var wireMock: WireMock {
        get { installedExtension as? WireMock ?? WireMock() }
        set { installedExtension = newValue }
    }

    /// WireMock's root directory, the WireMock version Tonearm answers as, and response templating.
    public struct WireMock: Sendable {
        /// A WireMock root directory (`--root-dir`): its `mappings` are loaded as stub mappings (the
        /// defaults of `POST /__admin/mappings/reset`), its `__files` hold their body files, and
        /// `POST /__admin/mappings/save` writes there.
        public var rootDirectory: URL?
        /// Which WireMock version Tonearm behaves as where 2.35 and 3.x differ (`--wiremock-version`):
        /// the admin routes 3.x added, how `GET /__admin/files` names files, whether templates
        /// HTML-escape what `{{…}}` writes, and which mappings are templated unless
        /// `responseTemplating` says otherwise. WireMock 3.x's by default.
        public var version: Version
        /// Which mappings' responses are rendered as templates (`--local-response-templating`,
        /// `--global-response-templating`, `--disable-response-templating`, WireMock's options), or
        /// `nil` for `version`'s default: WireMock 3.x templates the mappings that name
        /// `response-template` ( `ResponseTemplating/local`), the 2.35 standalone server none
        /// (`ResponseTemplating/off`) unless started with one of the options.
        public var responseTemplating: ResponseTemplating?

        /// The templating in force: `responseTemplating`, else `version`'s default.
        public var effectiveResponseTemplating: ResponseTemplating {
            responseTemplating ?? version.defaultResponseTemplating
        }

        /// A WireMock version whose behaviour Tonearm reproduces where versions differ. A struct rather
        /// than an enum, so that a later version is not a breaking change.
        public struct Version: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The version's name, as `--wiremock-version` takes it: `2` or `3`.
            public let rawValue: String

            /// The version named `rawValue` (`2` or `3`, or `2.35` and `3.13`); `nil` for a version Tonearm
            /// does not know.
            public init?(rawValue: String) {
                switch rawValue {
                case "2", "2.35", "2.35.1": self = .v2
                case "3", "3.13", "3.13.2": self = .v3
                default: return nil
                }
            }

            private init(known: String) {
                rawValue = known
            }

            /// WireMock 2.35.1's standalone server: the admin routes 3.x added answer as the 2.35.1 jar
            /// routes them (404; 500 for `mappings/unmatched`), `GET /__admin/files` lists absolute
            /// paths, templates HTML-escape `{{…}}`, and no mapping is templated unless templating is
            /// asked for.
            public static let v2 = Version(known: "2")
            /// WireMock 3.x's (3.13.2): `GET /__admin/version`, `GET`/`DELETE /__admin/mappings/unmatched`
            /// and `GET /__admin/files/{name}`, files listed by their names in `__files`, `{{…}}` written
            /// as it is, and the mappings naming `response-template` templated.
            public static let v3 = Version(known: "3")
            /// Every version Tonearm knows.
            public static let allCases = [v2, v3]

            /// The version's name.
            public var description: String { rawValue }

            /// Whether templates HTML-escape what `{{…}}` writes (`&` as `&amp;`), as 2.35 does; 3.x's
            /// standalone server writes it as it is. `{{{…}}}` is never escaped.
            public var escapesTemplates: Bool { self == .v2 }

            /// The templating of the version's standalone server started without a templating option.
            public var defaultResponseTemplating: ResponseTemplating { self == .v2 ? .off : .local }
        }

        /// Which mappings' responses are templates. A struct rather than an enum, so that a later mode is
        /// not a breaking change.
        public struct ResponseTemplating: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The mode's name: `off`, `local` or `global`.
            public let rawValue: String

            /// The mode named `rawValue`; `nil` for another name.
            public init?(rawValue: String) {
                guard ["off", "local", "global"].contains(rawValue) else { return nil }
                self.rawValue = rawValue
            }

            private init(known: String) {
                rawValue = known
            }

            /// No response is templated; a mapping's `"transformers": ["response-template"]` is read and
            /// not applied, as WireMock without the transformer does (`--disable-response-templating`).
            public static let off = ResponseTemplating(known: "off")
            /// The responses of mappings naming `response-template` in `transformers`
            /// (`--local-response-templating`).
            public static let local = ResponseTemplating(known: "local")
            /// Every mapping's response (`--global-response-templating`).
            public static let global = ResponseTemplating(known: "global")

            /// The mode's name.
            public var description: String { rawValue }
        }

        /// No root directory; WireMock 3.x's behaviour (`version` `.v3`) with its templating default
        /// unless `responseTemplating` is given.
        public init(rootDirectory: URL? = nil, version: Version = .v3, responseTemplating: ResponseTemplating? = nil) {
            self.rootDirectory = rootDirectory
            self.version = version
            self.responseTemplating = responseTemplating
        }
    }
}
